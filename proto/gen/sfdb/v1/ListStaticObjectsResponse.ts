// Original file: proto/sfdb/v1/objects.proto

import type { StaticObject as _sfdb_v1_StaticObject, StaticObject__Output as _sfdb_v1_StaticObject__Output } from '../../sfdb/v1/StaticObject.js';

export interface ListStaticObjectsResponse {
  'objects'?: (_sfdb_v1_StaticObject)[];
  'nextPageToken'?: (string);
}

export interface ListStaticObjectsResponse__Output {
  'objects': (_sfdb_v1_StaticObject__Output)[];
  'nextPageToken': (string);
}
