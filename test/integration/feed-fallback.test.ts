// A daemon in feed mode against real tiers: while the feed serves, its idle makes no call;
// when the tier goes away its waiter falls back and the daemon polls its state (the anchor
// fallback); when a tier serves again on the same address the waiter returns to the feed
// (with a resync) and an operator stop reaches the daemon through it.
import { randomUUID } from 'node:crypto';
import { afterAll, expect, it } from 'vitest';
import { pino } from 'pino';
import type { DatabaseClient } from '../../client/index.js';
import { Daemon, daemonSettings } from '../../daemons/index.js';
import { startTestTier } from '../helpers/tier.js';
import type { TestTier } from '../helpers/tier.js';

class IdleDaemon extends Daemon {
  protected async step(): Promise<number> {
    return 60_000;
  }

  get feedServes(): boolean {
    return this.feedActive;
  }
}

const tiers: TestTier[] = [];
afterAll(async () => {
  for (const t of tiers.reverse()) await t.stop().catch(() => undefined);
});

/** Polls `check` (local state or a cheap read) until it holds; fails after `ms`. */
async function until(check: () => boolean | Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  for (const deadline = Date.now() + ms; !(await check()); ) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

it('falls back to polling when the tier is gone, returns to the feed when one serves again, and hears an operator stop', async () => {
  const first = await startTestTier();
  tiers.push(first);
  const port = first.tier.grpcPort;
  const admin = first.client({ feed: false, cache: false });
  const node = randomUUID();
  await admin.createNode({ uuid: node, fqdn: `fallback-${node.slice(0, 8)}.example.com` });

  const db: DatabaseClient = first.client({
    callerDaemon: 'queues',
    callerNode: node,
    cache: false,
    deadlineMs: 1000,
    maxAttempts: 1,
    waiter: { errorsBeforeFallback: 1, retryFeedMs: 300, waitTimeoutMs: 5000 },
  });
  const settings = daemonSettings({}, { feed: true, idleTickMs: 50, daemonStatePollMs: 200, daemonStatePollMaxMs: 400 });
  const daemon = new IdleDaemon({ name: 'queues', nodeUuid: node, db, settings, log: pino({ level: 'silent' }) });
  await daemon.start();
  expect(db.changes.mode).toBe('feed');
  await until(() => daemon.feedServes, 'feed mode');
  const pollsOnFeed = daemon.snapshot().polls;
  await new Promise((r) => setTimeout(r, 600));
  // No poll while the feed serves (the read of its own RUNNING coming back at most).
  expect(daemon.snapshot().polls - pollsOnFeed).toBeLessThanOrEqual(1);

  // The tier goes away: the waiter falls back, the daemon polls (and keeps failing).
  await first.tier.stop();
  await until(() => db.changes.mode === 'fallback', 'fallback');
  const pollsAtFallback = daemon.snapshot().polls;
  await until(() => daemon.snapshot().polls >= pollsAtFallback + 2, 'polling in fallback');

  // A tier serves again on the same address (same database): back to the feed.
  const second = await startTestTier({ database: first.database, env: { SFDB_GRPC_PORT: String(port) } });
  tiers.push(second);
  await until(() => db.changes.mode === 'feed' && daemon.feedServes, 'back on the feed');

  const started = Date.now();
  await second.client({ feed: false, cache: false }).setNodeDaemonState(node, 'queues', 'STOPPING', 'operator (test)');
  expect(await daemon.done).toBe('operator');
  // Through the feed, not a later poll: well within one poll interval of the fallback's.
  console.log(`operator stop after the feed returned: ${Date.now() - started} ms`);
  expect((await second.client({ feed: false, cache: false }).getNodeDaemonState(node, 'queues'))?.state).toBe('STOPPED');
});

it('stops when its node is deleted: the deleted daemon state reaches it through the feed', async () => {
  const t = await startTestTier();
  tiers.push(t);
  const admin = t.client({ feed: false, cache: false });
  const node = randomUUID();
  await admin.createNode({ uuid: node, fqdn: `deleted-${node.slice(0, 8)}.example.com` });
  const db = t.client({ callerDaemon: 'queues', callerNode: node, cache: false });
  // A long state poll: only the feed can bring the deletion in time.
  const settings = daemonSettings({}, { feed: true, idleTickMs: 50, daemonStatePollMs: 600_000, daemonStatePollMaxMs: 600_000 });
  const daemon = new IdleDaemon({ name: 'queues', nodeUuid: node, db, settings, log: pino({ level: 'silent' }) });
  await daemon.start();
  await until(() => daemon.feedServes, 'feed mode');
  expect(await admin.deleteNode(node)).toBe(true);
  expect(await daemon.done).toBe('operator');
  // Its STOPPED names a node that is gone: refused, and nothing is written.
  expect(await admin.getNodeDaemonState(node, 'queues')).toBeUndefined();
});

it('stops waiting on the feed when its client is closed under it (a closed subscription answers at once: no spin)', async () => {
  const t = await startTestTier();
  tiers.push(t);
  const node = randomUUID();
  await t.client({ feed: false, cache: false }).createNode({ uuid: node, fqdn: `closed-${node.slice(0, 8)}.example.com` });
  const db = t.client({ callerDaemon: 'queues', callerNode: node, cache: false });
  const settings = daemonSettings({}, { feed: true, idleTickMs: 50 });
  const daemon = new IdleDaemon({ name: 'queues', nodeUuid: node, db, settings, log: pino({ level: 'silent' }) });
  await daemon.start();
  await until(() => daemon.feedServes, 'feed mode');
  db.close();
  // Read and stop in the same turn: had the idle kept to the closed feed, it would spin
  // without yielding from the next turn on.
  const serves = daemon.feedServes;
  const stopped = daemon.stop();
  expect(serves).toBe(false);
  expect(await stopped).toBe('requested');
});
