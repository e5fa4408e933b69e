// Original file: proto/sfdb/v1/objects.proto

import type { ObjectType as _sfdb_v1_ObjectType, ObjectType__Output as _sfdb_v1_ObjectType__Output } from '../../sfdb/v1/ObjectType.js';

export interface GetObjectStateRequest {
  'objectType'?: (_sfdb_v1_ObjectType);
  'uuid'?: (string);
}

export interface GetObjectStateRequest__Output {
  'objectType': (_sfdb_v1_ObjectType__Output);
  'uuid': (string);
}
