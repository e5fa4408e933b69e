// Original file: proto/sfdb/v1/objects.proto

import type { StaticObject as _sfdb_v1_StaticObject, StaticObject__Output as _sfdb_v1_StaticObject__Output } from '../../sfdb/v1/StaticObject.js';

export interface GetStaticObjectResponse {
  'found'?: (boolean);
  'object'?: (_sfdb_v1_StaticObject | null);
}

export interface GetStaticObjectResponse__Output {
  'found': (boolean);
  'object': (_sfdb_v1_StaticObject__Output | null);
}
