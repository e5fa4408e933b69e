// A bounded pool queue: with every MariaDB connection busy and the queue full, a call fails
// at once with RESOURCE_EXHAUSTED (and a pushback) instead of waiting out its deadline.
import mysql from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import { DatabaseUnavailable } from '../../client/index.js';
import { metricValue } from '../../harness/scrape.js';
import { useTestTier } from '../helpers/tier.js';

const { t } = useTestTier({ env: { SFDB_POOL_SIZE: '1', SFDB_POOL_QUEUE_LIMIT: '1', SFDB_REPLICA_HEARTBEAT_MS: '200' } });

async function until(what: string, cond: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within 15 s`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('pool queue bound', () => {
  it('refuses the statement past the queue at once; the queued ones run when the connection frees', async () => {
    const db = t.client({ callerDaemon: 'net', maxAttempts: 1, cache: false, deadlineMs: 20_000 });
    await db.setClusterConfig('held', 'v0');
    // Another session locks the row: the pool's one connection blocks on it.
    await t.direct.query('BEGIN');
    let blocked: Promise<unknown> | undefined;
    let reads: Promise<unknown>[] = [];
    const refused: DatabaseUnavailable[] = [];
    try {
      await t.direct.query("SELECT * FROM cluster_config WHERE config_key = 'held' FOR UPDATE");
      blocked = db.setClusterConfig('held', 'v1');
      await until('the pool connection waits for the lock', async () => {
        const [rows] = await t.direct.query(
          "SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE ID <> CONNECTION_ID() AND INFO LIKE '%cluster_config%'",
        );
        return Number((rows as { n: string }[])[0]?.n) > 0;
      });
      reads = ['a', 'b', 'c'].map((key) => db.getClusterConfig(key).catch((err: unknown) => void refused.push(err as DatabaseUnavailable)));
      // One waits in the queue (or the registry heartbeat does); the rest are refused while
      // the connection is still held: they did not wait for it.
      await until('two reads refused', async () => refused.length >= 2);
      for (const err of refused) {
        expect(err).toBeInstanceOf(DatabaseUnavailable);
        expect(err.code).toBe(8);
        expect(err.message).toMatch(/connection pool is full/);
      }
      expect(metricValue(await t.metrics(), 'database_pool_queued')).toBeGreaterThanOrEqual(1);
    } finally {
      await t.direct.query('COMMIT');
    }
    await blocked;
    await Promise.all(reads);
    expect(await db.getClusterConfig('held')).toMatchObject({ value: 'v1' });
  });

  it("never sheds the replica's own registry heartbeat: it keeps beating while client calls are refused", async () => {
    const db = t.client({ callerDaemon: 'net', maxAttempts: 1, cache: false, deadlineMs: 20_000 });
    await db.setClusterConfig('held-2', 'v0');
    const watcher = await mysql.createConnection({ uri: t.databaseUrl, dateStrings: true });
    const beat = async (): Promise<string> => {
      const [rows] = await watcher.query('SELECT MAX(heartbeat_at) AS at FROM tier_replicas');
      return String((rows as { at: string }[])[0]?.at);
    };
    await t.direct.query('BEGIN');
    let blocked: Promise<unknown> | undefined;
    const refused: unknown[] = [];
    let reads: Promise<unknown>[] = [];
    try {
      await t.direct.query("SELECT * FROM cluster_config WHERE config_key = 'held-2' FOR UPDATE");
      blocked = db.setClusterConfig('held-2', 'v1');
      reads = ['a', 'b', 'c', 'd'].map((key) => db.getClusterConfig(key).catch((err: unknown) => void refused.push(err)));
      await until('client calls refused', async () => refused.length >= 2);
      // The client calls' pool is held and its queue full; the heartbeat (every 200 ms) goes on.
      const before = await beat();
      await until('the registry heartbeat advanced', async () => (await beat()) > before);
      expect(refused.length).toBeGreaterThanOrEqual(2);
    } finally {
      await t.direct.query('COMMIT');
      await watcher.end();
    }
    await blocked;
    await Promise.all(reads);
  });
});
