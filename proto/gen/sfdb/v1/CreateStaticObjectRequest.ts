// Original file: proto/sfdb/v1/objects.proto

import type { LeaseFence as _sfdb_v1_LeaseFence, LeaseFence__Output as _sfdb_v1_LeaseFence__Output } from '../../sfdb/v1/LeaseFence.js';

export interface CreateStaticObjectRequest {
  /**
   * Chosen by the client: creation is idempotent.
   */
  'uuid'?: (string);
  'namespace'?: (string);
  'nodeUuid'?: (string);
  'staticValues'?: (string);
  /**
   * Top-level keys of static_values that hold secrets (at most 16, each a key present).
   */
  'secretFields'?: (string)[];
  /**
   * Optional: write only while this lease is held (docs/contract.md, "Fenced writes").
   */
  'fence'?: (_sfdb_v1_LeaseFence | null);
}

export interface CreateStaticObjectRequest__Output {
  /**
   * Chosen by the client: creation is idempotent.
   */
  'uuid': (string);
  'namespace': (string);
  'nodeUuid': (string);
  'staticValues': (string);
  /**
   * Top-level keys of static_values that hold secrets (at most 16, each a key present).
   */
  'secretFields': (string)[];
  /**
   * Optional: write only while this lease is held (docs/contract.md, "Fenced writes").
   */
  'fence': (_sfdb_v1_LeaseFence__Output | null);
}
