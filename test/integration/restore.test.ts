// Backup and restore end to end, as the operator runs them (sf-ctl backup, sf-ctl restore
// --yes) against real MariaDB: tokens, epochs and versions are issued, a backup is taken
// while a writer keeps writing, more are issued, the replica stops, the backup is
// restored and a replica starts again. Then a holder from before the restore is fenced
// (whether its lease or claim is in the backup or was made after it), no claim is resolved
// by a pre-restore epoch, an expected version from before conflicts, a waiter or reader
// with a pre-restore cursor gets resync at once, the backup is one snapshot (every work
// item with its change row), and the backup's registry rows do not block a replica's id.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createReadStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Conflict, Fenced, NotFound } from '../../client/index.js';
import type { Claim, DatabaseClient } from '../../client/index.js';
import { topics } from '../../proto/topics.js';
import { findBinary } from '../../server/embedded/mariadb.js';
import { runCtl } from '../helpers/sf-ctl.js';
import { createTestDatabase, dropTestDatabase, mariadbUrl, startTestTier } from '../helpers/tier.js';
import type { TestTier } from '../helpers/tier.js';

const dir = mkdtempSync(join(tmpdir(), 'sfdb-restore-test-'));
const file = join(dir, 'before.sql');
const replicaId = `restore-${randomUUID().slice(0, 8)}`;
let database: string;
let env: Record<string, string>;
let t: TestTier;
let db: DatabaseClient;

/** What the cluster held and issued, before and after the backup. */
const old = {
  node: randomUUID(),
  itemA: randomUUID(),
  itemB: randomUUID(),
  cursorBefore: '',
  cursorAfter: '',
  backupOut: '',
  restoreOut: '',
  highest: 0n,
};

async function issuedBefore(client: DatabaseClient): Promise<void> {
  await client.createNode({ uuid: old.node, fqdn: `restore-${old.node.slice(0, 8)}.example.com` });
  expect((await client.acquireLease('restore/a', 'old-a', 60_000)).lease.token).toBe('1');
  await client.enqueue({ id: old.itemA, nodeUuid: old.node, queue: 'jobs', payload: { n: 'a' } });
  const [claim] = await client.dequeue({ nodeUuid: old.node, queues: ['jobs'], holder: 'old-worker' });
  expect(claim?.epoch).toBe('1');
  old.cursorBefore = (await client.getChangesSince({ cursor: '', topics: [topics.clusterConfig()] })).cursor;
}

async function issuedAfter(client: DatabaseClient): Promise<void> {
  // Lease a changes hands; lease b is made: neither is in the backup as it is now.
  await client.releaseLease('restore/a', 'old-a', '1');
  expect((await client.acquireLease('restore/a', 'old-a2', 60_000)).lease.token).toBe('2');
  expect((await client.acquireLease('restore/b', 'old-b', 60_000)).lease.token).toBe('1');
  // Item a is claimed again (epoch 2); item b is made and claimed (epoch 1).
  await client.release(old.itemA, '1');
  await client.enqueue({ id: old.itemB, nodeUuid: old.node, queue: 'jobs', payload: { n: 'b' } });
  const claims = await client.dequeue({ nodeUuid: old.node, queues: ['jobs'], limit: 2, holder: 'old-worker2' });
  expect(claims.map((c) => [c.item.id, c.epoch]).sort()).toEqual([[old.itemA, '2'], [old.itemB, '1']].sort());
  expect((await client.updateNode(old.node, { ipAddress: '10.0.0.9' })).version).toBe('2');
  await client.setClusterConfig('restore-after', { n: 1 });
  old.cursorAfter = (await client.getChangesSince({ cursor: '', topics: [topics.clusterConfig()] })).cursor;
}

/** Enqueues one item after another until stopped: each a work item and a change row in one transaction. */
function writer(client: DatabaseClient): { stop: () => Promise<number> } {
  let stopping = false;
  let n = 0;
  const loop = (async () => {
    while (!stopping) {
      await client.enqueue({ id: randomUUID(), nodeUuid: old.node, queue: 'bulk', payload: { n } });
      n += 1;
    }
  })();
  return {
    stop: async () => {
      stopping = true;
      await loop;
      return n;
    },
  };
}

beforeAll(async () => {
  database = await createTestDatabase();
  env = { SFDB_DATABASE_URL: mariadbUrl(database), SFDB_LOG_LEVEL: 'warn' };
  const before = await startTestTier({ database, env: { SFDB_REPLICA_ID: replicaId } });
  try {
    const client = before.client({ feed: false, cache: false, maxAttempts: 1 });
    await issuedBefore(client);
    // Rows enough that the dump takes a while between `changes` and `work_items` (the
    // tables go in name order): a dump without one snapshot would see the writer's items
    // without their change rows. Attributes carry no counter, so the counters stay small
    // and those issued after the backup pass the backup's highest.
    await before.direct.query(
      `INSERT INTO object_attributes (object_type, uuid, attr_key, value, updated_at)
       SELECT 'node', ?, CONCAT('filler-', seq), JSON_QUOTE(REPEAT('x', 200)), UTC_TIMESTAMP(6) FROM seq_1_to_20000`,
      [old.node],
    );
    const w = writer(client);
    const backup = await runCtl(['backup', file], { env });
    const written = await w.stop();
    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    expect(written).toBeGreaterThan(0);
    old.backupOut = backup.stdout;
    await issuedAfter(client);
    const [rows] = await before.direct.query<mysql.RowDataPacket[]>(
      `SELECT GREATEST((SELECT MAX(token) FROM leases), (SELECT MAX(epoch) FROM work_items), (SELECT MAX(seq) FROM work_items),
         (SELECT MAX(version) FROM nodes), (SELECT MAX(version) FROM cluster_config), (SELECT MAX(seq) FROM changes),
         COALESCE((SELECT MAX(id) FROM events), 0)) AS m`,
    );
    old.highest = BigInt((rows[0] as { m: string }).m);
  } finally {
    // The replica stops before the restore: its registry row goes, its waiters are drained.
    await before.stop();
  }
  const restored = await runCtl(['restore', file, '--yes'], { env });
  expect(restored.stderr).toBe('');
  expect(restored.code).toBe(0);
  old.restoreOut = restored.stdout;
  // The same replica id: the backup's registry row (a live heartbeat then) must not refuse it.
  t = await startTestTier({ database, env: { SFDB_REPLICA_ID: replicaId } });
  db = t.client({ feed: false, cache: false, maxAttempts: 1 });
}, 120_000);

afterAll(async () => {
  await t?.stop();
  if (database) await dropTestDatabase(database);
  rmSync(dir, { recursive: true, force: true });
});

async function floor(): Promise<bigint> {
  const [rows] = await t.direct.query<mysql.RowDataPacket[]>('SELECT floor_value, restored_from FROM counter_floor');
  expect(rows).toHaveLength(1);
  expect((rows[0] as { restored_from: string }).restored_from).toBe(basename(file));
  return BigInt((rows[0] as { floor_value: string }).floor_value);
}

describe('sf-ctl backup and restore', () => {
  it('say what they did', async () => {
    expect(old.backupOut).toMatch(/^backed up the database \(schema \d+\) to .*before\.sql: \d+ bytes\n$/);
    expect(old.restoreOut).toContain(`restored ${file} into database ${database}`);
    const f = await floor();
    expect(old.restoreOut).toContain(`continues from ${f}:`);
    // Above everything the old cluster issued, after the backup included.
    expect(f).toBeGreaterThan(old.highest);
    expect(await t.count('tier_replicas')).toBe(1);
  });

  it('fence every lease holder from before, in the backup or not, and issue tokens above all theirs', async () => {
    const f = await floor();
    expect(await db.getLease('restore/a')).toMatchObject({ holder: '', token: String(f) });
    for (const [name, holder, token] of [['restore/a', 'old-a', '1'], ['restore/a', 'old-a2', '2'], ['restore/b', 'old-b', '1']] as const) {
      await expect(db.renewLease(name, holder, token, 60_000), `${name} ${holder} ${token}`).rejects.toBeInstanceOf(Fenced);
    }
    const a = await db.acquireLease('restore/a', 'new-a', 60_000);
    const b = await db.acquireLease('restore/b', 'new-b', 60_000);
    expect(BigInt(a.lease.token)).toBeGreaterThan(old.highest);
    expect(BigInt(b.lease.token)).toBeGreaterThan(old.highest);
    // The holder of b from before the restore, at the token it holds, still touches nothing.
    await expect(db.renewLease('restore/b', 'old-b', '1', 60_000)).rejects.toBeInstanceOf(Fenced);
    expect(await db.releaseLease('restore/b', 'old-b', '1')).toBe(false);
    expect((await db.getLease('restore/b'))?.holder).toBe('new-b');
  });

  it('resolve no claim by an epoch from before the restore', async () => {
    const f = await floor();
    // Item a's claim in the backup ended with the restore; item b is not in the backup.
    await expect(db.resolve(old.itemA, '1', 'SUCCEEDED')).rejects.toBeInstanceOf(Fenced);
    await expect(db.resolve(old.itemA, '2', 'SUCCEEDED')).rejects.toBeInstanceOf(Fenced);
    await expect(db.resolve(old.itemB, '1', 'SUCCEEDED')).rejects.toBeInstanceOf(NotFound);
    // Its producer enqueues b again (same id): it starts at the floor.
    const again = await db.enqueue({ id: old.itemB, nodeUuid: old.node, queue: 'jobs', payload: { n: 'b' } });
    expect(again).toMatchObject({ created: true, item: { epoch: String(f) } });
    const claims: Claim[] = await db.dequeue({ nodeUuid: old.node, queues: ['jobs'], limit: 2, holder: 'new-worker' });
    expect(claims.map((c) => c.item.id).sort()).toEqual([old.itemA, old.itemB].sort());
    for (const c of claims) expect(BigInt(c.epoch)).toBeGreaterThan(old.highest);
    for (const [id, epoch] of [[old.itemA, '1'], [old.itemA, '2'], [old.itemB, '1']] as const) {
      await expect(db.resolve(id, epoch, 'SUCCEEDED'), `${id} at ${epoch}`).rejects.toBeInstanceOf(Fenced);
      await expect(db.renewClaim(id, epoch), `${id} at ${epoch}`).rejects.toBeInstanceOf(Fenced);
      await expect(db.release(id, epoch), `${id} at ${epoch}`).rejects.toBeInstanceOf(Fenced);
    }
    expect(await t.count('work_items', "state = 'CLAIMED' AND claim_holder = 'new-worker'")).toBe(2);
    for (const c of claims) await db.resolve(c.item.id, c.epoch, 'SUCCEEDED');
  });

  it('refuse an expected version from before the restore', async () => {
    const f = await floor();
    expect((await db.getNode(old.node))?.version).toBe(String(f));
    for (const v of ['1', '2']) {
      await expect(db.updateNode(old.node, { ipAddress: '10.0.0.1' }, { expectedVersion: v })).rejects.toBeInstanceOf(Conflict);
    }
  });

  it('answer resync at once to a waiter or reader with a cursor from before, then serve the new cursor', async () => {
    const topic = topics.clusterConfig();
    for (const cursor of [old.cursorBefore, old.cursorAfter]) {
      const since = await db.getChangesSince({ cursor, topics: [topic] });
      expect(since.resync, cursor).toBe(true);
      const waited = await db.waitForChanges({ topics: [topic], cursor, timeoutMs: 30_000 });
      expect(waited.resync, cursor).toBe(true);
      expect(waited.changes).toEqual([]);
      const key = `after-restore-${randomUUID().slice(0, 8)}`;
      await db.setClusterConfig(key, { n: 1 });
      const next = await db.waitForChanges({ topics: [topic], cursor: waited.cursor, timeoutMs: 10_000 });
      expect(next.resync).toBe(false);
      expect(next.changes.map((c) => c.id)).toEqual([key]);
    }
  });

  it('took one snapshot while the writer wrote: every work item of the backup has its change row, and no change row lacks its item', async () => {
    const scratch = await createTestDatabase();
    try {
      const mariadb = findBinary('mariadb');
      expect(mariadb, 'the mariadb client (mariadb-client)').toBeDefined();
      const load = spawn(mariadb as string, ['--protocol=TCP', '--host=127.0.0.1', `--port=${inject('mariadbPort')}`, '--user=root', scratch], {
        stdio: ['pipe', 'ignore', 'inherit'],
      });
      createReadStream(file).pipe(load.stdin);
      expect(await new Promise((r) => load.once('close', r))).toBe(0);
      const conn = await mysql.createConnection({ uri: mariadbUrl(scratch) });
      try {
        const [items] = await conn.query<mysql.RowDataPacket[]>("SELECT COUNT(*) AS n FROM work_items WHERE queue = 'bulk'");
        expect(Number((items[0] as { n: string }).n)).toBeGreaterThan(0);
        const [orphans] = await conn.query<mysql.RowDataPacket[]>(
          `SELECT
             (SELECT COUNT(*) FROM work_items w WHERE w.queue = 'bulk'
                AND NOT EXISTS (SELECT 1 FROM changes c WHERE c.object_id = w.id AND c.kind = 'created')) AS items_without_change,
             (SELECT COUNT(*) FROM changes c WHERE c.topic LIKE '%/bulk' AND c.kind = 'created'
                AND NOT EXISTS (SELECT 1 FROM work_items w WHERE w.id = c.object_id)) AS changes_without_item`,
        );
        expect(orphans[0]).toEqual({ items_without_change: 0, changes_without_item: 0 });
      } finally {
        await conn.end();
      }
    } finally {
      await dropTestDatabase(scratch);
    }
  });
});
