// Original file: proto/sfdb/v1/database.proto

import type { StaticObject as _sfdb_v1_StaticObject, StaticObject__Output as _sfdb_v1_StaticObject__Output } from '../../sfdb/v1/StaticObject.js';

export interface UpdateStaticObjectResponse {
  'object'?: (_sfdb_v1_StaticObject | null);
}

export interface UpdateStaticObjectResponse__Output {
  'object': (_sfdb_v1_StaticObject__Output | null);
}
