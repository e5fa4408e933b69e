// Original file: proto/sfdb/v1/changes.proto

import type { Change as _sfdb_v1_Change, Change__Output as _sfdb_v1_Change__Output } from '../../sfdb/v1/Change.js';

export interface GetChangesSinceResponse {
  'changes'?: (_sfdb_v1_Change)[];
  'cursor'?: (string);
  'resync'?: (boolean);
  /**
   * More changes are past `cursor`: ask again.
   */
  'more'?: (boolean);
}

export interface GetChangesSinceResponse__Output {
  'changes': (_sfdb_v1_Change__Output)[];
  'cursor': (string);
  'resync': (boolean);
  /**
   * More changes are past `cursor`: ask again.
   */
  'more': (boolean);
}
