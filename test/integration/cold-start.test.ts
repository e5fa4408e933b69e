// A cluster starting at once against a real tier too small for it (a pool of 2 connections
// and 4 waiting statements): the tier sheds the storm with RESOURCE_EXHAUSTED and a
// pushback, every daemon retries through it and runs, none gives up. Each daemon has its
// own client and static-object cache (feed mode), as a simulated process does, and its
// start cancels no long-poll: its cache's subscription and its own share the first poll.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { StaticObjectCache, createClient } from '../../client/index.js';
import type { DatabaseClient } from '../../client/index.js';
import { Daemon, daemonSettings } from '../../daemons/index.js';
import { metricSum } from '../../harness/scrape.js';
import { startTestTier } from '../helpers/tier.js';
import type { TestTier } from '../helpers/tier.js';

const NODES = 10;
const DAEMONS_PER_NODE = 5;

let t: TestTier;
const clients: DatabaseClient[] = [];
const daemons: Daemon[] = [];
const log = pino({ level: 'silent' });

/**
 * A daemon with nothing to do but hear its own state. Its start reads a row of its own
 * once RUNNING is recorded, as a daemon reads its work: the RUNNINGs of a starting
 * cluster are group-committed and answered together, so these reads arrive at once.
 */
class QuietDaemon extends Daemon {
  protected override async onStart(): Promise<void> {
    await this.db.getNodeDaemonState(this.nodeUuid, this.name);
  }

  protected async step(): Promise<number> {
    return 60_000;
  }
}

beforeAll(async () => {
  t = await startTestTier({ env: { SFDB_POOL_SIZE: '2', SFDB_POOL_QUEUE_LIMIT: '4' } });
});
afterAll(async () => {
  await Promise.all(daemons.map((d) => d.stop()));
  for (const c of clients) c.close();
  await t.stop();
});

describe('a cluster starting at once', () => {
  it('every daemon runs: the tier sheds with a pushback, the daemons retry through it, and no long-poll is cancelled', async () => {
    const admin = t.client({ cache: false, feed: false });
    const nodes = Array.from({ length: NODES }, () => randomUUID());
    for (const uuid of nodes) await admin.createNode({ uuid, fqdn: `cold-${uuid}.example.com` });
    const before = await t.metrics();

    for (const node of nodes) {
      for (const name of ['queues', 'net', 'transfers', 'sidechannel', 'resources'].slice(0, DAEMONS_PER_NODE)) {
        const db = createClient({ targets: `127.0.0.1:${t.tier.grpcPort}`, callerDaemon: name, callerNode: node, cache: new StaticObjectCache(), feed: true });
        clients.push(db);
        daemons.push(new QuietDaemon({ name, nodeUuid: node, db, log, settings: daemonSettings({}) }));
      }
    }
    const started = await Promise.allSettled(daemons.map((d) => d.start()));
    expect(started.filter((r) => r.status === 'rejected')).toEqual([]);
    expect(await t.count('node_daemon_states', "state = 'RUNNING'")).toBe(NODES * DAEMONS_PER_NODE);

    const after = await t.metrics();
    const delta = (name: string, labels: Record<string, string>): number => metricSum(after, name, labels) - metricSum(before, name, labels);
    // The storm was shed, not queued to its deadline.
    expect(delta('database_request_errors_total', { code: 'RESOURCE_EXHAUSTED' })).toBeGreaterThan(0);
    // No daemon's start cancelled its first long-poll (nor had any other poll fail).
    expect(delta('database_request_errors_total', { operation: 'WaitForChanges' })).toBe(0);
  });
});
