// Original file: proto/sfdb/v1/objects.proto

import type { LeaseFence as _sfdb_v1_LeaseFence, LeaseFence__Output as _sfdb_v1_LeaseFence__Output } from '../../sfdb/v1/LeaseFence.js';
import type { Long } from '@grpc/proto-loader';

export interface UpdateStaticObjectRequest {
  'uuid'?: (string);
  'staticValues'?: (string);
  /**
   * When non-zero, the update happens only at this version (else Conflict).
   */
  'expectedVersion'?: (number | string | Long);
  /**
   * The secret keys of the new static values (replaces the old list).
   */
  'secretFields'?: (string)[];
  /**
   * Optional: write only while this lease is held (docs/contract.md, "Fenced writes").
   */
  'fence'?: (_sfdb_v1_LeaseFence | null);
}

export interface UpdateStaticObjectRequest__Output {
  'uuid': (string);
  'staticValues': (string);
  /**
   * When non-zero, the update happens only at this version (else Conflict).
   */
  'expectedVersion': (string);
  /**
   * The secret keys of the new static values (replaces the old list).
   */
  'secretFields': (string)[];
  /**
   * Optional: write only while this lease is held (docs/contract.md, "Fenced writes").
   */
  'fence': (_sfdb_v1_LeaseFence__Output | null);
}
