// Maintenance jobs for a lease holder: the lease is presented with each call and checked
// by the tier inside the job's transaction (a deposed holder gets Fenced).
import type { LeaseFence } from '../fence.js';
import type { CallOptions, Transport } from '../transport.js';

export function maintenanceApi(t: Transport) {
  return {
    /** Requeues claims whose lease ran out (bumping their epoch); answers how many. */
    async requeueExpiredClaims(fence: LeaseFence, limit = 0, opts?: CallOptions): Promise<number> {
      return Number((await t.call('RequeueExpiredClaims', { fence, limit }, opts)).requeued);
    },

    /** Removes registry rows of replicas dead longer than `olderThanMs` (0: the tier's setting). */
    async sweepReplicaRegistry(fence: LeaseFence, olderThanMs = 0, opts?: CallOptions): Promise<string[]> {
      return (await t.call('SweepReplicaRegistry', { fence, olderThanMs }, opts)).replicaIds;
    },
  };
}

export type MaintenanceApi = ReturnType<typeof maintenanceApi>;
