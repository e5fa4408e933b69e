// Original file: proto/sfdb/v1/changes.proto

import type { LeaseFence as _sfdb_v1_LeaseFence, LeaseFence__Output as _sfdb_v1_LeaseFence__Output } from '../../sfdb/v1/LeaseFence.js';

export interface PruneChangesRequest {
  'fence'?: (_sfdb_v1_LeaseFence | null);
  /**
   * At most this many rows in one call (1..100000; 0 means 10000), in batches of 1000.
   */
  'limit'?: (number);
}

export interface PruneChangesRequest__Output {
  'fence': (_sfdb_v1_LeaseFence__Output | null);
  /**
   * At most this many rows in one call (1..100000; 0 means 10000), in batches of 1000.
   */
  'limit': (number);
}
