// Cursors outside a replica's window, against real MariaDB: a cursor from a replica ahead
// of this one is read up to, never resynced; a cursor above everything committed (a
// database restored from a backup, a cursor from elsewhere) answers resync at once on
// WaitForChanges and GetChangesSince, never silence; when the replica cannot read the
// table to tell which it is, the call fails UNAVAILABLE; pruning keeps the newest row, so
// a replica started after a quiet spell knows the high mark its peers hand out.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseError } from '../../client/index.js';
import type { DatabaseClient } from '../../client/index.js';
import { topics } from '../../proto/topics.js';
import { pruneOlderThan } from '../../server/changefeed/queries.js';
import { explainStatement } from '../helpers/explain.js';
import { newNode } from '../helpers/targets.js';
import { startTestTier } from '../helpers/tier.js';
import type { TestTier } from '../helpers/tier.js';

// Tails far apart: a replica learns of a peer's rows only when a call makes it read.
const SLOW_TAIL = { SFDB_CHANGEFEED_TAIL_MS: '60000' };

let a: TestTier;
let b: TestTier;
let dbA: DatabaseClient;
let dbB: DatabaseClient;

beforeAll(async () => {
  a = await startTestTier({ env: SLOW_TAIL });
  b = await startTestTier({ database: a.database, env: SLOW_TAIL });
  // Each pokes the other after its commits once it knows it as a live peer.
  await Promise.all([a.tier.feed.refreshPeers(), b.tier.feed.refreshPeers()]);
  dbA = a.client({ feed: false, maxAttempts: 1 });
  dbB = b.client({ feed: false, maxAttempts: 1 });
});

afterAll(async () => {
  await b?.stop();
  await a?.stop();
});

/** The cursor that follows everything committed so far: A's after its own write. */
async function cursorAfterWriteOnA(topic: string): Promise<string> {
  await dbA.setClusterConfig(`cursor-${randomUUID().slice(0, 8)}`, { n: 1 });
  return (await dbA.getChangesSince({ cursor: '', topics: [topic] })).cursor;
}

/** A cursor well above anything this database has issued. */
function farAhead(cursor: string): string {
  return String(BigInt(cursor.split(':')[0] as string) + 1_000_000n);
}

describe('a cursor above a replica’s high mark', () => {
  it('from a replica ahead: read up to, no resync (WaitForChanges and GetChangesSince)', async () => {
    const topic = topics.clusterConfig();
    const fromA = await cursorAfterWriteOnA(topic);
    expect(BigInt(fromA)).toBeGreaterThan(BigInt(b.tier.feed.snapshot().high));
    const since = await dbB.getChangesSince({ cursor: fromA, topics: [topic] });
    expect(since).toMatchObject({ changes: [], resync: false, cursor: fromA });

    const again = await cursorAfterWriteOnA(topic);
    const waited = await dbB.waitForChanges({ topics: [topic], cursor: again, timeoutMs: 50 });
    expect(waited).toMatchObject({ changes: [], resync: false, cursor: again });
  });

  it('above everything committed: resync at once, with a cursor that then serves', async () => {
    const topic = topics.clusterConfig();
    const now = await cursorAfterWriteOnA(topic);
    const ahead = farAhead(now);
    for (const db of [dbA, dbB]) {
      const since = await db.getChangesSince({ cursor: ahead, topics: [topic] });
      expect(since.resync).toBe(true);
      expect(since.changes).toEqual([]);
      expect(BigInt(since.cursor)).toBeLessThan(BigInt(ahead));
      // A long timeout: the answer comes at once, not when the long-poll ends.
      const waited = await db.waitForChanges({ topics: [topic], cursor: ahead, timeoutMs: 30_000 });
      expect(waited.resync).toBe(true);
      expect(waited.changes).toEqual([]);
      // The cursor it answered serves: a change after it is delivered, no resync.
      const key = `after-resync-${randomUUID().slice(0, 8)}`;
      await dbA.setClusterConfig(key, { n: 2 });
      const next = await db.waitForChanges({ topics: [topic], cursor: waited.cursor, timeoutMs: 10_000 });
      expect(next.resync).toBe(false);
      expect(next.changes.map((c) => c.id)).toContain(key);
    }
  });
});

describe('a replica that cannot read the table', () => {
  it('fails a cursor above its high mark UNAVAILABLE instead of guessing, and resyncs it once it reads again', async () => {
    const t = await startTestTier({ env: SLOW_TAIL });
    try {
      const db = t.client({ feed: false, maxAttempts: 1 });
      const topic = topics.clusterConfig();
      const { cursor } = await db.getChangesSince({ cursor: '', topics: [topic] });
      const ahead = farAhead(cursor);
      await t.direct.query('RENAME TABLE changes TO changes_away');
      try {
        const err = await db.getChangesSince({ cursor: ahead, topics: [topic] }).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(DatabaseError);
        expect((err as DatabaseError).code).toBe(14); // UNAVAILABLE
        const waitErr = await db.waitForChanges({ topics: [topic], cursor: ahead, timeoutMs: 50 }).catch((e: unknown) => e);
        expect((waitErr as DatabaseError).code).toBe(14);
        // A cursor within the window is still served from memory.
        expect((await db.getChangesSince({ cursor, topics: [topic] })).resync).toBe(false);
      } finally {
        await t.direct.query('RENAME TABLE changes_away TO changes');
      }
      expect((await db.getChangesSince({ cursor: ahead, topics: [topic] })).resync).toBe(true);
    } finally {
      await t.stop();
    }
  });
});

describe('pruning', () => {
  it('keeps the newest row, so a replica started after a quiet spell hands out the same high mark', async () => {
    const t = await startTestTier({ env: { SFDB_CHANGEFEED_RETENTION_MS: '1000' } });
    let late: TestTier | undefined;
    try {
      const db = t.client({ feed: false, maxAttempts: 1 });
      for (let i = 0; i < 3; i++) await db.setNodeDaemonState(await newNode(db), 'cleaner', 'RUNNING');
      const topic = topics.clusterConfig();
      const { cursor } = await db.getChangesSince({ cursor: '', topics: [topic] });
      // A quiet spell longer than the retention: every row is past it.
      await t.direct.query('UPDATE changes SET created_at = UTC_TIMESTAMP(6) - INTERVAL 1 HOUR');
      const lease = await db.acquireLease('cluster/maintenance', 'test-holder', 30_000);
      const r = await db.pruneChanges({ name: 'cluster/maintenance', holder: 'test-holder', token: lease.lease.token });
      expect(r).toEqual({ deleted: 2, more: false, retiredFolded: 0 });
      expect(await t.count('changes')).toBe(1);
      // A replica started now loads its high mark from the row that stayed.
      late = await startTestTier({ database: t.database });
      const dbLate = late.client({ feed: false, maxAttempts: 1 });
      expect(late.tier.feed.snapshot().high).toBe(cursor);
      const answer = await dbLate.getChangesSince({ cursor, topics: [topic] });
      expect(answer).toMatchObject({ resync: false, cursor });

      // A batch reads the oldest rows by changes_created, never the table and a sort.
      await t.direct.query(
        "INSERT INTO changes (topic, object_type, object_id, kind, created_at) SELECT 'filler', 'x', seq, 'created', UTC_TIMESTAMP(6) - INTERVAL 1 HOUR FROM seq_1_to_3000",
      );
      await t.direct.query('ANALYZE TABLE changes');
      const plan = await explainStatement(t.direct, (sql) => pruneOlderThan(sql, 1000, 100));
      expect(plan[0]).toMatchObject({ table: 'changes', key: 'changes_created' });
      expect(plan[0]?.Extra ?? '').not.toContain('filesort');
    } finally {
      await late?.stop();
      await t.stop();
    }
  });
});
