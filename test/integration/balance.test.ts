// The client's p2c balancer against three real tier replicas on one database: calls spread
// over all three (the replica holding the client's long-poll included: long-polls are
// counted apart), a stopped replica is avoided, and the long-polls of many processes
// spread so that no replica holds every waiter of a topic.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientRegistry, createClient, topics } from '../../client/index.js';
import type { CreateClientOptions, DatabaseClient } from '../../client/index.js';
import { metricSum, metricValue } from '../../harness/scrape.js';
import { startTestTier } from '../helpers/tier.js';
import type { TestTier } from '../helpers/tier.js';

let replicas: TestTier[] = [];
const clients: DatabaseClient[] = [];

beforeAll(async () => {
  const first = await startTestTier();
  replicas = [first, await startTestTier({ database: first.database }), await startTestTier({ database: first.database })];
});

afterAll(async () => {
  for (const c of clients) c.close();
  // The first owns the database: stopped last.
  for (const r of [...replicas].reverse()) await r.stop();
});

function client(options: CreateClientOptions = {}, of: readonly TestTier[] = replicas): DatabaseClient {
  const c = createClient({ targets: of.map((r) => `127.0.0.1:${r.tier.grpcPort}`), callerDaemon: 'test', cache: false, balance: 'p2c', ...options });
  clients.push(c);
  return c;
}

/** GetNode calls of the `test` caller each replica has counted. */
async function getNodeCounts(of: readonly TestTier[] = replicas): Promise<number[]> {
  return Promise.all(of.map(async (r) => metricValue(await r.metrics(), 'database_requests_total', { operation: 'GetNode', caller_daemon: 'test' })));
}

async function waiters(): Promise<number[]> {
  return Promise.all(replicas.map(async (r) => metricSum(await r.metrics(), 'database_changefeed_waiters')));
}

/** Polls `read` until `done` holds of its value (or the deadline passes); answers the last value. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 25)); // the next poll
  }
}

const minus = (after: number[], before: number[]): number[] => after.map((n, i) => n - (before[i] ?? 0));

describe('p2c over three replicas', () => {
  it('spreads calls over every replica, the one holding its long-poll included', async () => {
    const db = client();
    const sub = db.changes.subscribe([topics.clusterConfig()]);
    const held = await until(waiters, (w) => w.reduce((s, n) => s + n, 0) === 1);
    expect(held.reduce((s, n) => s + n, 0)).toBe(1);
    // The client's gauge counts the long-poll on the replica that holds it.
    const holder = replicas[held.indexOf(1)] as TestTier;
    const gauge = await clientRegistry.metrics();
    expect(metricValue(gauge, 'database_client_p2c_in_flight', { endpoint: `127.0.0.1:${holder.tier.grpcPort}`, kind: 'long_poll' })).toBe(1);
    expect(metricSum(gauge, 'database_client_p2c_in_flight', { kind: 'long_poll' })).toBe(1);
    const before = await getNodeCounts();
    // One call at a time: every pick sees 0 calls in flight everywhere (a tie, decided at
    // random), unless the long-poll were counted with them.
    for (let i = 0; i < 90; i++) await db.getNode(randomUUID());
    const spread = minus(await getNodeCounts(), before);
    expect(spread.reduce((s, n) => s + n, 0)).toBe(90);
    for (const n of spread) expect(n).toBeGreaterThan(0);
    // 16 callers at once: still every replica.
    const before2 = await getNodeCounts();
    await Promise.all(Array.from({ length: 16 }, async () => {
      for (let i = 0; i < 20; i++) await db.getNode(randomUUID());
    }));
    const spread2 = minus(await getNodeCounts(), before2);
    expect(spread2.reduce((s, n) => s + n, 0)).toBe(320);
    for (const n of spread2) expect(n).toBeGreaterThan(0);
    sub.close();
    expect(await until(waiters, (w) => w.every((n) => n === 0))).toEqual([0, 0, 0]);
  });

  it('spreads the long-polls of 100 processes on one topic over the replicas', async () => {
    const processes = Array.from({ length: 100 }, () => client());
    const subs = processes.map((db) => db.changes.subscribe([topics.clusterConfig()]));
    const held = await until(waiters, (w) => w.reduce((s, n) => s + n, 0) === 100);
    expect(held.reduce((s, n) => s + n, 0)).toBe(100);
    for (const n of held) {
      expect(n).toBeGreaterThan(0);
      expect(n).toBeLessThan(100);
    }
    for (const s of subs) s.close();
    for (const db of processes) db.close();
  });
});

describe('a stopped replica', () => {
  it('is avoided: after the first answer, no call fails and the others take every call', async () => {
    // Its own three replicas, so that stopping one leaves the others for the tests above.
    const mine = [replicas[0] as TestTier, replicas[1] as TestTier, await startTestTier({ database: (replicas[0] as TestTier).database })];
    const db = client({ maxAttempts: 1 }, mine);
    for (let i = 0; i < 30; i++) await db.getNode(randomUUID());
    const stopped = mine[2] as TestTier;
    await stopped.stop();
    const live = mine.slice(0, 2);
    const before = await getNodeCounts(live);
    // A call picked before the client saw the connection close may fail (it is not retried
    // here); once one call has succeeded, the stopped replica is out of the READY set.
    let failedBeforeFirstAnswer = 0;
    for (;;) {
      try {
        await db.getNode(randomUUID());
        break;
      } catch {
        failedBeforeFirstAnswer += 1;
        expect(failedBeforeFirstAnswer).toBeLessThan(5);
      }
    }
    for (let i = 0; i < 100; i++) await db.getNode(randomUUID());
    const after = minus(await getNodeCounts(live), before);
    expect(after.reduce((s, n) => s + n, 0)).toBe(101);
    for (const n of after) expect(n).toBeGreaterThan(0);
  });
});
