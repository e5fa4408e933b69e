// A row that moves while a transaction holds its lock. On one MariaDB it cannot; on Galera
// it can: a write through another node aborts the local holder of the lock, and Galera
// has delivered that abort late (the transaction's next statements then run on their
// own). CI once saw a Dequeue through one node hand out an item that another node's
// worker held. Dequeue and AcquireLease check that their update took the row as locked
// and are rerun when it did not, rather than hand out a claim or a token twice; Release
// (and the writes that read back their own row) are rerun rather than answer INTERNAL.
//
// Here the move is made inside the handler's own transaction, just after its locking
// read, on the first attempt only: what the handler's next statement would find.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database, createPool } from '../../server/db/pool.js';
import type { Param, Sql } from '../../server/db/sql.js';
import { Metrics } from '../../server/metrics.js';
import type { CallContext } from '../../server/rpc/context.js';
import { leaseHandlers } from '../../server/rpc/leases/handlers.js';
import { queueHandlers } from '../../server/rpc/queue/handlers.js';
import { newNode } from '../helpers/targets.js';
import { useTestTier } from '../helpers/tier.js';

const { t, db } = useTestTier();
/** The handlers' statements go through a pool of their own, wrapped per test (movingOnce). */
let database: Database;
beforeAll(() => {
  database = new Database(createPool({ url: t.databaseUrl, connectionLimit: 2 }), new Metrics('moved'));
});
afterAll(async () => {
  await database?.close();
});

/** `sql` whose first transaction runs `move` right after its first locking read. */
function movingOnce(sql: Sql, move: (tx: Sql) => Promise<void>): { sql: Sql; attempts: () => number } {
  let attempts = 0;
  let moved = false;
  const inTx = (tx: Sql): Sql =>
    Object.assign(Object.create(tx) as Sql, {
      async rows<T extends object>(statement: string, params?: readonly Param[]): Promise<T[]> {
        const rows = await tx.rows<T>(statement, params);
        if (!moved && /FOR UPDATE/.test(statement)) {
          moved = true;
          await move(tx);
        }
        return rows;
      },
    });
  const wrapped = Object.assign(Object.create(sql) as Sql, {
    transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
      return sql.transaction((tx) => {
        attempts += 1;
        return fn(inTx(tx));
      });
    },
  });
  return { sql: wrapped, attempts: () => attempts };
}

/** What Dequeue and AcquireLease use of a call's context. */
function context(sql: Sql): CallContext {
  return {
    sql,
    // Changes are not appended here: nothing waits for them.
    write: (fn: Parameters<CallContext['write']>[0]) => sql.transaction((tx) => fn(tx, () => ({ seqOn: () => undefined }))),
    leaseEnds: { expect: () => {} },
  } as unknown as CallContext;
}

describe('a row that moved under its lock', () => {
  it('Dequeue is rerun: it never hands out a claim it did not make', async () => {
    const nodeUuid = await newNode(db);
    const ids = [randomUUID(), randomUUID()];
    for (const id of ids) await db.enqueue({ id, nodeUuid, queue: 'jobs' });
    // Another worker claims the first item "through another node".
    const moving = movingOnce(database.sql('rpc'), async (tx) => {
      await tx.run(
        "UPDATE work_items SET state = 'CLAIMED', epoch = epoch + 1, claim_holder = 'elsewhere' WHERE id = ?",
        [ids[0] as string],
      );
    });
    const answer = await queueHandlers.Dequeue(
      { nodeUuid, queues: ['jobs'], limit: 2, leaseMs: '60000', holder: 'here' },
      context(moving.sql),
    );
    expect(moving.attempts()).toBe(2);
    // The rerun rolled the move back with the first attempt: both items are this call's.
    expect(answer.claims?.map((c) => [c.item?.id, c.holder, c.epoch])).toEqual(ids.map((id) => [id, 'here', '1']));
    expect(await t.count('work_items', "node_uuid = ? AND claim_holder = 'here' AND epoch = 1", [nodeUuid])).toBe(2);
  });

  it('AcquireLease is rerun: a token is issued once', async () => {
    const name = `moved-${randomUUID()}`;
    const first = await db.acquireLease(name, 'old', 60_000);
    await db.releaseLease(name, 'old', first.lease.token);
    // Another holder takes the free lease "through another node".
    const moving = movingOnce(database.sql('rpc'), async (tx) => {
      await tx.run("UPDATE leases SET holder = 'elsewhere', token = token + 1 WHERE name = ?", [name]);
    });
    const answer = await leaseHandlers.AcquireLease({ name, holder: 'here', ttlMs: '60000' }, context(moving.sql));
    expect(moving.attempts()).toBe(2);
    expect(answer.acquired).toBe(true);
    // The next token after the release, once: the moved take was rolled back with its attempt.
    expect(answer.lease?.token).toBe(String(BigInt(first.lease.token) + 1n));
    expect(answer.lease?.holder).toBe('here');
  });

  it('Release is rerun, not answered INTERNAL', async () => {
    const nodeUuid = await newNode(db);
    const id = randomUUID();
    await db.enqueue({ id, nodeUuid, queue: 'jobs' });
    const [claim] = await db.dequeue({ nodeUuid, queues: ['jobs'], holder: 'here' });
    const moving = movingOnce(database.sql('rpc'), async (tx) => {
      await tx.run("UPDATE work_items SET state = 'SUCCEEDED' WHERE id = ?", [id]);
    });
    await queueHandlers.Release({ id, epoch: String(claim?.epoch), delayMs: '0', message: 'back' }, context(moving.sql));
    expect(moving.attempts()).toBe(2);
    expect(await t.count('work_items', "id = ? AND state = 'QUEUED' AND message = 'back'", [id])).toBe(1);
  });
});
