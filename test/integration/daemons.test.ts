// The reference daemons against a real tier: idle daemons make exactly their declared
// calls (counted on the tier's own counters), the queue backs off when empty, refetches
// at once when full, and makes no call while its pool is full. Fake time drives the
// daemons; the tier and MariaDB are real. Polling mode (feed off): the feed mode is
// tested in feed-fallback.test.ts, sim.test.ts and cluster-budget.test.ts.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { createClient } from '../../client/index.js';
import type { DatabaseClient } from '../../client/index.js';
import { AgentDaemon, ClusterDaemon, QueuesDaemon, daemonSettings, listPeriodicTasks } from '../../daemons/index.js';
import { FakeClock, flush, until } from '../helpers/fake-clock.js';
import { metricValue } from '../../harness/scrape.js';
import { startTestTier } from '../helpers/tier.js';
import type { TestTier } from '../helpers/tier.js';

let t: TestTier;
const log = pino({ level: 'silent' });
const clients: DatabaseClient[] = [];

beforeAll(async () => {
  t = await startTestTier();
});
afterAll(async () => {
  for (const c of clients) c.close();
  await t.stop();
});

/** A client per daemon (its caller identity), counting its calls in flight. */
function daemonClient(daemon: string, node: string): { db: DatabaseClient; inFlight: () => number } {
  const db = createClient({ targets: `127.0.0.1:${t.tier.grpcPort}`, callerDaemon: daemon, callerNode: node, cache: false });
  clients.push(db);
  let inFlight = 0;
  const counted = new Proxy(db, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== 'function' || prop === 'close') return value;
      return (...args: unknown[]) => {
        const r = (value as (...a: unknown[]) => unknown).apply(target, args);
        if (!(r instanceof Promise)) return r;
        inFlight += 1;
        return r.finally(() => (inFlight -= 1));
      };
    },
  });
  return { db: counted, inFlight: () => inFlight };
}

/** Advances fake time in idle ticks, letting every real round trip finish between ticks. */
async function run(clock: FakeClock, ms: number, settled: () => boolean): Promise<void> {
  const settle = async (): Promise<void> => {
    for (let quiet = 0; quiet < 3; ) {
      await until(settled, 15_000);
      await flush(3);
      quiet = settled() ? quiet + 1 : 0;
    }
  };
  await settle();
  for (let done = 0; done < ms; done += 200) {
    await clock.advance(200);
    await settle();
  }
}

async function node(): Promise<string> {
  const uuid = randomUUID();
  await t.client().createNode({ uuid, fqdn: `d-${uuid.slice(0, 8)}.example.com` });
  return uuid;
}

/** Requests per (operation, caller) from the tier's counters, as a delta. */
async function counts(caller: string): Promise<(op: string) => number> {
  const text = await t.metrics();
  return (op) => metricValue(text, 'database_requests_total', { operation: op, caller_daemon: caller });
}

describe('reference daemons on a real tier', () => {
  it('idle daemons make exactly their declared calls: daemon state every 2 s, no node reads', async () => {
    const nodeUuid = await node();
    const clock = new FakeClock();
    const settings = daemonSettings({}, { feed: false });
    const q = daemonClient('queues', nodeUuid);
    const c = daemonClient('cluster', nodeUuid);
    const a = daemonClient('agent', nodeUuid);
    const queues = new QueuesDaemon({ name: 'queues', nodeUuid, db: q.db, clock, log, settings }).handle('jobs', async () => 'ok');
    const cluster = new ClusterDaemon({ name: 'cluster', nodeUuid, db: c.db, clock, log, settings });
    const agent = new AgentDaemon({ name: 'agent', nodeUuid, db: a.db, clock, log, settings });
    const before = { queues: await counts('queues'), cluster: await counts('cluster'), agent: await counts('agent') };
    await Promise.all([queues.start(), cluster.start(), agent.start()]);
    await run(clock, 20_000, () => q.inFlight() + c.inFlight() + a.inFlight() === 0);
    const after = { queues: await counts('queues'), cluster: await counts('cluster'), agent: await counts('agent') };
    const delta = (d: 'queues' | 'cluster' | 'agent', op: string): number => after[d](op) - before[d](op);

    for (const d of ['queues', 'cluster', 'agent'] as const) {
      expect(delta(d, 'GetNode'), d).toBe(1); // at start only
      expect(delta(d, 'GetNodeDaemonState'), d).toBe(10); // 2 s … 20 s
      expect(delta(d, 'SetNodeDaemonState'), d).toBe(1); // RUNNING at start
    }
    // Empty queue: 0, 0.2, 0.6, 1.4, 3, 5, 7 … 19 s.
    expect(delta('queues', 'Dequeue')).toBe(13);
    expect(delta('agent', 'NodeHeartbeat')).toBe(3); // 0, 10, 20 s
    expect(delta('cluster', 'AcquireLease')).toBe(1);
    expect(delta('cluster', 'RenewLease')).toBe(2); // 10, 20 s
    expect(delta('cluster', 'RequeueExpiredClaims')).toBe(1);
    expect(delta('cluster', 'SweepReplicaRegistry')).toBe(1);
    expect(delta('cluster', 'PruneEvents')).toBe(1);

    // Nothing else: every operation a daemon called is a declared task or a start-up call.
    const text = await t.metrics();
    for (const d of ['queues', 'cluster', 'agent']) {
      const declared = new Set(listPeriodicTasks().filter((p) => p.daemon === d).map((p) => p.operation));
      for (const line of text.split('\n')) {
        const m = new RegExp(`^database_requests_total\\{operation="(\\w+)",caller_daemon="${d}"\\}`).exec(line);
        if (!m) continue;
        const op = m[1] as string;
        expect(declared.has(op) || ['GetNode', 'SetNodeDaemonState', 'ReleaseLease'].includes(op), `${d} ${op}`).toBe(true);
      }
    }
    await Promise.all([queues.stop(), cluster.stop(), agent.stop()]);
  });

  it('refetches at once while batches are full, then backs off', async () => {
    const nodeUuid = await node();
    const clock = new FakeClock();
    const q = daemonClient('queues', nodeUuid);
    const settings = daemonSettings({}, { feed: false, queueWorkers: 16, dequeueBatch: 4 });
    for (let i = 0; i < 12; i++) await t.client().enqueue({ id: randomUUID(), nodeUuid, queue: 'jobs', payload: { i } });
    const before = await counts('queues');
    const queues = new QueuesDaemon({ name: 'queues', nodeUuid, db: q.db, clock, log, settings }).handle('jobs', async () => 'ok');
    await queues.start();
    await run(clock, 0, () => q.inFlight() === 0);
    const atZero = await counts('queues');
    expect(atZero('Dequeue') - before('Dequeue')).toBe(4); // 4 full + 4 full + 4 full, then empty: no time passed
    expect(atZero('Resolve') - before('Resolve')).toBe(12);
    await run(clock, 600, () => q.inFlight() === 0);
    expect((await counts('queues'))('Dequeue') - before('Dequeue')).toBe(6); // + 0.2, 0.6 s
    await queues.stop();
  });

  it('makes no Dequeue call while its worker pool is full', async () => {
    const nodeUuid = await node();
    const clock = new FakeClock();
    const q = daemonClient('queues', nodeUuid);
    const settings = daemonSettings({}, { feed: false, queueWorkers: 2, dequeueBatch: 2 });
    for (let i = 0; i < 5; i++) await t.client().enqueue({ id: randomUUID(), nodeUuid, queue: 'jobs', payload: { i } });
    const release: (() => void)[] = [];
    const queues = new QueuesDaemon({ name: 'queues', nodeUuid, db: q.db, clock, log, settings }).handle(
      'jobs',
      () => new Promise((resolve) => release.push(() => resolve('ok'))),
    );
    const before = await counts('queues');
    await queues.start();
    await run(clock, 30_000, () => q.inFlight() === 0);
    const saturated = await counts('queues');
    expect(saturated('Dequeue') - before('Dequeue')).toBe(1);
    expect(saturated('GetNodeDaemonState') - before('GetNodeDaemonState')).toBe(15);
    release.shift()?.();
    await run(clock, 0, () => q.inFlight() === 0);
    expect((await counts('queues'))('Dequeue') - before('Dequeue')).toBe(2); // a slot freed: one fetch at once
    for (const r of release.splice(0)) r();
    await queues.stop();
  });
});
