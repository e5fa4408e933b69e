// Original file: proto/sfdb/v1/leases.proto

import type { Lease as _sfdb_v1_Lease, Lease__Output as _sfdb_v1_Lease__Output } from '../../sfdb/v1/Lease.js';

export interface AcquireLeaseResponse {
  'acquired'?: (boolean);
  /**
   * The lease as it stands: ours when acquired, the current holder's otherwise.
   */
  'lease'?: (_sfdb_v1_Lease | null);
  /**
   * The tier publishes lease/<name> when this lease ends without a renewal or release (as
   * it does for a release and a change of holder): a standby on the change feed need not
   * ask at the lease's end. False from a tier that does not.
   */
  'expiryAnnounced'?: (boolean);
}

export interface AcquireLeaseResponse__Output {
  'acquired': (boolean);
  /**
   * The lease as it stands: ours when acquired, the current holder's otherwise.
   */
  'lease': (_sfdb_v1_Lease__Output | null);
  /**
   * The tier publishes lease/<name> when this lease ends without a renewal or release (as
   * it does for a release and a change of holder): a standby on the change feed need not
   * ask at the lease's end. False from a tier that does not.
   */
  'expiryAnnounced': (boolean);
}
