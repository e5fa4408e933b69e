// In a child process that holds a lease for a test or a bench (test/fixtures/lease-worker.ts,
// bench/faults/deposed-holder-child.ts): its LeaseKeeper, from the environment (LEASE_NAME,
// HOLDER, TTL_MS), reporting `acquired` and `lost` as JSON event lines on stdout.
import { LeaseKeeper } from '../client/index.js';
import type { LeaseCalls } from '../client/index.js';
import { requiredEnv, sayEvent } from './children.js';

export function leaseKeeperFromEnv(db: LeaseCalls): LeaseKeeper {
  return new LeaseKeeper(db, {
    name: requiredEnv('LEASE_NAME'),
    holder: requiredEnv('HOLDER'),
    ttlMs: Number(requiredEnv('TTL_MS')),
    onAcquired: (token) => sayEvent('acquired', { token }),
    onLost: (reason) => sayEvent('lost', { reason }),
  });
}
