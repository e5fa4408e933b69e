// A refusal that provably did nothing is marked (the noEffect trailer of proto/errors.ts)
// and retried by the client even for a call that must not run twice: a Dequeue refused
// by the full MariaDB pool is sent again and claims its item once. So is contention
// MariaDB rolled back after the tier's reruns (on Galera, Dequeues through two nodes). A
// refusal after a statement of the call took effect is never marked
// (server/db/call-ledger.ts).
import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { Claim } from '../../client/index.js';
import { CallLedger } from '../../server/db/call-ledger.js';
import { Database, createPool } from '../../server/db/pool.js';
import { ResourceExhaustedError, UnavailableError } from '../../server/errors.js';
import { toServiceError } from '../../server/grpc/error-status.js';
import { noEffect } from '../../proto/errors.js';
import { Metrics } from '../../server/metrics.js';
import { metricValue } from '../../harness/scrape.js';
import { newNode } from '../helpers/targets.js';
import { useTestTier } from '../helpers/tier.js';

const { t, db } = useTestTier({ env: { SFDB_POOL_SIZE: '1', SFDB_POOL_QUEUE_LIMIT: '1' } });

async function until(what: string, cond: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within 15 s`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('a refusal that did nothing', () => {
  it('is retried for a Dequeue the full pool refused: the daemon gets its claim, claimed once', async () => {
    const nodeUuid = await newNode(db);
    const id = randomUUID();
    await db.enqueue({ id, nodeUuid, queue: 'jobs' });
    await db.setClusterConfig('held', 'v0');
    const other = t.client({ callerDaemon: 'net', maxAttempts: 1, cache: false, deadlineMs: 30_000 });
    const worker = t.client({ callerDaemon: 'queues', maxAttempts: 50, cache: false, deadlineMs: 30_000 });
    const refusals = async (): Promise<number> =>
      metricValue(await t.metrics(), 'database_request_errors_total', { operation: 'Dequeue', code: 'RESOURCE_EXHAUSTED' });
    const refusedBefore = await refusals();

    // Another session locks a row: the pool's one connection blocks on it, and one more
    // statement fills the pool's queue (its one place).
    await t.direct.query('BEGIN');
    let blocked: Promise<unknown> | undefined;
    let queued: Promise<unknown> | undefined;
    let dequeued: Promise<{ claims?: Claim[]; err?: unknown }> | undefined;
    try {
      await t.direct.query("SELECT * FROM cluster_config WHERE config_key = 'held' FOR UPDATE");
      blocked = other.setClusterConfig('held', 'v1');
      await until('the pool connection waits for the lock', async () => {
        const [rows] = await t.direct.query(
          "SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE ID <> CONNECTION_ID() AND INFO LIKE '%cluster_config%'",
        );
        return Number((rows as { n: string }[])[0]?.n) > 0;
      });
      queued = other.getClusterConfig('waits');
      await until('a statement waits in the pool queue', async () => metricValue(await t.metrics(), 'database_pool_queued') >= 1);
      dequeued = worker.dequeue({ nodeUuid, queues: ['jobs'], holder: 'w' }).then(
        (claims) => ({ claims }),
        (err: unknown) => ({ err }),
      );
      // Refused at once (the queue is full): counted before the connection is freed.
      await until('the Dequeue refused', async () => (await refusals()) > refusedBefore);
    } finally {
      await t.direct.query('COMMIT');
    }
    await blocked;
    await queued;
    const { claims, err } = await (dequeued as Promise<{ claims?: Claim[]; err?: unknown }>);
    expect(err).toBeUndefined();
    expect(claims?.map((c) => c.item.id)).toEqual([id]);
    // Claimed by exactly one attempt: the refused one ran nothing.
    expect(claims?.[0]?.epoch).toBe('1');
    expect(await t.count('work_items', "id = ? AND state = 'CLAIMED' AND epoch = 1", [id])).toBe(1);
  });
});

describe('the call ledger', () => {
  it('marks a refusal of the full pool only when no statement of the call was sent', async () => {
    await t.direct.query('CREATE TABLE ledger_probe (id INT PRIMARY KEY)');
    // A pool of one connection and one queue place, of its own: held and queued below.
    const pool = createPool({ url: t.databaseUrl, connectionLimit: 1, queueLimit: 1 });
    const database = new Database(pool, new Metrics('ledger'));
    /** What `statement` fails with while the pool's connection is held and its queue full. */
    const refused = async (statement: () => Promise<unknown>): Promise<unknown> => {
      const held = await pool.getConnection();
      const waiting = pool.getConnection();
      try {
        return await statement().then(
          () => undefined,
          (err: unknown) => err,
        );
      } finally {
        held.release();
        (await waiting).release();
      }
    };
    try {
      // Refused before anything of the call was sent: marked (a statement, a transaction,
      // a plain read: reads change nothing and are not counted).
      const reader = new CallLedger();
      const err0 = await refused(() => reader.sql(database.sql('rpc')).rows('SELECT id FROM ledger_probe'));
      expect(err0).toBeInstanceOf(ResourceExhaustedError);
      expect(reader.tookNoEffect(err0)).toBe(true);
      const first = new CallLedger();
      const err1 = await refused(() => first.sql(database.sql('rpc')).run('INSERT INTO ledger_probe (id) VALUES (1)'));
      expect(err1).toBeInstanceOf(ResourceExhaustedError);
      expect(first.tookNoEffect(err1)).toBe(true);
      const tx = new CallLedger();
      const err2 = await refused(() => tx.sql(database.sql('rpc')).transaction((s) => s.run('INSERT INTO ledger_probe (id) VALUES (2)')));
      expect(err2).toBeInstanceOf(ResourceExhaustedError);
      expect(tx.tookNoEffect(err2)).toBe(true);

      // An autocommit write went through, then the call's next statement was refused: not
      // marked (a retry would write again).
      const later = new CallLedger();
      const sql = later.sql(database.sql('rpc'));
      await sql.run('INSERT INTO ledger_probe (id) VALUES (3)');
      const err3 = await refused(() => sql.rows('SELECT id FROM ledger_probe WHERE id = ?', [3]));
      expect(err3).toBeInstanceOf(ResourceExhaustedError);
      expect(later.tookNoEffect(err3)).toBe(false);
      expect(await t.count('ledger_probe')).toBe(1);

      // A transaction's work began and met a refusal: not marked either.
      const began = new CallLedger();
      const callSql = began.sql(database.sql('rpc'));
      const err4 = await callSql
        .transaction(async (s) => {
          await s.run('INSERT INTO ledger_probe (id) VALUES (4)');
          // The transaction holds the one connection: one more waits, the next is refused.
          const waiting = pool.getConnection();
          try {
            return await callSql.rows('SELECT 1 AS one');
          } finally {
            void waiting.then((c) => c.release());
          }
        })
        .then(
          () => undefined,
          (err: unknown) => err,
        );
      expect(err4).toBeInstanceOf(ResourceExhaustedError);
      expect(began.tookNoEffect(err4)).toBe(false);

      // A call that handed writes to a shared path (group commit): a refusal from there may
      // follow a batch statement that committed, so it is never marked.
      const bystander = new CallLedger();
      bystander.sharesWrites();
      const err5 = await refused(() => database.sql('rpc').run('INSERT INTO ledger_probe (id) VALUES (5)'));
      expect(err5).toBeInstanceOf(ResourceExhaustedError);
      expect(bystander.tookNoEffect(err5)).toBe(false);
      expect(await t.count('ledger_probe')).toBe(1);
    } finally {
      await database.close();
    }
  });

  it('marks contention MariaDB rolled back after the reruns, unless another write of the call took effect', async () => {
    await t.direct.query('CREATE TABLE contention_probe (id INT PRIMARY KEY, v INT NOT NULL DEFAULT 0)');
    await t.direct.query('INSERT INTO contention_probe (id) VALUES (1)');
    const database = new Database(createPool({ url: t.databaseUrl, connectionLimit: 2 }), new Metrics('contention'));
    // Row 1 is held by another session: every attempt's update of it times out at once
    // (1205, a lock wait timeout), after the attempt's own insert.
    const contended = (sql: ReturnType<CallLedger['sql']>, id: number): Promise<unknown> =>
      sql
        .transaction(async (tx) => {
          await tx.run('INSERT INTO contention_probe (id) VALUES (?)', [id]);
          await tx.run('SET STATEMENT innodb_lock_wait_timeout = 0 FOR UPDATE contention_probe SET v = v + 1 WHERE id = 1');
        })
        .then(
          () => undefined,
          (err: unknown) => err,
        );
    const log = pino({ level: 'silent' });
    await t.direct.query('BEGIN');
    try {
      await t.direct.query('SELECT * FROM contention_probe WHERE id = 1 FOR UPDATE');
      const alone = new CallLedger();
      const err1 = await contended(alone.sql(database.sql('rpc')), 10);
      expect(err1).toBeInstanceOf(UnavailableError);
      expect((err1 as UnavailableError).rolledBack).toBe(true);
      expect(alone.tookNoEffect(err1)).toBe(true);
      const answer = toServiceError(err1, 'Probe', log, alone.tookNoEffect(err1));
      expect(answer.code).toBe(14); // UNAVAILABLE
      expect(noEffect(answer.metadata)).toBe(true);

      // An autocommit write of the same call went through first: not marked.
      const after = new CallLedger();
      const sql = after.sql(database.sql('rpc'));
      await sql.run('INSERT INTO contention_probe (id) VALUES (20)');
      const err2 = await contended(sql, 21);
      expect(err2).toBeInstanceOf(UnavailableError);
      expect(after.tookNoEffect(err2)).toBe(false);
      expect(noEffect(toServiceError(err2, 'Probe', log, after.tookNoEffect(err2)).metadata)).toBe(false);
    } finally {
      await t.direct.query('COMMIT');
      await database.close();
    }
    // Every attempt rolled back: only the autocommit write is there.
    expect((await t.direct.query('SELECT id FROM contention_probe ORDER BY id'))[0]).toEqual([{ id: 1 }, { id: 20 }]);
  });

  it('does not mark an outage: a lost connection may have committed', () => {
    const lost = new UnavailableError('database unavailable: PROTOCOL_CONNECTION_LOST');
    const ledger = new CallLedger();
    expect(ledger.tookNoEffect(lost)).toBe(false);
    const answer = toServiceError(lost, 'Probe', pino({ level: 'silent' }), ledger.tookNoEffect(lost));
    expect(answer).toEqual({ code: 14, details: 'database unavailable' });
  });
});
