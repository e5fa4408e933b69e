// Original file: proto/sfdb/v1/objects.proto

import type { ObjectType as _sfdb_v1_ObjectType, ObjectType__Output as _sfdb_v1_ObjectType__Output } from '../../sfdb/v1/ObjectType.js';

export interface SetObjectAttributesRequest {
  'objectType'?: (_sfdb_v1_ObjectType);
  'uuid'?: (string);
  /**
   * key -> JSON text. Keys not named here are left alone.
   */
  'attributes'?: ({[key: string]: string});
}

export interface SetObjectAttributesRequest__Output {
  'objectType': (_sfdb_v1_ObjectType__Output);
  'uuid': (string);
  /**
   * key -> JSON text. Keys not named here are left alone.
   */
  'attributes': ({[key: string]: string});
}
