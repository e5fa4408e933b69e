// Original file: proto/sfdb/v1/leases.proto

import type { Lease as _sfdb_v1_Lease, Lease__Output as _sfdb_v1_Lease__Output } from '../../sfdb/v1/Lease.js';

export interface ListLeasesResponse {
  'leases'?: (_sfdb_v1_Lease)[];
  'nextPageToken'?: (string);
}

export interface ListLeasesResponse__Output {
  'leases': (_sfdb_v1_Lease__Output)[];
  'nextPageToken': (string);
}
