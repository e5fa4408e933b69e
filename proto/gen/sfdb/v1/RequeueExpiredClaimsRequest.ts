// Original file: proto/sfdb/v1/maintenance.proto

import type { LeaseFence as _sfdb_v1_LeaseFence, LeaseFence__Output as _sfdb_v1_LeaseFence__Output } from '../../sfdb/v1/LeaseFence.js';

export interface RequeueExpiredClaimsRequest {
  'fence'?: (_sfdb_v1_LeaseFence | null);
  /**
   * At most this many claims in one call (1..10000; 0 means 1000).
   */
  'limit'?: (number);
}

export interface RequeueExpiredClaimsRequest__Output {
  'fence': (_sfdb_v1_LeaseFence__Output | null);
  /**
   * At most this many claims in one call (1..10000; 0 means 1000).
   */
  'limit': (number);
}
