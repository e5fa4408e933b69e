// Original file: proto/sfdb/v1/database.proto

import type { Lease as _sfdb_v1_Lease, Lease__Output as _sfdb_v1_Lease__Output } from '../../sfdb/v1/Lease.js';

export interface AcquireLeaseResponse {
  'acquired'?: (boolean);
  /**
   * The lease as it stands: ours when acquired, the current holder's otherwise.
   */
  'lease'?: (_sfdb_v1_Lease | null);
}

export interface AcquireLeaseResponse__Output {
  'acquired': (boolean);
  /**
   * The lease as it stands: ours when acquired, the current holder's otherwise.
   */
  'lease': (_sfdb_v1_Lease__Output | null);
}
