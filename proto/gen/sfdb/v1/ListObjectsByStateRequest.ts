// Original file: proto/sfdb/v1/objects.proto

import type { ObjectType as _sfdb_v1_ObjectType, ObjectType__Output as _sfdb_v1_ObjectType__Output } from '../../sfdb/v1/ObjectType.js';
import type { ObjectState as _sfdb_v1_ObjectState, ObjectState__Output as _sfdb_v1_ObjectState__Output } from '../../sfdb/v1/ObjectState.js';

export interface ListObjectsByStateRequest {
  'objectType'?: (_sfdb_v1_ObjectType);
  'state'?: (_sfdb_v1_ObjectState);
  /**
   * Optional scope: only objects placed on this node.
   */
  'nodeUuid'?: (string);
  'pageSize'?: (number);
  'pageToken'?: (string);
}

export interface ListObjectsByStateRequest__Output {
  'objectType': (_sfdb_v1_ObjectType__Output);
  'state': (_sfdb_v1_ObjectState__Output);
  /**
   * Optional scope: only objects placed on this node.
   */
  'nodeUuid': (string);
  'pageSize': (number);
  'pageToken': (string);
}
