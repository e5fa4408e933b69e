// Group commit against MariaDB: concurrent heartbeats, daemon states and attribute writes
// become few statements (counted by the tier's own database_queries_total), every call
// reads its own write after its answer, and a call whose target is missing is refused
// NOT_FOUND by the batch itself (no statement of its own, nothing written for it), while
// one whose object is at its bound or whose input is bad fails alone; the others of its
// batch succeed.
// The window is long (500 ms), and each test first makes one call of the kind (so the kind
// is busy: the calls sent together then wait for the window's end and surely share a
// batch); nothing here waits for time to pass: each test awaits the answers.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { InvalidArgument, NotFound } from '../../client/index.js';
import type { WrittenDaemonState } from '../../client/index.js';
import { topics as feedTopics } from '../../proto/topics.js';
import { isoTime } from '../../server/time.js';
import { metricSum, metricValue } from '../../harness/scrape.js';
import { useTestTier } from '../helpers/tier.js';

const { t, db } = useTestTier({ env: { SFDB_GROUP_COMMIT_MS: '500', SFDB_GROUP_COMMIT_MAX_CALLS: '1000' } });

const N = 40;

/** Runs `fn` and answers the statements the tier ran for RPCs meanwhile, and its batches by kind. */
async function counted<T>(kind: string, fn: () => Promise<T>): Promise<{ value: T; statements: number; batches: number; calls: number }> {
  const before = await t.metrics();
  const value = await fn();
  const after = await t.metrics();
  const delta = (name: string, labels: Record<string, string>): number => metricValue(after, name, labels) - metricValue(before, name, labels);
  return {
    value,
    statements: delta('database_queries_total', { source: 'rpc' }),
    batches: delta('database_group_commit_batch_calls_count', { kind }),
    calls: delta('database_group_commit_batch_calls_sum', { kind }),
  };
}

function settle<T>(p: Promise<T>): Promise<{ value?: T; error?: unknown }> {
  return p.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
}

/** One call of a kind, answered: the kind's window is now open, so what follows within it shares one batch. */
const busy = {
  heartbeat: async () => db.nodeHeartbeat((await createNodes(1))[0] as string, {}),
  daemonState: async () => db.setNodeDaemonState((await createNodes(1))[0] as string, 'primer', 'RUNNING'),
  nodeAttributes: async (node: string) => db.setObjectAttributes('NODE', node, { primer: 1 }),
  objectAttributes: async (uuid: string) => db.setObjectAttributes('INSTANCE', uuid, { primer: 1 }),
};

async function createNodes(n: number): Promise<string[]> {
  const uuids = Array.from({ length: n }, () => randomUUID());
  for (const uuid of uuids) await db.createNode({ uuid, fqdn: `${uuid}.gc.example` });
  return uuids;
}

describe('group commit', () => {
  it('concurrent heartbeats of many nodes are one statement, each answered with its own recorded time; a missing node is refused by it', async () => {
    const nodes = await createNodes(N);
    const missing = randomUUID();
    await busy.heartbeat();
    const r = await counted('heartbeat', () => Promise.all([...nodes.map((n, i) => db.nodeHeartbeat(n, { i })), settle(db.nodeHeartbeat(missing, { i: -1 }))]));
    expect(r.batches).toBe(1);
    expect(r.calls).toBe(N + 1);
    expect(r.statements).toBe(1);
    const refused = r.value[N] as { error?: unknown };
    expect(refused.error).toBeInstanceOf(NotFound);
    expect((refused.error as NotFound).field).toBe('node_uuid');
    expect(await t.count('node_heartbeats', 'node_uuid = ?', [missing])).toBe(0);
    const [rows] = await t.direct.query('SELECT node_uuid, heartbeat_at, stats FROM node_heartbeats WHERE node_uuid IN (?)', [nodes]);
    const byNode = new Map((rows as { node_uuid: string; heartbeat_at: string; stats: string }[]).map((row) => [row.node_uuid, row]));
    nodes.forEach((n, i) => {
      const row = byNode.get(n);
      expect(row, n).toBeDefined();
      expect(JSON.parse(row?.stats ?? 'null')).toEqual({ i });
      expect(r.value[i]).toBe(isoTime(row?.heartbeat_at ?? ''));
    });
  });

  it('a heartbeat with bad stats is refused alone, before its batch; the others are written', async () => {
    const nodes = await createNodes(5);
    const [bad] = (await createNodes(1)) as [string];
    const answers = await Promise.all([
      ...nodes.map((n) => settle(db.nodeHeartbeat(n, { ok: true }))),
      settle(db.call('NodeHeartbeat', { nodeUuid: bad, stats: '{not json' })),
    ]);
    for (const a of answers.slice(0, 5)) expect(a.error).toBeUndefined();
    expect(answers[5]?.error).toBeInstanceOf(InvalidArgument);
    expect((answers[5]?.error as InvalidArgument).field).toBe('stats');
    expect(await t.count('node_heartbeats', 'node_uuid IN (?)', [nodes])).toBe(5);
    expect(await t.count('node_heartbeats', 'node_uuid = ?', [bad])).toBe(0);
  });

  it('concurrent daemon states are one transaction that publishes each change; each call reads its own write; a missing node is refused by it', async () => {
    const [node] = (await createNodes(1)) as [string];
    const missing = randomUUID();
    const daemons = Array.from({ length: N }, (_, i) => `d${i}`);
    const topics = daemons.map((d) => feedTopics.daemonState(node, d));
    const missingTopic = feedTopics.daemonState(missing, 'd0');
    const cursor = (await db.call('GetChangesSince', { cursor: '', topics: [...topics, missingTopic], limit: 1 })).cursor;
    await busy.daemonState();
    const r = await counted('daemon_state', () =>
      Promise.all([...daemons.map((d) => db.setNodeDaemonState(node, d, 'RUNNING', `started ${d}`)), settle(db.setNodeDaemonState(missing, 'd0', 'RUNNING'))]),
    );
    expect(r.batches).toBe(1);
    expect(r.calls).toBe(N + 1);
    // BEGIN, the upsert, the change rows, COMMIT.
    expect(r.statements).toBe(4);
    const refused = r.value[N] as { error?: unknown };
    expect(refused.error).toBeInstanceOf(NotFound);
    expect((refused.error as NotFound).field).toBe('node_uuid');
    expect(await t.count('node_daemon_states', 'node_uuid = ?', [missing])).toBe(0);
    const seqs = new Map<string, string>();
    for (const [i, d] of daemons.entries()) {
      const read = await db.getNodeDaemonState(node, d);
      const { changeSeq, ...written } = r.value[i] as WrittenDaemonState;
      expect(read).toEqual(written);
      expect(read).toMatchObject({ state: 'RUNNING', message: `started ${d}` });
      seqs.set(feedTopics.daemonState(node, d), changeSeq);
    }
    // Every daemon's own topic got its change (what wakes a daemon's long-poll), and each
    // call was answered the seq of its own. The refused call published nothing.
    const changes = await db.call('GetChangesSince', { cursor, topics: [...topics, missingTopic], limit: 1000 });
    expect(new Set(changes.changes.map((c) => c.topic))).toEqual(new Set(topics));
    expect(new Map(changes.changes.map((c) => [c.topic, c.seq]))).toEqual(seqs);
  });

  it('attribute writes to many nodes are one statement; a missing node is refused by the batch, a node at its bound fails alone', async () => {
    const nodes = await createNodes(N);
    const full = (await createNodes(1))[0] as string;
    const many = Object.fromEntries(Array.from({ length: 100 }, (_, k) => [`k${k}`, k]));
    for (let b = 0; b < 10; b++) {
      await db.setObjectAttributes('NODE', full, Object.fromEntries(Object.entries(many).map(([k, v]) => [`${k}_${b}`, v])));
    }
    const missing = randomUUID();
    await busy.nodeAttributes((await createNodes(1))[0] as string);
    const r = await counted('node_attributes', () =>
      Promise.all([
        ...nodes.map((n, i) => settle(db.setObjectAttributes('NODE', n, { cpu: i, mem: { used: i * 2 } }))),
        settle(db.setObjectAttributes('NODE', missing, { cpu: 1 })),
        settle(db.setObjectAttributes('NODE', full, { one_more: 1 })),
      ]),
    );
    expect(r.batches).toBe(1);
    expect(r.calls).toBe(N + 2);
    // The batch statement, the read of which unwritten objects exist, then the full node
    // alone: its fast statement, then the exact path (BEGIN, lock, write, count, ROLLBACK).
    expect(r.statements).toBe(8);
    for (const a of r.value.slice(0, N)) expect(a).toEqual({ value: 2 });
    expect(r.value[N]?.error).toBeInstanceOf(NotFound);
    expect((r.value[N]?.error as NotFound).field).toBe('uuid');
    expect(r.value[N + 1]?.error).toBeInstanceOf(InvalidArgument);
    for (const [i, n] of nodes.entries()) expect(await db.getObjectAttributes('NODE', n)).toEqual({ cpu: i, mem: { used: i * 2 } });
    expect(await t.count('object_attributes', 'uuid = ?', [missing])).toBe(0);
    expect(await t.count('object_attributes', 'uuid = ?', [full])).toBe(1000);
    expect(metricSum(await t.metrics(), 'database_group_commit_alone_total', { kind: 'node_attributes' })).toBe(1);
  });

  it('attribute writes to other objects are grouped too, and two calls to one object both land', async () => {
    const instances = Array.from({ length: 10 }, () => randomUUID());
    for (const uuid of instances) await db.createInstance({ uuid, staticValues: { a: 1 } });
    const primer = randomUUID();
    await db.createInstance({ uuid: primer, staticValues: { a: 1 } });
    await busy.objectAttributes(primer);
    const r = await counted('object_attributes', () =>
      Promise.all([
        ...instances.map((uuid) => db.setObjectAttributes('INSTANCE', uuid, { state: 'up' })),
        db.setObjectAttributes('INSTANCE', instances[0] as string, { second: true }),
      ]),
    );
    expect(r.batches).toBe(1);
    expect(r.statements).toBe(1);
    expect(await db.getObjectAttributes('INSTANCE', instances[0] as string)).toEqual({ state: 'up', second: true });
    for (const uuid of instances.slice(1)) expect(await db.getObjectAttributes('INSTANCE', uuid)).toEqual({ state: 'up' });
  });
});
