// Original file: proto/sfdb/v1/objects.proto

import type { StaticObject as _sfdb_v1_StaticObject, StaticObject__Output as _sfdb_v1_StaticObject__Output } from '../../sfdb/v1/StaticObject.js';

export interface CreateStaticObjectResponse {
  'object'?: (_sfdb_v1_StaticObject | null);
  'created'?: (boolean);
}

export interface CreateStaticObjectResponse__Output {
  'object': (_sfdb_v1_StaticObject__Output | null);
  'created': (boolean);
}
