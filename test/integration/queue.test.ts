import { randomUUID } from 'node:crypto';
import type { RowDataPacket } from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import { Conflict, Fenced, InvalidArgument, NotFound } from '../../client/index.js';
import { DUE_ITEMS_SQL, STUCK_CLAIMS_SQL, dueItemsParams } from '../../server/rpc/queue/queries.js';
import { newNode } from '../helpers/targets.js';
import { useTestTier } from '../helpers/tier.js';

const { t, db } = useTestTier();

/** Every column of the item as stored, for "nothing was written" checks. */
async function rawItem(id: string): Promise<Record<string, unknown> | undefined> {
  const [rows] = await t.direct.query<RowDataPacket[]>('SELECT * FROM work_items WHERE id = ?', [id]);
  return rows[0];
}

async function enqueueMany(nodeUuid: string, queue: string, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const id = randomUUID();
    await db.enqueue({ id, nodeUuid, queue, payload: { i } });
    ids.push(id);
  }
  return ids;
}

describe('queue', () => {
  it('enqueues idempotently on the client-chosen id and conflicts on other values', async () => {
    const nodeUuid = await newNode(db);
    const id = randomUUID();
    const { item, created } = await db.enqueue({ id, nodeUuid, queue: 'jobs', payload: { op: 'build', n: 1 } });
    expect(created).toBe(true);
    expect(item).toMatchObject({ id, nodeUuid, queue: 'jobs', payload: '{"op":"build","n":1}', state: 'QUEUED', epoch: '0', attempts: 0 });
    expect(item.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);

    const again = await db.enqueue({ id, nodeUuid, queue: 'jobs', payload: { op: 'build', n: 1 }, delayMs: 5000 });
    expect(again).toEqual({ item, created: false });
    await expect(db.enqueue({ id, nodeUuid, queue: 'jobs', payload: { op: 'other' } })).rejects.toBeInstanceOf(Conflict);
    await expect(db.enqueue({ id, nodeUuid, queue: 'other', payload: { op: 'build', n: 1 } })).rejects.toBeInstanceOf(Conflict);
    await expect(db.enqueue({ id, nodeUuid: await newNode(db), queue: 'jobs', payload: { op: 'build', n: 1 } })).rejects.toBeInstanceOf(Conflict);
    expect(await t.count('work_items', 'id = ?', [id])).toBe(1);

    // No payload is stored as JSON null.
    const bare = await db.enqueue({ id: randomUUID(), nodeUuid, queue: 'jobs' });
    expect(bare.item.payload).toBe('null');
  });

  it('dequeues FIFO within a queue and drains queues in priority order', async () => {
    const nodeUuid = await newNode(db);
    const low = await enqueueMany(nodeUuid, 'low', 3);
    const high = await enqueueMany(nodeUuid, 'high', 2);
    await enqueueMany(await newNode(db), 'high', 2); // another node's items are never handed out here

    const first = await db.dequeue({ nodeUuid, queues: ['high', 'low'], limit: 3, holder: 'worker-1' });
    expect(first.map((c) => c.item.id)).toEqual([...high, low[0]]);
    for (const c of first) {
      expect(c).toMatchObject({ epoch: '1', holder: 'worker-1', item: { state: 'CLAIMED', epoch: '1', attempts: 1 } });
      expect(c.leaseExpiresAt).toMatch(/Z$/);
    }
    expect((await db.dequeue({ nodeUuid, queues: ['high', 'low'], limit: 10 })).map((c) => c.item.id)).toEqual(low.slice(1));
    expect(await db.dequeue({ nodeUuid, queues: ['high', 'low'], limit: 10 })).toEqual([]);
  });

  it('claims with the default lease when none is asked for, and with the asked one otherwise', async () => {
    const nodeUuid = await newNode(db);
    const [a, b] = await enqueueMany(nodeUuid, 'jobs', 2);
    await db.dequeue({ nodeUuid, queues: ['jobs'] });
    await db.dequeue({ nodeUuid, queues: ['jobs'], leaseMs: 5000 });
    const lease = async (id: string): Promise<string> => {
      const [rows] = await t.direct.query<RowDataPacket[]>(
        'SELECT TIMESTAMPDIFF(MICROSECOND, updated_at, claim_expires_at) AS us FROM work_items WHERE id = ?',
        [id],
      );
      return String(rows[0]?.['us']);
    };
    expect(await lease(a as string)).toBe(String(t.config.defaultClaimLeaseMs * 1000));
    expect(await lease(b as string)).toBe('5000000');
  });

  it('respects a delay by database time', async () => {
    const nodeUuid = await newNode(db);
    const id = randomUUID();
    await db.enqueue({ id, nodeUuid, queue: 'later', payload: 1, delayMs: 60_000 });
    const [rows] = await t.direct.query<RowDataPacket[]>(
      'SELECT TIMESTAMPDIFF(MICROSECOND, created_at, not_before) AS us FROM work_items WHERE id = ?',
      [id],
    );
    expect(String(rows[0]?.['us'])).toBe('60000000');
    expect(await db.dequeue({ nodeUuid, queues: ['later'], limit: 10 })).toEqual([]);
    expect(await db.getQueueLength(nodeUuid, 'later')).toEqual({ queued: 1, claimed: 0 });

    await t.direct.query('UPDATE work_items SET not_before = UTC_TIMESTAMP(6) - INTERVAL 1 SECOND WHERE id = ?', [id]);
    expect((await db.dequeue({ nodeUuid, queues: ['later'], limit: 10 })).map((c) => c.item.id)).toEqual([id]);
  });

  it('renews, releases and resolves a claim, fencing stale epochs without writing', async () => {
    const nodeUuid = await newNode(db);
    const [id] = (await enqueueMany(nodeUuid, 'jobs', 1)) as [string];
    const [c1] = await db.dequeue({ nodeUuid, queues: ['jobs'], leaseMs: 2000 });
    expect(c1?.epoch).toBe('1');

    const renewed = await db.renewClaim(id, '1', 600_000);
    expect(renewed > (c1?.leaseExpiresAt ?? '')).toBe(true);

    await db.release(id, '1', { message: 'try again' });
    expect(await rawItem(id)).toMatchObject({ state: 'QUEUED', epoch: '1', message: 'try again', claim_holder: '', claim_expires_at: null });

    // Released at epoch 1: every write at epoch 1 is now fenced, and so is a release of a queued item.
    const [c2] = await db.dequeue({ nodeUuid, queues: ['jobs'], holder: 'second' });
    expect(c2).toMatchObject({ epoch: '2', holder: 'second', item: { attempts: 2 } });
    const before = await rawItem(id);
    await expect(db.renewClaim(id, '1', 5000)).rejects.toBeInstanceOf(Fenced);
    await expect(db.resolve(id, '1', 'SUCCEEDED', { ok: true })).rejects.toBeInstanceOf(Fenced);
    await expect(db.release(id, '1', { delayMs: 10 })).rejects.toBeInstanceOf(Fenced);
    await expect(db.resolve(id, '3', 'FAILED')).rejects.toBeInstanceOf(Fenced);
    expect(await rawItem(id)).toEqual(before);

    await db.resolve(id, '2', 'SUCCEEDED', { ok: true });
    const done = await rawItem(id);
    expect(done).toMatchObject({ state: 'SUCCEEDED', epoch: '2', result: '{"ok":true}', claim_holder: '', claim_expires_at: null });
    // A repeat (a retry after a lost answer) succeeds without writing; another outcome is fenced.
    await db.resolve(id, '2', 'SUCCEEDED', { ok: true });
    await expect(db.resolve(id, '2', 'FAILED')).rejects.toBeInstanceOf(Fenced);
    await expect(db.renewClaim(id, '2', 5000)).rejects.toBeInstanceOf(Fenced);
    await expect(db.release(id, '2')).rejects.toBeInstanceOf(Fenced);
    expect(await rawItem(id)).toEqual(done);

    const unknown = randomUUID();
    await expect(db.renewClaim(unknown, '1', 5000)).rejects.toBeInstanceOf(NotFound);
    await expect(db.resolve(unknown, '1', 'FAILED')).rejects.toBeInstanceOf(NotFound);
    await expect(db.release(unknown, '1')).rejects.toBeInstanceOf(NotFound);
  });

  it('counts queued and claimed items of a queue', async () => {
    const nodeUuid = await newNode(db);
    await enqueueMany(nodeUuid, 'count', 5);
    const claims = await db.dequeue({ nodeUuid, queues: ['count'], limit: 3 });
    await db.resolve(claims[0]?.item.id ?? '', claims[0]?.epoch ?? '', 'FAILED');
    expect(await db.getQueueLength(nodeUuid, 'count')).toEqual({ queued: 2, claimed: 2 });
    expect(await db.getQueueLength(nodeUuid, 'empty')).toEqual({ queued: 0, claimed: 0 });
  });

  it('lists claims whose lease ran out by database time', async () => {
    const nodeUuid = await newNode(db);
    const [stuck, live] = (await enqueueMany(nodeUuid, 'stuck', 2)) as [string, string];
    const claims = await db.dequeue({ nodeUuid, queues: ['stuck'], limit: 2, holder: 'gone' });
    const mine = (cs: { item: { id: string } }[]): string[] => cs.map((c) => c.item.id).filter((i) => i === stuck || i === live);
    expect(mine(await db.listStuckClaims(1000))).toEqual([]);

    await t.direct.query('UPDATE work_items SET claim_expires_at = UTC_TIMESTAMP(6) - INTERVAL 1 SECOND WHERE id = ?', [stuck]);
    const listed = await db.listStuckClaims(1000);
    expect(mine(listed)).toEqual([stuck]);
    expect(listed.find((c) => c.item.id === stuck)).toMatchObject({ holder: 'gone', epoch: claims[0]?.epoch, item: { state: 'CLAIMED' } });
  });

  it('never hands out the same item twice to concurrent dequeuers', async () => {
    const nodeUuid = await newNode(db);
    const ids = await enqueueMany(nodeUuid, 'race', 20);
    const clients = [t.client(), t.client(), t.client(), t.client()];
    const taken = await Promise.all(
      clients.map(async (c, n) => {
        const got: string[] = [];
        for (;;) {
          const claims = await c.dequeue({ nodeUuid, queues: ['race'], limit: 3, holder: `w${n}` });
          if (claims.length === 0) return got;
          got.push(...claims.map((cl) => cl.item.id));
        }
      }),
    );
    const all = taken.flat();
    expect(all).toHaveLength(20);
    expect(new Set(all)).toEqual(new Set(ids));
    expect(await t.count('work_items', 'node_uuid = ? AND state = ? AND epoch = 1', [nodeUuid, 'CLAIMED'])).toBe(20);
  });

  it('dequeues through work_items_dequeue and reads only active rows, whatever the history', async () => {
    const nodeUuid = await newNode(db);
    // A long finished history in the same (node, queue), then a little live work.
    await t.direct.query(
      `INSERT INTO work_items (id, node_uuid, queue, payload, state, epoch, attempts, not_before, created_at, updated_at)
       SELECT UUID(), ?, 'hist', '{}', 'SUCCEEDED', 1, 1, UTC_TIMESTAMP(6), UTC_TIMESTAMP(6), UTC_TIMESTAMP(6) FROM seq_1_to_2000`,
      [nodeUuid],
    );
    await enqueueMany(nodeUuid, 'hist', 3);

    const [plan] = await t.direct.query<RowDataPacket[]>(`EXPLAIN ${DUE_ITEMS_SQL}`, dueItemsParams(nodeUuid, 'hist', 10));
    expect(plan[0]).toMatchObject({ key: 'work_items_dequeue', ref: 'const,const,const' });
    // The next-due part: MIN over work_items_due, resolved by one index dive.
    expect(plan[1]).toMatchObject({ select_type: 'UNION' });
    expect(['Select tables optimized away', 'No matching min/max row']).toContain(plan[1]?.['Extra']);
    const [stuckPlan] = await t.direct.query<RowDataPacket[]>(`EXPLAIN ${STUCK_CLAIMS_SQL}`, [10]);
    expect(stuckPlan[0]).toMatchObject({ key: 'work_items_claims' });

    // Rows actually read by the dequeue statement: the live ones, not the 2000 finished.
    const handlerReads = async (): Promise<number> => {
      const [status] = await t.direct.query<RowDataPacket[]>(
        "SHOW SESSION STATUS WHERE Variable_name IN ('Handler_read_first', 'Handler_read_key', 'Handler_read_next', 'Handler_read_rnd_next')",
      );
      return status.reduce((sum, r) => sum + Number(r['Value']), 0);
    };
    await t.direct.query('BEGIN');
    const before = await handlerReads();
    const [due] = await t.direct.query<RowDataPacket[]>(DUE_ITEMS_SQL, dueItemsParams(nodeUuid, 'hist', 10));
    const read = (await handlerReads()) - before;
    await t.direct.query('ROLLBACK');
    expect(due.filter((r) => r['seq'] !== null)).toHaveLength(3);
    expect(due.filter((r) => r['seq'] === null)).toEqual([{ seq: null, due_in_us: null, node_known: '1' }]); // nothing delayed; the node exists
    expect(read).toBeLessThan(20);
  });

  it('refuses bad input naming the field and writes nothing', async () => {
    const nodeUuid = await newNode(db);
    const [id] = (await enqueueMany(nodeUuid, 'bad', 2)) as [string];
    const [claim] = await db.dequeue({ nodeUuid, queues: ['bad'] });
    expect(claim?.item.id).toBe(id);
    const epoch = claim?.epoch ?? '';
    const deep = '['.repeat(40) + ']'.repeat(40);
    const cases: [() => Promise<unknown>, string][] = [
      [() => db.enqueue({ id: 'not-a-uuid', nodeUuid, queue: 'q' }), 'id'],
      [() => db.enqueue({ id: randomUUID().toUpperCase(), nodeUuid, queue: 'q' }), 'id'],
      [() => db.enqueue({ id: randomUUID(), nodeUuid: 'nope', queue: 'q' }), 'node_uuid'],
      [() => db.enqueue({ id: randomUUID(), nodeUuid, queue: 'q'.repeat(65) }), 'queue'],
      [() => db.enqueue({ id: randomUUID(), nodeUuid, queue: 'Bad Queue' }), 'queue'],
      [() => db.enqueue({ id: randomUUID(), nodeUuid, queue: '' }), 'queue'],
      [() => db.call('Enqueue', { id: randomUUID(), nodeUuid, queue: 'q', payload: '{not json' }), 'payload'],
      [() => db.enqueue({ id: randomUUID(), nodeUuid, queue: 'q', payload: { pad: 'x'.repeat(65 * 1024) } }), 'payload'],
      [() => db.call('Enqueue', { id: randomUUID(), nodeUuid, queue: 'q', payload: deep }), 'payload'],
      [() => db.enqueue({ id: randomUUID(), nodeUuid, queue: 'q', delayMs: -1 }), 'delay_ms'],
      [() => db.enqueue({ id: randomUUID(), nodeUuid, queue: 'q', delayMs: 86_400_001 }), 'delay_ms'],
      [() => db.dequeue({ nodeUuid: 'nope', queues: ['bad'] }), 'node_uuid'],
      [() => db.dequeue({ nodeUuid, queues: [] }), 'queues'],
      [() => db.dequeue({ nodeUuid, queues: Array.from({ length: 17 }, (_, i) => `q${i}`) }), 'queues'],
      [() => db.dequeue({ nodeUuid, queues: ['bad', 'bad'] }), 'queues'],
      [() => db.dequeue({ nodeUuid, queues: ['bad', 'BAD!'] }), 'queues'],
      [() => db.dequeue({ nodeUuid, queues: ['bad'], limit: 101 }), 'limit'],
      [() => db.dequeue({ nodeUuid, queues: ['bad'], limit: -1 }), 'limit'],
      [() => db.dequeue({ nodeUuid, queues: ['bad'], leaseMs: 999 }), 'lease_ms'],
      [() => db.dequeue({ nodeUuid, queues: ['bad'], leaseMs: 3_600_001 }), 'lease_ms'],
      [() => db.dequeue({ nodeUuid, queues: ['bad'], holder: 'h'.repeat(129) }), 'holder'],
      [() => db.renewClaim('nope', epoch, 5000), 'id'],
      [() => db.renewClaim(id, '0', 5000), 'epoch'],
      [() => db.renewClaim(id, 'abc', 5000), 'epoch'],
      [() => db.renewClaim(id, epoch, 10), 'lease_ms'],
      [() => db.call('Resolve', { id, epoch, outcome: 99 as never }), 'outcome'],
      [() => db.call('Resolve', { id, epoch, outcome: 'QUEUED' }), 'outcome'],
      [() => db.call('Resolve', { id, epoch }), 'outcome'],
      [() => db.call('Resolve', { id, epoch, outcome: 'SUCCEEDED', result: '{oops' }), 'result'],
      [() => db.resolve(id, epoch, 'SUCCEEDED', 'r'.repeat(65 * 1024)), 'result'],
      [() => db.resolve(id, '-1', 'SUCCEEDED'), 'epoch'],
      [() => db.release(id, epoch, { delayMs: 86_400_001 }), 'delay_ms'],
      [() => db.release(id, epoch, { message: 'm'.repeat(1025) }), 'message'],
      [() => db.getQueueLength('nope', 'bad'), 'node_uuid'],
      [() => db.getQueueLength(nodeUuid, 'x'.repeat(65)), 'queue'],
      [() => db.listStuckClaims(1001), 'limit'],
      [() => db.listStuckClaims(-5), 'limit'],
    ];
    const countBefore = await t.count('work_items');
    const claimedBefore = await t.count('work_items', "state = 'CLAIMED'");
    const itemBefore = await rawItem(id);
    for (const [call, field] of cases) {
      const err = await call().then(() => undefined, (e: unknown) => e);
      expect(err, field).toBeInstanceOf(InvalidArgument);
      expect((err as InvalidArgument).field, String(err)).toBe(field);
    }
    expect(await t.count('work_items')).toBe(countBefore);
    expect(await t.count('work_items', "state = 'CLAIMED'")).toBe(claimedBefore);
    expect(await rawItem(id)).toEqual(itemBefore);
  });
});
