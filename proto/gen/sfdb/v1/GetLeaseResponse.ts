// Original file: proto/sfdb/v1/leases.proto

import type { Lease as _sfdb_v1_Lease, Lease__Output as _sfdb_v1_Lease__Output } from '../../sfdb/v1/Lease.js';

export interface GetLeaseResponse {
  'found'?: (boolean);
  'lease'?: (_sfdb_v1_Lease | null);
}

export interface GetLeaseResponse__Output {
  'found': (boolean);
  'lease': (_sfdb_v1_Lease__Output | null);
}
