// The deposed holder's process (deposed-holder.ts runs it): holds a lease with a
// LeaseKeeper and writes, one call at a time, a cluster-config key of its own per write
// under the fence it was first given — kept on purpose after the keeper loses the lease,
// as a holder paused mid-job would still have it in hand. Reports each write as a JSON
// line on stdout: written or refused (the error's name), with the wall time it was sent.
//   env: SFDB_TARGETS, LEASE_NAME, HOLDER, TTL_MS, KEY_PREFIX, WRITE_EVERY_MS
import { createClient } from '../../client/index.js';
import type { LeaseFence } from '../../client/index.js';
import { requiredEnv, sayEvent } from '../../harness/children.js';
import { leaseKeeperFromEnv } from '../../harness/lease-child.js';

const db = createClient({ callerDaemon: 'deposed-holder', deadlineMs: 2000 });
const keeper = leaseKeeperFromEnv(db);
const prefix = requiredEnv('KEY_PREFIX');
const everyMs = Number(requiredEnv('WRITE_EVERY_MS'));
let stopping = false;

async function writeLoop(): Promise<void> {
  let fence: LeaseFence | undefined;
  while (!stopping && !fence) {
    fence = keeper.fence();
    await new Promise((r) => setTimeout(r, 10));
  }
  for (let n = 1; !stopping && fence; n++) {
    const key = `${prefix}.${n}`;
    const sentAt = Date.now();
    try {
      await db.setClusterConfig(key, n, { fence });
      sayEvent('written', { n, key, sentAt, token: fence.token });
    } catch (err) {
      sayEvent('refused', { n, key, sentAt, token: fence.token, error: (err as Error).name, keeperHolds: keeper.isHolder() });
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

process.on('SIGTERM', () => {
  stopping = true;
  void keeper.stop().then(() => process.exit(0));
});
keeper.start();
sayEvent('started');
void writeLoop();
