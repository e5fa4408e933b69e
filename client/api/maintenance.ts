// Maintenance jobs for a lease holder: the lease is presented with each call and checked
// by the tier inside the job's transaction (a deposed holder gets Fenced).
import type { CallOptions, Transport } from '../transport.js';

export interface MaintenanceFence {
  name: string;
  holder: string;
  token: string;
}

export function maintenanceApi(t: Transport) {
  return {
    /** Requeues claims whose lease ran out (bumping their epoch); answers how many. */
    async requeueExpiredClaims(fence: MaintenanceFence, limit = 0, opts?: CallOptions): Promise<number> {
      return Number((await t.call('RequeueExpiredClaims', { fence, limit }, opts)).requeued);
    },

    /** Removes registry rows of replicas dead longer than `olderThanMs` (0: the tier's setting). */
    async sweepReplicaRegistry(fence: MaintenanceFence, olderThanMs = 0, opts?: CallOptions): Promise<string[]> {
      return (await t.call('SweepReplicaRegistry', { fence, olderThanMs }, opts)).replicaIds;
    },
  };
}

export type MaintenanceApi = ReturnType<typeof maintenanceApi>;
