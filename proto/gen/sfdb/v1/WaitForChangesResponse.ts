// Original file: proto/sfdb/v1/changes.proto

import type { Change as _sfdb_v1_Change, Change__Output as _sfdb_v1_Change__Output } from '../../sfdb/v1/Change.js';

export interface WaitForChangesResponse {
  /**
   * Coalesced per (topic, id): the latest change of each.
   */
  'changes'?: (_sfdb_v1_Change)[];
  'cursor'?: (string);
  'resync'?: (boolean);
}

export interface WaitForChangesResponse__Output {
  /**
   * Coalesced per (topic, id): the latest change of each.
   */
  'changes': (_sfdb_v1_Change__Output)[];
  'cursor': (string);
  'resync': (boolean);
}
