// Original file: proto/sfdb/v1/objects.proto

import type { ObjectType as _sfdb_v1_ObjectType, ObjectType__Output as _sfdb_v1_ObjectType__Output } from '../../sfdb/v1/ObjectType.js';
import type { LeaseFence as _sfdb_v1_LeaseFence, LeaseFence__Output as _sfdb_v1_LeaseFence__Output } from '../../sfdb/v1/LeaseFence.js';

export interface DeleteObjectStateRequest {
  'objectType'?: (_sfdb_v1_ObjectType);
  'uuid'?: (string);
  /**
   * Optional: write only while this lease is held (docs/contract.md, "Fenced writes").
   */
  'fence'?: (_sfdb_v1_LeaseFence | null);
}

export interface DeleteObjectStateRequest__Output {
  'objectType': (_sfdb_v1_ObjectType__Output);
  'uuid': (string);
  /**
   * Optional: write only while this lease is held (docs/contract.md, "Fenced writes").
   */
  'fence': (_sfdb_v1_LeaseFence__Output | null);
}
