import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { Conflict, InvalidArgument, NotFound } from '../../client/index.js';
import type { CreateBlobTransferInput } from '../../client/index.js';
import { selectTransfersForNode } from '../../server/rpc/transfers/queries.js';
import { newNode, newObject } from '../helpers/targets.js';
import { useTestTier } from '../helpers/tier.js';
import { explainStatement } from '../helpers/explain.js';

const { t, db } = useTestTier();

const explain = (run: Parameters<typeof explainStatement>[1]) => explainStatement(t.direct, run);

/** The blob and the source node every transfer here names (they must exist). */
let blob = '';
let source = '';
beforeAll(async () => {
  blob = await newObject(db, 'Blob');
  source = await newNode(db);
});

function input(nodeUuid: string, patch: Partial<CreateBlobTransferInput> = {}): CreateBlobTransferInput {
  return { id: randomUUID(), blobUuid: blob, nodeUuid, sourceNodeUuid: source, bytesTotal: 1000, ...patch };
}

describe('blob transfers', () => {
  it('creates idempotently and refuses the same id with other values', async () => {
    const node = await newNode(db);
    const req = input(node);
    const { transfer, created } = await db.createBlobTransfer(req);
    expect(created).toBe(true);
    expect(transfer).toMatchObject({
      id: req.id, blobUuid: req.blobUuid, nodeUuid: node, sourceNodeUuid: req.sourceNodeUuid,
      state: 'TRANSFER_QUEUED', bytesDone: '0', bytesTotal: '1000', message: '',
    });
    expect(transfer.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(await db.createBlobTransfer(req)).toEqual({ transfer, created: false });
    await expect(db.createBlobTransfer({ ...req, bytesTotal: 1001 })).rejects.toBeInstanceOf(Conflict);
    await expect(db.createBlobTransfer({ ...req, sourceNodeUuid: undefined })).rejects.toBeInstanceOf(Conflict);
    await expect(db.createBlobTransfer({ ...req, nodeUuid: await newNode(db) })).rejects.toBeInstanceOf(Conflict);
    expect(await t.count('blob_transfers', 'id = ?', [req.id])).toBe(1);

    // An external source (no source node), size unknown.
    const ext = await db.createBlobTransfer(input(node, { sourceNodeUuid: undefined, bytesTotal: undefined }));
    expect(ext.transfer).toMatchObject({ sourceNodeUuid: '', bytesTotal: '0' });
  });

  it('moves through its states; a finished transfer stays finished', async () => {
    const node = await newNode(db);
    const { transfer } = await db.createBlobTransfer(input(node));
    const running = await db.updateBlobTransfer(transfer.id, { state: 'TRANSFER_RUNNING', bytesDone: 400, message: 'copying' });
    expect(running).toMatchObject({ state: 'TRANSFER_RUNNING', bytesDone: '400', message: 'copying', createdAt: transfer.createdAt });

    // Progress past the known total is bad input, and changes nothing.
    const err = await db.updateBlobTransfer(transfer.id, { state: 'TRANSFER_RUNNING', bytesDone: 1001 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidArgument);
    expect((err as InvalidArgument).field).toBe('bytes_done');
    expect((await db.getBlobTransfersForNode(node))[0]).toMatchObject({ bytesDone: '400', message: 'copying' });

    const done = await db.updateBlobTransfer(transfer.id, { state: 'TRANSFER_COMPLETE', bytesDone: 1000 });
    expect(done).toMatchObject({ state: 'TRANSFER_COMPLETE', bytesDone: '1000', message: '' });
    // Repeating the finishing update is harmless; anything else is a Conflict.
    expect(await db.updateBlobTransfer(transfer.id, { state: 'TRANSFER_COMPLETE', bytesDone: 1000 })).toEqual(done);
    await expect(db.updateBlobTransfer(transfer.id, { state: 'TRANSFER_RUNNING', bytesDone: 10 })).rejects.toBeInstanceOf(Conflict);
    await expect(db.updateBlobTransfer(transfer.id, { state: 'TRANSFER_FAILED', bytesDone: 1000 })).rejects.toBeInstanceOf(Conflict);
    await expect(db.updateBlobTransfer(transfer.id, { state: 'TRANSFER_COMPLETE', bytesDone: 1000, message: 'again' })).rejects.toBeInstanceOf(Conflict);

    const failed = await db.createBlobTransfer(input(node, { bytesTotal: 0 }));
    // With no known total, any progress is accepted.
    await db.updateBlobTransfer(failed.transfer.id, { state: 'TRANSFER_RUNNING', bytesDone: '123456789012' });
    await db.updateBlobTransfer(failed.transfer.id, { state: 'TRANSFER_FAILED', message: 'source gone' });
    await expect(db.updateBlobTransfer(failed.transfer.id, { state: 'TRANSFER_QUEUED' })).rejects.toBeInstanceOf(Conflict);

    await expect(db.updateBlobTransfer(randomUUID(), { state: 'TRANSFER_RUNNING' })).rejects.toBeInstanceOf(NotFound);
  });

  it('answers a node its active transfers by default, others on request', async () => {
    const node = await newNode(db);
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push((await db.createBlobTransfer(input(node))).transfer.id);
    await db.createBlobTransfer(input(await newNode(db)));
    const [q0, q1, r2, r3, c4, f5] = ids as [string, string, string, string, string, string];
    await db.updateBlobTransfer(r2, { state: 'TRANSFER_RUNNING' });
    await db.updateBlobTransfer(r3, { state: 'TRANSFER_RUNNING' });
    await db.updateBlobTransfer(c4, { state: 'TRANSFER_COMPLETE', bytesDone: 1000 });
    await db.updateBlobTransfer(f5, { state: 'TRANSFER_FAILED' });

    const active = await db.getBlobTransfersForNode(node);
    // Grouped by state, oldest first within a state.
    expect(active.map((x) => [x.id, x.state])).toEqual([
      [q0, 'TRANSFER_QUEUED'],
      [q1, 'TRANSFER_QUEUED'],
      [r2, 'TRANSFER_RUNNING'],
      [r3, 'TRANSFER_RUNNING'],
    ]);
    expect(await db.getBlobTransfersForNode(node, { limit: 3 })).toEqual(active.slice(0, 3));
    expect((await db.getBlobTransfersForNode(node, { states: ['TRANSFER_RUNNING'] })).map((x) => x.id)).toEqual([r2, r3]);
    expect((await db.getBlobTransfersForNode(node, { states: ['TRANSFER_FAILED', 'TRANSFER_COMPLETE', 'TRANSFER_FAILED'] })).map((x) => x.id))
      .toEqual([c4, f5]);
    expect(await db.getBlobTransfersForNode(node, { states: ['TRANSFER_QUEUED', 'TRANSFER_RUNNING', 'TRANSFER_COMPLETE', 'TRANSFER_FAILED'] }))
      .toHaveLength(6);
    expect(await db.getBlobTransfersForNode(randomUUID())).toEqual([]);
  });

  it('reads a node\'s transfers from blob_transfers_node without a sort', async () => {
    // Other nodes' transfers, so that one node's rows are a small part of the table.
    await t.direct.query(
      `INSERT INTO blob_transfers (id, blob_uuid, node_uuid, state, created_at, updated_at)
       SELECT UUID(), UUID(), UUID(), 'TRANSFER_COMPLETE', UTC_TIMESTAMP(6), UTC_TIMESTAMP(6) FROM seq_1_to_3000`,
    );
    await t.direct.query('ANALYZE TABLE blob_transfers');
    const node = randomUUID();
    for (const states of [
      ['TRANSFER_QUEUED', 'TRANSFER_RUNNING'],
      ['TRANSFER_COMPLETE'],
      ['TRANSFER_QUEUED', 'TRANSFER_RUNNING', 'TRANSFER_COMPLETE'],
      ['TRANSFER_QUEUED', 'TRANSFER_RUNNING', 'TRANSFER_COMPLETE', 'TRANSFER_FAILED'],
    ]) {
      const plan = await explain((sql) => selectTransfersForNode(sql, node, states, 100));
      expect(plan.map((r) => r.key)).toEqual(['blob_transfers_node']);
      expect(plan[0]?.Extra ?? '').not.toMatch(/filesort/);
    }
  });

  it('refuses bad input naming the field and writes nothing', async () => {
    const node = await newNode(db);
    const { transfer } = await db.createBlobTransfer(input(node));
    const cases: [() => Promise<unknown>, string][] = [
      [() => db.createBlobTransfer(input(node, { id: 'nope' })), 'id'],
      [() => db.createBlobTransfer(input(node, { blobUuid: '' })), 'blob_uuid'],
      [() => db.createBlobTransfer(input('x')), 'node_uuid'],
      [() => db.createBlobTransfer(input(node, { sourceNodeUuid: 'not-a-node' })), 'source_node_uuid'],
      [() => db.createBlobTransfer(input(node, { bytesTotal: -1 })), 'bytes_total'],
      [() => db.getBlobTransfersForNode('x'), 'node_uuid'],
      [() => db.getBlobTransfersForNode(node, { states: [99 as never] }), 'states'],
      [() => db.getBlobTransfersForNode(node, { states: ['TRANSFER_STATE_UNSPECIFIED' as never] }), 'states'],
      [() => db.getBlobTransfersForNode(node, { limit: 1001 }), 'limit'],
      [() => db.getBlobTransfersForNode(node, { limit: -1 }), 'limit'],
      [() => db.updateBlobTransfer('x', { state: 'TRANSFER_RUNNING' }), 'id'],
      [() => db.updateBlobTransfer(transfer.id, { state: 99 as never }), 'state'],
      [() => db.call('UpdateBlobTransfer', { id: transfer.id }), 'state'],
      [() => db.updateBlobTransfer(transfer.id, { state: 'TRANSFER_RUNNING', bytesDone: -5 }), 'bytes_done'],
      [() => db.updateBlobTransfer(transfer.id, { state: 'TRANSFER_RUNNING', message: 'm'.repeat(1025) }), 'message'],
    ];
    const before = await t.count('blob_transfers');
    for (const [call, field] of cases) {
      const err = await call().then(() => undefined, (e: unknown) => e);
      expect(err, field).toBeInstanceOf(InvalidArgument);
      expect((err as InvalidArgument).field, field).toBe(field);
    }
    expect(await t.count('blob_transfers')).toBe(before);
    expect((await db.getBlobTransfersForNode(node))[0]).toEqual(transfer);
  });
});
