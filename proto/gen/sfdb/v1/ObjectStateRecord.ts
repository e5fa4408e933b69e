// Original file: proto/sfdb/v1/objects.proto

import type { ObjectType as _sfdb_v1_ObjectType, ObjectType__Output as _sfdb_v1_ObjectType__Output } from '../../sfdb/v1/ObjectType.js';
import type { ObjectState as _sfdb_v1_ObjectState, ObjectState__Output as _sfdb_v1_ObjectState__Output } from '../../sfdb/v1/ObjectState.js';

export interface ObjectStateRecord {
  'objectType'?: (_sfdb_v1_ObjectType);
  'uuid'?: (string);
  /**
   * Copied from the object's static values when the state is set.
   */
  'nodeUuid'?: (string);
  'state'?: (_sfdb_v1_ObjectState);
  'message'?: (string);
  'updatedAt'?: (string);
}

export interface ObjectStateRecord__Output {
  'objectType': (_sfdb_v1_ObjectType__Output);
  'uuid': (string);
  /**
   * Copied from the object's static values when the state is set.
   */
  'nodeUuid': (string);
  'state': (_sfdb_v1_ObjectState__Output);
  'message': (string);
  'updatedAt': (string);
}
