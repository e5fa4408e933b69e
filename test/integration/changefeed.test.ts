// The change feed against real MariaDB with two replicas: waiters hear committed changes
// on their topics only, whichever replica wrote them (a peer poke, or the tail when pokes
// are off); out-of-order commits are never skipped (a gap an open transaction holds is
// held until it commits, a rolled-back one is closed with a tombstone); no payload crosses the feed; drain answers every waiter; the waiter cap
// answers RESOURCE_EXHAUSTED with pushback; a poke or an announcement from a non-replica is refused; an old
// cursor resyncs; bad input is INVALID_ARGUMENT naming the field.
import { randomUUID } from 'node:crypto';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseError, InvalidArgument } from '../../client/index.js';
import type { DatabaseClient, FeedChange } from '../../client/index.js';
import { topics } from '../../proto/topics.js';
import { metricValue } from '../../harness/scrape.js';
import { newNode } from '../helpers/targets.js';
import { startTestTier } from '../helpers/tier.js';
import type { TestTier } from '../helpers/tier.js';
import { waitFor } from '../helpers/wait.js';

// Tails far apart: what arrives quickly arrived by a poke or a local commit.
const SLOW_TAIL = { SFDB_CHANGEFEED_TAIL_MS: '60000' };

let a: TestTier;
let b: TestTier;
let dbA: DatabaseClient;
let dbB: DatabaseClient;

beforeAll(async () => {
  // 600 long-polls of one client (one connection) below: over the default stream maximum.
  a = await startTestTier({ env: { ...SLOW_TAIL, SFDB_REPLICA_HEARTBEAT_MS: '200', SFDB_REPLICA_LIVE_MS: '5000', SFDB_GRPC_MAX_CONCURRENT_STREAMS: '1000' } });
  b = await startTestTier({ database: a.database, env: { ...SLOW_TAIL, SFDB_REPLICA_HEARTBEAT_MS: '200', SFDB_REPLICA_LIVE_MS: '5000' } });
  // Both know each other as live peers once each has refreshed its peer list.
  await Promise.all([a.tier.feed.refreshPeers(), b.tier.feed.refreshPeers()]);
  dbA = a.client({ feed: false });
  dbB = b.client({ feed: false });
});

afterAll(async () => {
  await b?.stop();
  await a?.stop();
});

async function cursorOf(db: DatabaseClient, t: string[]): Promise<string> {
  return (await db.waitForChanges({ topics: t, cursor: '' })).cursor;
}

describe('WaitForChanges across replicas', () => {
  it('wakes a waiter on B for a write committed on A, and never for another node', async () => {
    const nodeA = await newNode(dbA);
    const nodeB = await newNode(dbA);
    const mine = topics.daemonState(nodeA, 'queues');
    const cursor = await cursorOf(dbB, [mine]);
    const waiting = dbB.waitForChanges({ topics: [mine], cursor, timeoutMs: 20_000 });
    let settled = false;
    void waiting.then(() => (settled = true));
    // Another node's daemon: not this waiter's topic.
    await dbA.setNodeDaemonState(nodeB, 'queues', 'RUNNING');
    await new Promise((r) => setTimeout(r, 300));
    expect(settled).toBe(false);
    await dbA.setNodeDaemonState(nodeA, 'queues', 'STOPPING');
    const started = Date.now();
    const r = await waiting;
    // Delivered by the poke, not by a 60 s tail (nor the 20 s timeout).
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(r.changes.map((c) => [c.topic, c.objectType, c.id, c.kind])).toEqual([[mine, 'daemon_state', 'queues', 'state']]);
    expect(r.resync).toBe(false);
  });

  it('answers with ids and kinds only: no payload crosses the feed', async () => {
    const node = await newNode(dbA);
    const topic = topics.queue(node, 'jobs');
    const cursor = await cursorOf(dbA, [topic]);
    const id = randomUUID();
    await dbA.enqueue({ id, nodeUuid: node, queue: 'jobs', payload: { secret: 'not-on-the-feed' } });
    const raw = await dbA.call('WaitForChanges', { topics: [topic], cursor, timeoutMs: 5000 });
    expect(raw.changes).toHaveLength(1);
    expect(Object.keys(raw.changes[0] as object).sort()).toEqual(['id', 'kind', 'objectType', 'seq', 'topic']);
    expect(JSON.stringify(raw)).not.toContain('not-on-the-feed');
  });

  it('delivers every change of concurrent writers on both replicas, out-of-order commits included', async () => {
    const nodes = [await newNode(dbA), await newNode(dbA), await newNode(dbA)];
    const queueTopics = nodes.map((n) => topics.queue(n, 'jobs'));
    const start = await cursorOf(dbA, queueTopics);
    const expected = new Map<string, Set<string>>(queueTopics.map((t) => [t, new Set()]));

    // One waiter per topic, asking both replicas in turn, until it has every id.
    const seen = new Map<string, Set<string>>(queueTopics.map((t) => [t, new Set()]));
    let writing = true;
    let resyncs = 0;
    // Set when the test ends, however it ends.
    let ended = false;
    const watch = async (topic: string): Promise<void> => {
      let cursor = start;
      for (let i = 0; !ended; i++) {
        const db = i % 2 === 0 ? dbA : dbB;
        const r = await db.waitForChanges({ topics: [topic], cursor, timeoutMs: 500 });
        if (r.resync) resyncs += 1;
        for (const c of r.changes) (seen.get(topic) as Set<string>).add(c.id);
        cursor = r.cursor;
        const want = expected.get(topic) as Set<string>;
        if (!writing && [...want].every((id) => seen.get(topic)?.has(id))) return;
      }
    };
    const watchers = queueTopics.map((t) => watch(t));
    // The writers' deadline: 60 writes at once on a loaded 2-core machine are slow, and
    // this test is about what the feed delivers, not how fast a write is answered (one
    // Enqueue passed the default 5 s beside two busy loops, load average 19).
    const writerA = a.client({ feed: false, deadlineMs: 30_000 });
    const writerB = b.client({ feed: false, deadlineMs: 30_000 });

    // A transaction held open with its change row allocated: later seqs commit first.
    const held = await mysql.createConnection(a.databaseUrl);
    try {
      await held.query('BEGIN');
      const heldId = randomUUID();
      await held.query("INSERT INTO changes (topic, object_type, object_id, kind, created_at) VALUES (?, 'work_item', ?, 'created', UTC_TIMESTAMP(6))", [
        queueTopics[0],
        heldId,
      ]);
      (expected.get(queueTopics[0] as string) as Set<string>).add(heldId);

      await Promise.all(
        Array.from({ length: 60 }, async (_, i) => {
          const node = nodes[i % nodes.length] as string;
          const id = randomUUID();
          (expected.get(topics.queue(node, 'jobs')) as Set<string>).add(id);
          await (i % 2 === 0 ? writerA : writerB).enqueue({ id, nodeUuid: node, queue: 'jobs', payload: { i } });
        }),
      );
      // The held transaction commits after 60 later seqs did (within the gap timeout); the
      // next write through the tier pokes, and the poked replicas read the gap with it.
      await held.query('COMMIT');
      const last = randomUUID();
      (expected.get(queueTopics[0] as string) as Set<string>).add(last);
      await writerB.enqueue({ id: last, nodeUuid: nodes[0] as string, queue: 'jobs', payload: {} });
      writing = false;
      // Every id heard, bounded: past the bound, what is missing is named below.
      await waitFor('every change heard', 30_000, () => {
        const missing = queueTopics.map((t) => [...(expected.get(t) as Set<string>)].filter((id) => !seen.get(t)?.has(id)).length);
        return { ok: missing.every((n) => n === 0), seen: { missing, resyncs } };
      }).catch(() => undefined);
    } finally {
      // Whatever happened: no transaction left open (dropping the test database would wait
      // on it) and no watcher left polling.
      await held.end();
      ended = true;
    }
    const failed = (await Promise.allSettled(watchers)).filter((r) => r.status === 'rejected').map((r) => String(r.reason));
    expect(failed).toEqual([]);
    for (const t of queueTopics) expect([...(expected.get(t) as Set<string>)].filter((id) => !seen.get(t)?.has(id))).toEqual([]);
    expect(resyncs).toBe(0);
  }, 120_000); // the writes' 30 s deadline and the 30 s wait for what they wrote
});

describe('the tail, gaps and resync', () => {
  let t: TestTier;
  let db: DatabaseClient;
  beforeAll(async () => {
    t = await startTestTier({ env: { SFDB_CHANGEFEED_TAIL_MS: '50', SFDB_CHANGEFEED_POKES: 'false', SFDB_CHANGEFEED_GAP_TIMEOUT_MS: '300', SFDB_CHANGEFEED_GAP_CLOSE_MS: '100', SFDB_CHANGEFEED_WINDOW: '100' } });
    db = t.client({ feed: false });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("hears another process's commit through the tail when nothing pokes", async () => {
    const topic = topics.daemonState(randomUUID(), 'net');
    const cursor = await cursorOf(db, [topic]);
    const waiting = db.waitForChanges({ topics: [topic], cursor, timeoutMs: 20_000 });
    // Written behind the tier's back: only the tail can see it.
    await t.direct.query("INSERT INTO changes (topic, object_type, object_id, kind, created_at) VALUES (?, 'daemon_state', 'net', 'state', UTC_TIMESTAMP(6))", [topic]);
    const r = await waiting;
    expect(r.changes.map((c: FeedChange) => c.id)).toEqual(['net']);
  });

  it('tells an open transaction from a rolled-back one: the first is held past the gap timeout and delivered, the second closed', async () => {
    const topic = topics.transfers(randomUUID());
    const cursor = await cursorOf(db, [topic]);
    const metric = async (name: string): Promise<number> => metricValue(await t.metrics(), name);
    const skippedBefore = await metric('database_changefeed_gaps_skipped_total');
    const closedBefore = await metric('database_changefeed_gaps_closed_total');
    const insert = "INSERT INTO changes (topic, object_type, object_id, kind, created_at) VALUES (?, 'blob_transfer', ?, 'created', UTC_TIMESTAMP(6))";
    // Two seqs allocated before 'later': one transaction stays open, the other rolls back.
    const held = await mysql.createConnection(t.databaseUrl);
    const rolledBack = await mysql.createConnection(t.databaseUrl);
    await held.query('BEGIN');
    await held.query(insert, [topic, 'held']);
    await rolledBack.query('BEGIN');
    const [back] = await rolledBack.query<mysql.RowDataPacket[]>(`${insert} RETURNING seq`, [topic, 'rolled-back']);
    const backSeq = String((back[0] as { seq: string }).seq);
    await rolledBack.query('ROLLBACK');
    await rolledBack.end();
    await t.direct.query(insert, [topic, 'later']);
    const r = await db.waitForChanges({ topics: [topic], cursor, timeoutMs: 10_000 });
    expect(r.changes.map((c) => c.id)).toEqual(['later']);
    expect(r.cursor).toContain(':');

    // The rolled-back seq gets a tombstone (closed, not given up); the held one is shown
    // held by the lock its transaction has on the row.
    for (let i = 0; i < 200 && ((await metric('database_changefeed_gaps_held')) < 1 || (await metric('database_changefeed_gaps_closed_total')) <= closedBefore); i++) {
      await new Promise((res) => setTimeout(res, 50));
    }
    expect(await metric('database_changefeed_gaps_held')).toBe(1);
    expect(await metric('database_changefeed_gaps_closed_total')).toBeGreaterThan(closedBefore);
    const [tomb] = await t.direct.query<mysql.RowDataPacket[]>('SELECT kind, topic FROM changes WHERE seq = ?', [backSeq]);
    expect(tomb).toEqual([{ kind: 'gap', topic: '' }]);

    // Past the gap timeout (300 ms) several times over, the held gap is still carried.
    await new Promise((res) => setTimeout(res, 1_000));
    expect(await metric('database_changefeed_gaps_skipped_total')).toBe(skippedBefore);
    const still = await db.getChangesSince({ cursor: r.cursor, topics: [topic] });
    expect(still.changes).toEqual([]);
    expect(still.cursor).toContain(':');
    expect(still.cursor).not.toContain(backSeq);

    // It commits: a reader carrying it gets it.
    const waiting = db.waitForChanges({ topics: [topic], cursor: still.cursor, timeoutMs: 10_000 });
    await held.query('COMMIT');
    await held.end();
    expect((await waiting).changes.map((c) => c.id)).toEqual(['held']);
    expect(await metric('database_changefeed_gaps_skipped_total')).toBe(skippedBefore);
    expect(await metric('database_changefeed_gaps_held')).toBe(0);
  });

  it('answers resync to a cursor older than the window', async () => {
    const topic = topics.clusterConfig();
    const old = await cursorOf(db, [topic]);
    const node = await newNode(db);
    for (let i = 0; i < 120; i++) await db.setNodeDaemonState(node, 'cleaner', 'RUNNING');
    // Let the tail trim the window (capacity 100) past the old cursor.
    let r = await db.waitForChanges({ topics: [topic], cursor: old, timeoutMs: 100 });
    for (let i = 0; i < 50 && !r.resync; i++) r = await db.waitForChanges({ topics: [topic], cursor: old, timeoutMs: 100 });
    expect(r.resync).toBe(true);
    expect(r.changes).toEqual([]);
    expect(r.cursor).not.toBe(old);
  });

  it('pages GetChangesSince with more', async () => {
    const node = await newNode(db);
    const topic = topics.queue(node, 'pages');
    const cursor = await cursorOf(db, [topic]);
    for (let i = 0; i < 5; i++) await db.enqueue({ id: randomUUID(), nodeUuid: node, queue: 'pages', payload: {} });
    let page = await db.getChangesSince({ cursor, topics: [topic], limit: 2 });
    // The tail (50 ms) may not have read all five yet: read until it has.
    for (let i = 0; i < 100 && page.changes.length < 2; i++) page = await db.getChangesSince({ cursor, topics: [topic], limit: 2 });
    const ids = [...page.changes.map((c) => c.id)];
    expect(page.more).toBe(true);
    let next = page.cursor;
    for (let i = 0; i < 100 && ids.length < 5; i++) {
      const p = await db.getChangesSince({ cursor: next, topics: [topic], limit: 2 });
      ids.push(...p.changes.map((c) => c.id));
      next = p.cursor;
    }
    expect(new Set(ids).size).toBe(5);
  });
});

describe('limits, refusals and drain', () => {
  it('answers RESOURCE_EXHAUSTED with a pushback at the waiter cap, and drain answers every waiter at once', async () => {
    const t = await startTestTier({ env: { SFDB_CHANGEFEED_MAX_WAITERS: '2' } });
    try {
      const db = t.client({ feed: false, maxAttempts: 1 });
      const topic = topics.transfers(randomUUID());
      const cursor = await cursorOf(db, [topic]);
      const held = [db.waitForChanges({ topics: [topic], cursor, timeoutMs: 30_000 }), db.waitForChanges({ topics: [topic], cursor, timeoutMs: 30_000 })];
      await waitFor('two long-polls held', 15_000, async () => {
        const waiters = metricValue(await t.metrics(), 'database_changefeed_waiters');
        return { ok: waiters >= 2, seen: { waiters } };
      }, 20);
      const refused = await db.waitForChanges({ topics: [topic], cursor, timeoutMs: 30_000 }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(DatabaseError);
      expect((refused as DatabaseError).code).toBe(8); // RESOURCE_EXHAUSTED
      const cause = (refused as DatabaseError).cause as { metadata?: { get(k: string): unknown[] } };
      expect(cause.metadata?.get('grpc-retry-pushback-ms')[0]).toMatch(/^\d+$/);

      const started = Date.now();
      const stopping = t.tier.stop();
      const answers = await Promise.all(held);
      // Answered by the drain, long before their 30 s timeout.
      expect(Date.now() - started).toBeLessThan(15_000);
      for (const r of answers) expect(r.changes).toEqual([]);
      await stopping;
    } finally {
      await t.stop();
    }
  });

  it('answers a wake-up of more waiters than one turn answers: every one once, with the change', async () => {
    // The replica answers 256 waiters a turn (long-polls.ts WAKE_PER_TURN): 600 take three turns.
    const nodeId = await newNode(dbA);
    const topic = topics.daemonState(nodeId, 'queues');
    const cursor = await cursorOf(dbA, [topic]);
    const before = await a.metrics();
    const n = 600;
    const held = Array.from({ length: n }, () => dbA.waitForChanges({ topics: [topic], cursor, timeoutMs: 30_000 }));
    await waitFor(`${n} long-polls held`, 30_000, async () => {
      const waiters = metricValue(await a.metrics(), 'database_changefeed_waiters');
      return { ok: waiters >= n, seen: { waiters } };
    }, 25);
    expect(metricValue(await a.metrics(), 'database_changefeed_waiters')).toBe(n);
    await dbA.setNodeDaemonState(nodeId, 'queues', 'STOPPING');
    const answers = await Promise.all(held);
    for (const r of answers) expect(r.changes.map((c) => [c.topic, c.kind])).toEqual([[topic, 'state']]);
    const after = await a.metrics();
    expect(metricValue(after, 'database_changefeed_waiters')).toBe(0);
    const changes = (text: string): number => metricValue(text, 'database_changefeed_waits_total', { outcome: 'changes' });
    // Each answered once: the 600, and the handshake above answered nothing as 'changes'.
    expect(changes(after) - changes(before)).toBe(n);
  });

  it('refuses a poke from something that is not a live replica, and bad input naming the field', async () => {
    const db = a.client({ feed: false, maxAttempts: 1 });
    const poke = await db.call('PokeChanges', { replicaId: 'impostor', ownerToken: randomUUID(), topics: ['cluster-config'], seqs: ['1'] }).catch((e: unknown) => e);
    expect((poke as DatabaseError).code).toBe(7); // PERMISSION_DENIED
    // An empty poke announces its sender: accepted from a live replica, refused from anything else.
    const announced = (replicaId: string, ownerToken: string): Promise<unknown> => db.call('PokeChanges', { replicaId, ownerToken, topics: [], seqs: [] }).catch((e: unknown) => e);
    expect(((await announced('impostor', randomUUID())) as DatabaseError).code).toBe(7);
    expect(((await announced(b.tier.config.replicaId, randomUUID())) as DatabaseError).code).toBe(7);
    expect(await announced(b.tier.config.replicaId, b.tier.registry.ownerToken)).toEqual({});
    const cases: [Record<string, unknown>, string][] = [
      [{ topics: [], cursor: '' }, 'topics'],
      [{ topics: ['Not A Topic'], cursor: '' }, 'topics'],
      [{ topics: Array.from({ length: 65 }, (_, i) => `cluster-config-${i}`), cursor: '' }, 'topics'],
      [{ topics: ['cluster-config'], cursor: 'x' }, 'cursor'],
      [{ topics: ['cluster-config'], cursor: '5:9' }, 'cursor'],
      [{ topics: ['cluster-config'], cursor: '', timeoutMs: 30_001 }, 'timeout_ms'],
    ];
    for (const [request, field] of cases) {
      const err = await db.call('WaitForChanges', request as never).catch((e: unknown) => e);
      expect(err, JSON.stringify(request).slice(0, 80)).toBeInstanceOf(InvalidArgument);
      expect((err as InvalidArgument).field).toBe(field);
    }
  });

  it('prunes rows past the retention under a fence, counted as source changefeed', async () => {
    const t = await startTestTier({ env: { SFDB_CHANGEFEED_RETENTION_MS: '1000' } });
    try {
      const db = t.client({ feed: false });
      const node = await newNode(db);
      for (let i = 0; i < 3; i++) await db.setNodeDaemonState(node, 'cleaner', 'RUNNING');
      await t.direct.query('UPDATE changes SET created_at = UTC_TIMESTAMP(6) - INTERVAL 1 HOUR');
      await db.setNodeDaemonState(node, 'cleaner', 'RUNNING');
      const lease = await db.acquireLease('cluster/maintenance', 'test-holder', 30_000);
      const fence = { name: 'cluster/maintenance', holder: 'test-holder', token: lease.lease.token };
      const before = metricValue(await t.metrics(), 'database_queries_total', { source: 'changefeed' });
      const r = await db.pruneChanges(fence);
      expect(r).toEqual({ deleted: 3, more: false, retiredFolded: 0 });
      expect(await t.count('changes')).toBe(1);
      expect(metricValue(await t.metrics(), 'database_queries_total', { source: 'changefeed' })).toBeGreaterThan(before);
      const stale = await db.pruneChanges({ ...fence, token: String(Number(fence.token) + 5) }).catch((e: unknown) => e);
      expect((stale as DatabaseError).code).toBe(9); // FAILED_PRECONDITION: fenced
    } finally {
      await t.stop();
    }
  });

  it('refuses bad input to every change-feed RPC naming the field, writing nothing, never INTERNAL', async () => {
    const db = a.client({ feed: false, maxAttempts: 1 });
    const rows = async (): Promise<number> => a.count('changes');
    const before = await rows();
    const fence = { name: 'cluster/maintenance', holder: 'nobody', token: '1' };
    const cases: [string, Record<string, unknown>, string][] = [
      ['WaitForChanges', { topics: ['cluster-config'], cursor: '', timeoutMs: -1 }, 'timeout_ms'],
      ['WaitForChanges', { topics: ['x'.repeat(201)], cursor: '' }, 'topics'],
      ['WaitForChanges', { topics: ['cluster-config'], cursor: '1:0.0' }, 'cursor'],
      ['GetChangesSince', { topics: [], cursor: '' }, 'topics'],
      ['GetChangesSince', { topics: ['daemon/\u0000'], cursor: '' }, 'topics'],
      ['GetChangesSince', { topics: ['cluster-config'], cursor: '99999999999999999999999' }, 'cursor'],
      ['GetChangesSince', { topics: ['cluster-config'], cursor: '', limit: 1001 }, 'limit'],
      ['PokeChanges', { replicaId: '', ownerToken: randomUUID(), topics: ['cluster-config'], seqs: ['1'] }, 'replica_id'],
      ['PokeChanges', { replicaId: 'r', ownerToken: 'not-a-uuid', topics: ['cluster-config'], seqs: ['1'] }, 'owner_token'],
      ['PokeChanges', { replicaId: 'r', ownerToken: randomUUID(), topics: ['cluster-config'], seqs: [] }, 'seqs'],
      ['PokeChanges', { replicaId: 'r', ownerToken: randomUUID(), topics: ['cluster-config'], seqs: ['0'] }, 'seqs'],
      ['PokeChanges', { replicaId: 'r', ownerToken: randomUUID(), topics: ['Bad Topic'], seqs: ['1'] }, 'topics'],
      ['PruneChanges', { limit: 0 }, 'fence'],
      ['PruneChanges', { fence: { ...fence, token: '0' } }, 'fence.token'],
      ['PruneChanges', { fence, limit: 100_001 }, 'limit'],
    ];
    for (const [method, request, field] of cases) {
      const err = await db.call(method as 'WaitForChanges', request as never).catch((e: unknown) => e);
      expect(err, `${method} ${JSON.stringify(request).slice(0, 80)}`).toBeInstanceOf(InvalidArgument);
      expect((err as InvalidArgument).field, method).toBe(field);
    }
    expect(await rows()).toBe(before);
    expect(metricValue(await a.metrics(), 'database_request_errors_total', { operation: 'WaitForChanges', code: 'INTERNAL' })).toBe(0);
  });

  it('a cancelled long-poll leaves no waiter and no call in flight behind', async () => {
    const t = await startTestTier();
    try {
      const db = t.client({ feed: false });
      const topic = topics.transfers(randomUUID());
      const cursor = await cursorOf(db, [topic]);
      const gauges = async (): Promise<[number, number]> => {
        const text = await t.metrics();
        return [metricValue(text, 'database_changefeed_waiters'), metricValue(text, 'database_requests_in_flight')];
      };
      const aborts = [new AbortController(), new AbortController(), new AbortController()];
      const polls = aborts.map((c) => db.waitForChanges({ topics: [topic], cursor, timeoutMs: 30_000 }, { signal: c.signal }).catch((e: unknown) => e));
      await waitFor('three long-polls held', 15_000, async () => {
        const seen = await gauges();
        return { ok: seen[0] >= 3, seen };
      }, 20);
      expect(await gauges()).toEqual([3, 3]);
      for (const c of aborts) c.abort();
      await Promise.all(polls);
      await waitFor('no waiter and no call in flight', 15_000, async () => {
        const seen = await gauges();
        return { ok: seen.every((g) => g === 0), seen };
      }, 20);
      expect(await gauges()).toEqual([0, 0]);
      expect(metricValue(await t.metrics(), 'database_changefeed_waits_total', { outcome: 'cancelled' })).toBe(3);
    } finally {
      await t.stop();
    }
  });
});
