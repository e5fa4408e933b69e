// Original file: proto/sfdb/v1/references.proto

import type { ObjectType as _sfdb_v1_ObjectType, ObjectType__Output as _sfdb_v1_ObjectType__Output } from '../../sfdb/v1/ObjectType.js';
import type { LeaseFence as _sfdb_v1_LeaseFence, LeaseFence__Output as _sfdb_v1_LeaseFence__Output } from '../../sfdb/v1/LeaseFence.js';

export interface RecordReferenceRequest {
  'fromType'?: (_sfdb_v1_ObjectType);
  'fromUuid'?: (string);
  'toType'?: (_sfdb_v1_ObjectType);
  'toUuid'?: (string);
  'relation'?: (string);
  /**
   * Optional: write only while this lease is held (docs/contract.md, "Fenced writes").
   */
  'fence'?: (_sfdb_v1_LeaseFence | null);
}

export interface RecordReferenceRequest__Output {
  'fromType': (_sfdb_v1_ObjectType__Output);
  'fromUuid': (string);
  'toType': (_sfdb_v1_ObjectType__Output);
  'toUuid': (string);
  'relation': (string);
  /**
   * Optional: write only while this lease is held (docs/contract.md, "Fenced writes").
   */
  'fence': (_sfdb_v1_LeaseFence__Output | null);
}
