// Original file: proto/sfdb/v1/references.proto

import type { ObjectType as _sfdb_v1_ObjectType, ObjectType__Output as _sfdb_v1_ObjectType__Output } from '../../sfdb/v1/ObjectType.js';

export interface GetReferencesFromRequest {
  'objectType'?: (_sfdb_v1_ObjectType);
  'uuid'?: (string);
  'limit'?: (number);
}

export interface GetReferencesFromRequest__Output {
  'objectType': (_sfdb_v1_ObjectType__Output);
  'uuid': (string);
  'limit': (number);
}
