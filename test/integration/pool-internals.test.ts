// The pool gauges read mysql2's private queues (server/db/pool-internals.ts). Here a real
// pool against the run's MariaDB is made to hold, lend, queue, hand over and drop
// connections, and each count is checked as the gauge reads it. A mysql2 release that
// renames a queue (_allConnections, _freeConnections, _connectionQueue) fails the first
// test at createPool; one that changes what a queue holds (say, an idle connection kept
// in _allConnections only) fails the counts. mysql2 is pinned so neither arrives unread.
// The watchdog's reset reads a connection's socket (`stream`, server/db/watchdog.ts): a
// release that moves it fails the last test, where a statement in flight must fail.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { PoolConnection as CorePoolConnection } from 'mysql2';
import type { Pool, PoolConnection } from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metricValue } from '../../harness/scrape.js';
import { Database, createPool } from '../../server/db/pool.js';
import { poolOccupancy } from '../../server/db/pool-internals.js';
import { resetConnection } from '../../server/db/watchdog.js';
import { Metrics } from '../../server/metrics.js';
import { createTestDatabase, dropTestDatabase, mariadbUrl } from '../helpers/tier.js';

const require = createRequire(import.meta.url);
let name = '';
let pool: Pool;

beforeAll(async () => {
  name = await createTestDatabase();
  pool = createPool({ url: mariadbUrl(name), connectionLimit: 2 });
});
afterAll(async () => {
  await pool?.end();
  if (name) await dropTestDatabase(name);
});

/** The next time the pool queues a statement (mysql2's public 'enqueue' event). */
const enqueued = (): Promise<void> => new Promise((resolve) => pool.pool.once('enqueue', () => resolve()));

describe("mysql2's pool, as the pool gauges read it", () => {
  it('is pinned to the exact version installed', () => {
    const declared = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { dependencies: Record<string, string> }).dependencies['mysql2'];
    expect(declared).toBe((require('mysql2/package.json') as { version: string }).version);
  });

  it('counts busy, idle and queued through lending, queueing, a direct hand-over and a dropped connection', async () => {
    expect(poolOccupancy(pool)).toEqual({ busy: 0, idle: 0, queued: 0 });
    const first = await pool.getConnection();
    const second = await pool.getConnection();
    expect(poolOccupancy(pool)).toEqual({ busy: 2, idle: 0, queued: 0 });

    // A third statement waits for a connection.
    const queued = enqueued();
    const third = pool.getConnection();
    await queued;
    expect(poolOccupancy(pool)).toEqual({ busy: 2, idle: 0, queued: 1 });

    // Released, the first goes straight to the waiter (mysql2 emits no event for that).
    first.release();
    const handed: PoolConnection = await third;
    expect(handed.threadId).toBe(first.threadId);
    expect(poolOccupancy(pool)).toEqual({ busy: 2, idle: 0, queued: 0 });

    handed.release();
    second.release();
    expect(poolOccupancy(pool)).toEqual({ busy: 0, idle: 2, queued: 0 });

    // A connection the pool drops is counted nowhere.
    const dropped = await pool.getConnection();
    expect(poolOccupancy(pool)).toEqual({ busy: 1, idle: 1, queued: 0 });
    dropped.destroy();
    expect(poolOccupancy(pool)).toEqual({ busy: 0, idle: 1, queued: 0 });
  });

  it('is what database_pool_connections and database_pool_queued say on a scrape', async () => {
    const metrics = new Metrics('pool-internals');
    const db = new Database(createPool({ url: mariadbUrl(name), connectionLimit: 3 }), metrics);
    try {
      const held = await db.pool.getConnection();
      const lent = await db.pool.getConnection();
      lent.release();
      const text = await metrics.registry.metrics();
      expect(metricValue(text, 'database_pool_connections', { state: 'busy' })).toBe(1);
      expect(metricValue(text, 'database_pool_connections', { state: 'idle' })).toBe(1);
      expect(metricValue(text, 'database_pool_queued')).toBe(0);
      held.release();
    } finally {
      await db.close();
    }
  });

  it("resets the socket of a callback pool's connection and of a promise one: a statement in flight on either fails at once", async () => {
    const core = await new Promise<CorePoolConnection>((resolve, reject) => pool.pool.getConnection((err, c) => (err ? reject(err) : resolve(c))));
    const inFlight = new Promise<unknown>((resolve) => core.query('SELECT SLEEP(30)', (err) => resolve(err)));
    resetConnection(core);
    expect(await inFlight).toMatchObject({ fatal: true });
    core.release();
    const wrapped = await pool.getConnection();
    const wrappedInFlight = wrapped.query('SELECT SLEEP(30)').then(
      () => undefined,
      (err: unknown) => err,
    );
    resetConnection(wrapped);
    expect(await wrappedInFlight).toMatchObject({ fatal: true });
    wrapped.release();
  });

  it('fails loudly, never reads 0, where a queue is gone', async () => {
    const metrics = new Metrics('pool-internals-gone');
    const db = new Database(createPool({ url: mariadbUrl(name), connectionLimit: 1 }), metrics);
    const inner = db.pool.pool as unknown as Record<string, unknown>;
    const free = inner['_freeConnections'];
    try {
      delete inner['_freeConnections'];
      expect(() => poolOccupancy(db.pool)).toThrow(/_freeConnections: server\/db\/pool-internals\.ts needs updating/);
      await expect(metrics.registry.metrics()).rejects.toThrow(/_freeConnections/);
    } finally {
      inner['_freeConnections'] = free;
      await db.close();
    }
  });
});
