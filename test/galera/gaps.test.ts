// Change-feed gaps on Galera (auto_increment_increment = 3: each node allocates its own
// residue class). Two replicas on nodes 0 and 1, writes through node 0 only: the seqs of
// the other classes never carry a change, and the feed must tell them from a transaction
// still open. It closes them with tombstone rows (none given up by time), and a
// transaction open on node 2 that allocated such a seq loses to the tombstone at
// certification instead of committing a change no reader would be sure to see.
import { randomUUID } from 'node:crypto';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { DatabaseClient } from '../../client/index.js';
import { topics } from '../../proto/topics.js';
import { metricValue } from '../../harness/scrape.js';
import { newNode } from '../helpers/targets.js';
import { createTestDatabase, startTestTier } from '../helpers/tier.js';
import type { TestTier } from '../helpers/tier.js';

const FEED = { SFDB_CHANGEFEED_TAIL_MS: '100', SFDB_CHANGEFEED_GAP_CLOSE_MS: '300', SFDB_CHANGEFEED_GAP_TIMEOUT_MS: '60000' };

let ports: number[];
let database: string;
let a: TestTier;
let b: TestTier;
let dbA: DatabaseClient;
let dbB: DatabaseClient;

beforeAll(async () => {
  ports = inject('galeraPorts');
  database = await createTestDatabase(ports[0]);
  a = await startTestTier({ port: ports[0], database, env: { ...FEED, SFDB_REPLICA_ID: 'gaps-a' } });
  b = await startTestTier({ port: ports[1], database, env: { ...FEED, SFDB_REPLICA_ID: 'gaps-b' } });
  dbA = a.client({ callerDaemon: 'queues', cache: false, feed: false });
  dbB = b.client({ callerDaemon: 'queues', cache: false, feed: false });
});

afterAll(async () => {
  await b?.stop();
  await a?.stop();
});

async function until(what: string, cond: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((res) => setTimeout(res, 50));
  }
}

const skipped = async (t: TestTier): Promise<number> => metricValue(await t.metrics(), 'database_changefeed_gaps_skipped_total');

describe('sequence gaps on a 3-node Galera cluster', () => {
  it('closes the seqs no node will write, gives none up, and a waiter on the other node gets every change', async () => {
    const node = await newNode(dbA);
    const topic = topics.queue(node, 'jobs');
    const skippedBefore = [await skipped(a), await skipped(b)];
    let { cursor } = await dbB.waitForChanges({ topics: [topic], cursor: '' });
    const ids = Array.from({ length: 60 }, () => randomUUID());
    for (const id of ids) await dbA.enqueue({ id, nodeUuid: node, queue: 'jobs', payload: {} });
    const seen = new Set<string>();
    while (seen.size < ids.length) {
      const r = await dbB.waitForChanges({ topics: [topic], cursor, timeoutMs: 10_000 });
      expect(r.resync).toBe(false);
      for (const c of r.changes) seen.add(c.id);
      cursor = r.cursor;
    }
    expect(seen).toEqual(new Set(ids));
    // Both replicas end with no open gap: every seq below their high mark is a change or a tombstone.
    await until('both windows have no open gap', async () => a.tier.feed.snapshot().gaps === 0 && b.tier.feed.snapshot().gaps === 0);
    const high = BigInt(a.tier.feed.snapshot().high);
    const [rows] = await a.direct.query<mysql.RowDataPacket[]>("SELECT COUNT(*) AS n, SUM(kind = 'gap') AS closed FROM changes WHERE seq <= ?", [String(high)]);
    const { n, closed } = rows[0] as { n: string; closed: string };
    expect(Number(closed)).toBeGreaterThan(ids.length); // about two per change: two classes nobody writes
    const [bounds] = await a.direct.query<mysql.RowDataPacket[]>('SELECT MIN(seq) AS lo FROM changes');
    expect(BigInt(n)).toBe(high - BigInt((bounds[0] as { lo: string }).lo) + 1n); // no hole left
    expect([await skipped(a), await skipped(b)]).toEqual(skippedBefore);
    // The cursor carries no gap any more.
    const after = await dbB.getChangesSince({ cursor, topics: [topic] });
    expect(after.cursor).not.toContain(':');
  });

  it('a transaction open on node 2 holding a seq below the high mark loses to the tombstone and writes nothing', async () => {
    const node = await newNode(dbA);
    const topic = topics.queue(node, 'jobs');
    const raw = await mysql.createConnection({ uri: `mysql://root@127.0.0.1:${ports[2]}/${database}`, supportBigNumbers: true, bigNumberStrings: true });
    try {
      await raw.query('BEGIN');
      const [held] = await raw.query<mysql.RowDataPacket[]>(
        "INSERT INTO changes (topic, object_type, object_id, kind, created_at) VALUES (?, 'work_item', 'open-on-node-2', 'created', UTC_TIMESTAMP(6)) RETURNING seq",
        [topic],
      );
      const seq = BigInt((held[0] as { seq: string }).seq);
      // Writes through node 0 until a committed seq is past it: it is a gap to both replicas.
      for (let i = 0; i < 20 && BigInt(a.tier.feed.snapshot().high) <= seq; i++) await dbA.enqueue({ id: randomUUID(), nodeUuid: node, queue: 'jobs', payload: {} });
      expect(BigInt(a.tier.feed.snapshot().high)).toBeGreaterThan(seq);
      await until('the open seq is closed', async () => {
        const [r] = await a.direct.query<mysql.RowDataPacket[]>('SELECT kind FROM changes WHERE seq = ?', [String(seq)]);
        return (r[0] as { kind?: string } | undefined)?.kind === 'gap';
      });
      // The open transaction was aborted by the tombstone's certification.
      const failed = await raw.query('COMMIT').then(
        () => undefined,
        (err: { errno?: number }) => err.errno,
      );
      expect(failed).toBe(1213);
      const [leaked] = await a.direct.query<mysql.RowDataPacket[]>("SELECT COUNT(*) AS n FROM changes WHERE object_id = 'open-on-node-2'");
      expect(Number((leaked[0] as { n: string }).n)).toBe(0);
    } finally {
      await raw.end().catch(() => undefined);
    }
  });
});
