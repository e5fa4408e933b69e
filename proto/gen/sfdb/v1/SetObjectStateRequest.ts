// Original file: proto/sfdb/v1/objects.proto

import type { ObjectType as _sfdb_v1_ObjectType, ObjectType__Output as _sfdb_v1_ObjectType__Output } from '../../sfdb/v1/ObjectType.js';
import type { ObjectState as _sfdb_v1_ObjectState, ObjectState__Output as _sfdb_v1_ObjectState__Output } from '../../sfdb/v1/ObjectState.js';

export interface SetObjectStateRequest {
  'objectType'?: (_sfdb_v1_ObjectType);
  'uuid'?: (string);
  'state'?: (_sfdb_v1_ObjectState);
  'message'?: (string);
}

export interface SetObjectStateRequest__Output {
  'objectType': (_sfdb_v1_ObjectType__Output);
  'uuid': (string);
  'state': (_sfdb_v1_ObjectState__Output);
  'message': (string);
}
