// GetWorkItem and ListWorkItems against real MariaDB: every field of an item read back at
// each step of its life (enqueued with a delay, claimed, released with a message and a
// delay, claimed again, resolved with a result), listings by state across pages, their
// cost (the page, never the history: EXPLAIN and the index rows read), the 1 MiB page cut,
// and bad input refused naming the field.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { RowDataPacket } from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import { InvalidArgument } from '../../client/index.js';
import type { WorkItem, WorkItemState } from '../../client/index.js';
import { listWorkItems } from '../../server/rpc/queue/read-queries.js';
import { MAX_PAGE_JSON_BYTES } from '../../server/rpc/queue/reads.js';
import { explainStatement, rowsRead } from '../helpers/explain.js';
import { newNode } from '../helpers/targets.js';
import { useTestTier } from '../helpers/tier.js';

const { t, db } = useTestTier();

/** The item as stored, in the answer's terms: what GetWorkItem must say. */
async function stored(id: string): Promise<WorkItem> {
  const [rows] = await t.direct.query<RowDataPacket[]>('SELECT * FROM work_items WHERE id = ?', [id]);
  const r = rows[0] as RowDataPacket;
  const iso = (v: string | null): string => (v === null ? '' : `${v.replace(' ', 'T')}Z`);
  return {
    id: r['id'], nodeUuid: r['node_uuid'], queue: r['queue'], payload: r['payload'], state: r['state'], epoch: String(r['epoch']),
    attempts: Number(r['attempts']), createdAt: iso(r['created_at']), updatedAt: iso(r['updated_at']), result: r['result'] ?? '',
    message: r['message'], claimHolder: r['claim_holder'], claimExpiresAt: iso(r['claim_expires_at']), notBefore: iso(r['not_before']),
  };
}

async function read(id: string): Promise<WorkItem> {
  const item = await db.getWorkItem(id);
  if (!item) throw new Error(`work item ${id} not found`);
  expect(item).toEqual(await stored(id));
  return item;
}

const msBetween = (from: string, to: string): number => Date.parse(to) - Date.parse(from);

/** Makes the item's delay run out now (instead of sleeping through it). */
async function makeDue(id: string): Promise<void> {
  await t.direct.query('UPDATE work_items SET not_before = UTC_TIMESTAMP(6) - INTERVAL 1 SECOND WHERE id = ?', [id]);
}

/** Every page of a listing: the ids in order, and how many pages it took. */
async function listAll(input: { nodeUuid: string; queue: string; state?: WorkItemState; pageSize: number }): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let pageToken = '';
  for (let pages = 1; pages < 1000; pages++) {
    const page = await db.listWorkItems({ ...input, pageToken });
    expect(page.items.length).toBeLessThanOrEqual(input.pageSize);
    ids.push(...page.items.map((i) => i.id));
    if (page.nextPageToken === '') return { ids, pages };
    pageToken = page.nextPageToken;
  }
  throw new Error('listing did not end');
}

/** Items of one queue in each state, enqueue order kept: the expected listing by state. */
async function queueInEveryState(nodeUuid: string, queue: string, n: { queued: number; claimed: number; succeeded: number; failed: number }): Promise<Record<WorkItemState, string[]>> {
  const all: string[] = [];
  for (let i = 0; i < n.queued + n.claimed + n.succeeded + n.failed; i++) {
    const id = randomUUID();
    await db.enqueue({ id, nodeUuid, queue, payload: { i } });
    all.push(id);
  }
  const claims = await db.dequeue({ nodeUuid, queues: [queue], limit: n.claimed + n.succeeded + n.failed || 1 });
  const claimed = claims.map((c) => c.item.id);
  for (const c of claims.slice(0, n.succeeded)) await db.resolve(c.item.id, c.epoch, 'SUCCEEDED', { ok: true });
  for (const c of claims.slice(n.succeeded, n.succeeded + n.failed)) await db.resolve(c.item.id, c.epoch, 'FAILED');
  return {
    QUEUED: all.filter((id) => !claimed.includes(id)),
    SUCCEEDED: claimed.slice(0, n.succeeded),
    FAILED: claimed.slice(n.succeeded, n.succeeded + n.failed),
    CLAIMED: claimed.slice(n.succeeded + n.failed),
  };
}

describe('GetWorkItem', () => {
  it('reads an item back with every field at each step of its life', async () => {
    const nodeUuid = await newNode(db);
    const id = randomUUID();
    const { item: enqueued } = await db.enqueue({ id, nodeUuid, queue: 'life', payload: { op: 'build' }, delayMs: 60_000 });
    const queued = await read(id);
    expect(queued).toEqual(enqueued);
    expect(queued).toMatchObject({ state: 'QUEUED', payload: '{"op":"build"}', epoch: '0', attempts: 0, result: '', message: '', claimHolder: '', claimExpiresAt: '' });
    expect(msBetween(queued.createdAt, queued.notBefore)).toBe(60_000);

    await makeDue(id);
    const [claim] = await db.dequeue({ nodeUuid, queues: ['life'], holder: 'worker-1', leaseMs: 5_000 });
    const claimed = await read(id);
    expect(claimed).toMatchObject({ state: 'CLAIMED', epoch: '1', attempts: 1, claimHolder: 'worker-1', claimExpiresAt: claim?.leaseExpiresAt });
    expect(msBetween(claimed.updatedAt, claimed.claimExpiresAt)).toBe(5_000);
    expect(claim?.item).toEqual(claimed);

    await db.release(id, '1', { message: 'disk busy', delayMs: 30_000 });
    const released = await read(id);
    expect(released).toMatchObject({ state: 'QUEUED', epoch: '1', attempts: 1, message: 'disk busy', claimHolder: '', claimExpiresAt: '', result: '' });
    expect(msBetween(released.updatedAt, released.notBefore)).toBe(30_000);

    await makeDue(id);
    const [again] = await db.dequeue({ nodeUuid, queues: ['life'], holder: 'worker-2' });
    expect(await read(id)).toMatchObject({ state: 'CLAIMED', epoch: '2', attempts: 2, claimHolder: 'worker-2', message: 'disk busy' });

    await db.resolve(id, again?.epoch ?? '', 'SUCCEEDED', { size: 42 });
    const done = await read(id);
    expect(done).toMatchObject({ state: 'SUCCEEDED', epoch: '2', attempts: 2, claimHolder: '', claimExpiresAt: '', message: 'disk busy' });
    expect(JSON.parse(done.result)).toEqual({ size: 42 });
    expect(done.createdAt).toBe(queued.createdAt);
  });

  it('answers undefined for an id that does not exist, and a FAILED item without a result', async () => {
    expect(await db.getWorkItem(randomUUID())).toBeUndefined();
    expect(await db.call('GetWorkItem', { id: randomUUID() })).toEqual({ found: false, item: null });
    const nodeUuid = await newNode(db);
    const { FAILED } = await queueInEveryState(nodeUuid, 'failing', { queued: 0, claimed: 0, succeeded: 0, failed: 1 });
    expect(await read(FAILED[0] as string)).toMatchObject({ state: 'FAILED', result: '', attempts: 1 });
  });
});

describe('ListWorkItems', () => {
  it('lists one queue by state, or every state grouped, across pages', async () => {
    const nodeUuid = await newNode(db);
    const want = await queueInEveryState(nodeUuid, 'mix', { queued: 5, claimed: 2, succeeded: 3, failed: 1 });
    // Neighbours never listed: another queue of the node, the same queue of another node.
    await db.enqueue({ id: randomUUID(), nodeUuid, queue: 'other', payload: 1 });
    await db.enqueue({ id: randomUUID(), nodeUuid: await newNode(db), queue: 'mix', payload: 1 });

    for (const state of ['QUEUED', 'CLAIMED', 'SUCCEEDED', 'FAILED'] as const) {
      expect((await listAll({ nodeUuid, queue: 'mix', state, pageSize: 2 })).ids, state).toEqual(want[state]);
    }
    const every = await listAll({ nodeUuid, queue: 'mix', pageSize: 3 });
    expect(every.ids).toEqual([...want.CLAIMED, ...want.FAILED, ...want.QUEUED, ...want.SUCCEEDED]);
    expect(every.pages).toBe(4);
    const page = await db.listWorkItems({ nodeUuid, queue: 'mix', state: 'SUCCEEDED' });
    expect(page.nextPageToken).toBe('');
    for (const item of page.items) expect(item).toEqual(await stored(item.id));
    expect(await db.listWorkItems({ nodeUuid, queue: 'empty' })).toEqual({ items: [], nextPageToken: '' });
  });

  it('returns every item exactly once whatever the page size and filter (property)', async () => {
    const nodeUuid = await newNode(db);
    const want = await queueInEveryState(nodeUuid, 'prop', { queued: 7, claimed: 3, succeeded: 6, failed: 2 });
    const order = [...want.CLAIMED, ...want.FAILED, ...want.QUEUED, ...want.SUCCEEDED];
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 20 }), fc.option(fc.constantFrom(...(['QUEUED', 'CLAIMED', 'SUCCEEDED', 'FAILED'] as const)), { nil: undefined }), async (pageSize, state) => {
        const { ids, pages } = await listAll({ nodeUuid, queue: 'prop', pageSize, ...(state ? { state } : {}) });
        const expected = state ? want[state] : order;
        expect(ids).toEqual(expected);
        expect(pages).toBe(Math.max(1, Math.ceil(expected.length / pageSize)));
      }),
      { numRuns: 40 },
    );
  });

  it('reads the page through work_items_dequeue, never the queue history', async () => {
    const nodeUuid = await newNode(db);
    await t.direct.query(
      `INSERT INTO work_items (id, node_uuid, queue, payload, state, epoch, attempts, not_before, created_at, updated_at)
       SELECT UUID(), ?, 'hist', '{}', 'SUCCEEDED', 1, 1, UTC_TIMESTAMP(6), UTC_TIMESTAMP(6), UTC_TIMESTAMP(6) FROM seq_1_to_3000`,
      [nodeUuid],
    );
    const live = await queueInEveryState(nodeUuid, 'hist', { queued: 20, claimed: 0, succeeded: 0, failed: 0 });
    const [mid] = await t.direct.query<RowDataPacket[]>(
      "SELECT seq FROM work_items WHERE node_uuid = ? AND queue = 'hist' AND state = 'SUCCEEDED' ORDER BY seq LIMIT 1 OFFSET 1500",
      [nodeUuid],
    );
    const midSeq = String(mid[0]?.['seq']);
    const firstQueued = String((await t.direct.query<RowDataPacket[]>('SELECT seq FROM work_items WHERE id = ?', [live.QUEUED[0]]))[0][0]?.['seq']);
    const scopes = [
      { nodeUuid, queue: 'hist', state: 'QUEUED', after: undefined, limit: 11 },
      { nodeUuid, queue: 'hist', state: 'QUEUED', after: { state: 'QUEUED', seq: firstQueued }, limit: 11 },
      { nodeUuid, queue: 'hist', state: 'SUCCEEDED', after: { state: 'SUCCEEDED', seq: midSeq }, limit: 11 },
      { nodeUuid, queue: 'hist', state: undefined, after: { state: 'SUCCEEDED', seq: midSeq }, limit: 11 },
      { nodeUuid, queue: 'hist', state: undefined, after: undefined, limit: 11 },
    ];
    for (const scope of scopes) {
      const plan = await explainStatement(t.direct, (sql) => listWorkItems(sql, scope));
      expect(plan, JSON.stringify(scope)).toHaveLength(1);
      expect(plan[0], JSON.stringify(scope)).toMatchObject({ key: 'work_items_dequeue' });
      expect(plan[0]?.type, JSON.stringify(scope)).toMatch(/^(ref|range)$/);
      expect(plan[0]?.Extra ?? '', JSON.stringify(scope)).not.toMatch(/filesort/);
      // Index rows read: the page (11) and the seek, not the 3,000 finished items.
      expect(await rowsRead(t.direct, (sql) => listWorkItems(sql, scope)), JSON.stringify(scope)).toBeLessThanOrEqual(13);
      // …and the page was full: 10 items answered, and a next page.
      const pageToken = scope.after ? Buffer.from(JSON.stringify([scope.after.state, scope.after.seq])).toString('base64url') : '';
      const page = await db.listWorkItems({ nodeUuid, queue: 'hist', pageSize: 10, pageToken, ...(scope.state ? { state: scope.state as WorkItemState } : {}) });
      expect(page.items).toHaveLength(10);
      expect(page.nextPageToken).not.toBe('');
    }
  });

  it('ends a page once its JSON passes 1 MiB, every item still listed once', async () => {
    const nodeUuid = await newNode(db);
    const ids: string[] = [];
    const pad = 'x'.repeat(60 * 1024);
    for (let i = 0; i < 40; i++) {
      const id = randomUUID();
      await db.enqueue({ id, nodeUuid, queue: 'big', payload: { pad, i } });
      ids.push(id);
    }
    const first = await db.listWorkItems({ nodeUuid, queue: 'big', pageSize: 1000 });
    const bytes = first.items.map((i) => Buffer.byteLength(i.payload));
    const total = bytes.reduce((a, b) => a + b, 0);
    // The item that passes the bound is the page's last.
    expect(total).toBeGreaterThan(MAX_PAGE_JSON_BYTES);
    expect(total - (bytes.at(-1) ?? 0)).toBeLessThanOrEqual(MAX_PAGE_JSON_BYTES);
    expect(first.items.length).toBeLessThan(40);
    expect(first.nextPageToken).not.toBe('');
    expect((await listAll({ nodeUuid, queue: 'big', pageSize: 1000 })).ids).toEqual(ids);
  });

  it('refuses bad input naming the field', async () => {
    const nodeUuid = await newNode(db);
    const token = (key: unknown): string => Buffer.from(JSON.stringify(key)).toString('base64url');
    const list = (over: object) => db.call('ListWorkItems', { nodeUuid, queue: 'q', ...over });
    const cases: [() => Promise<unknown>, string][] = [
      [() => db.getWorkItem('nope'), 'id'],
      [() => db.getWorkItem(randomUUID().toUpperCase()), 'id'],
      [() => db.getWorkItem(''), 'id'],
      [() => list({ nodeUuid: 'nope' }), 'node_uuid'],
      [() => list({ nodeUuid: '' }), 'node_uuid'],
      [() => list({ queue: '' }), 'queue'],
      [() => list({ queue: 'Bad Queue' }), 'queue'],
      [() => list({ state: 99 as never }), 'state'],
      [() => list({ pageSize: 1001 }), 'page_size'],
      [() => list({ pageSize: -1 }), 'page_size'],
      [() => list({ pageToken: '!!!' }), 'page_token'],
      [() => list({ pageToken: token(['QUEUED']) }), 'page_token'],
      [() => list({ pageToken: token(['DONE', '5']) }), 'page_token'],
      [() => list({ pageToken: token(['QUEUED', '5 OR 1']) }), 'page_token'],
    ];
    for (const [call, field] of cases) {
      const err = await call().then(() => undefined, (e: unknown) => e);
      expect(err, field).toBeInstanceOf(InvalidArgument);
      expect((err as InvalidArgument).field, String(err)).toBe(field);
    }
  });
});
