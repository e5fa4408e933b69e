// Blob transfers: a blob moving to a node. Created with a client-chosen id (idempotent),
// listed per receiving node, advanced by the node doing the work.
//
// States: QUEUED and RUNNING are active and may move to any state (RUNNING -> QUEUED is
// a retry); COMPLETE and FAILED are terminal. Moving a terminal transfer to any other
// values is a Conflict; repeating the exact update that finished it answers the row
// unchanged, so a retried final update is harmless.
import type { BlobTransfer } from '@sfdb/proto/gen/sfdb/v1/BlobTransfer';
import type { TransferState__Output } from '@sfdb/proto/gen/sfdb/v1/TransferState';
import { RerunTransactionError } from '../../db/retryable.js';
import { ConflictError, InvalidArgumentError, NotFoundError, UnavailableError } from '../../errors.js';
import { topics } from '@sfdb/proto/topics';
import { isoTime } from '../../time.js';
import * as v from '../../validate.js';
import type { Handlers } from '../context.js';
import { holdFence, optionalFence } from '../fence.js';
import { lockTargets } from '../targets.js';
import * as q from './queries.js';

type TransferStateName = Exclude<TransferState__Output, 'TRANSFER_STATE_UNSPECIFIED'>;

export const TRANSFER_STATES: readonly TransferStateName[] = [
  'TRANSFER_QUEUED',
  'TRANSFER_RUNNING',
  'TRANSFER_COMPLETE',
  'TRANSFER_FAILED',
];
const ACTIVE_STATES: readonly TransferStateName[] = ['TRANSFER_QUEUED', 'TRANSFER_RUNNING'];
const TERMINAL_STATES: ReadonlySet<string> = new Set(['TRANSFER_COMPLETE', 'TRANSFER_FAILED']);
const MAX_TRANSFERS = 1000;
const DEFAULT_TRANSFERS = 100;

function toTransfer(row: q.TransferRow): BlobTransfer {
  return {
    id: row.id,
    blobUuid: row.blob_uuid,
    nodeUuid: row.node_uuid,
    sourceNodeUuid: row.source_node_uuid,
    state: row.state as TransferStateName,
    bytesDone: row.bytes_done,
    bytesTotal: row.bytes_total,
    message: row.message,
    createdAt: isoTime(row.created_at),
    updatedAt: isoTime(row.updated_at),
  };
}

/** The distinct states asked for; none means the active ones. */
function stateFilter(values: readonly (string | number)[]): readonly TransferStateName[] {
  if (values.length === 0) return ACTIVE_STATES;
  return [...new Set(values.map((s) => v.requiredEnum('states', s, TRANSFER_STATES)))];
}

export const transferHandlers: Handlers<'CreateBlobTransfer' | 'GetBlobTransfersForNode' | 'UpdateBlobTransfer'> = {
  /**
   * Same id and values: created=false and the current row; same id, other values:
   * Conflict. The blob, the receiving node and a source node must exist (NOT_FOUND naming
   * blob_uuid, node_uuid or source_node_uuid).
   */
  async CreateBlobTransfer(req, { write }) {
    const a = {
      id: v.uuid('id', req.id),
      blobUuid: v.uuid('blob_uuid', req.blobUuid),
      nodeUuid: v.uuid('node_uuid', req.nodeUuid),
      sourceNodeUuid: v.optionalUuid('source_node_uuid', req.sourceNodeUuid),
      bytesTotal: v.int64String('bytes_total', req.bytesTotal, { min: 0n }),
      state: 'TRANSFER_QUEUED',
    };
    const fence = optionalFence(req.fence);
    // Only a new transfer publishes (its node's transfers daemon waits on the topic).
    const created = await write(async (tx, publish) => {
      await holdFence(tx, fence);
      await lockTargets(tx, [
        { field: 'blob_uuid', type: 'blob', uuid: a.blobUuid },
        { field: 'node_uuid', type: 'node', uuid: a.nodeUuid },
        ...(a.sourceNodeUuid === '' ? [] : [{ field: 'source_node_uuid', type: 'node', uuid: a.sourceNodeUuid }]),
      ]);
      const row = await q.insertTransfer(tx, a);
      if (row) publish({ topic: topics.transfers(a.nodeUuid), objectType: 'blob_transfer', objectId: a.id, kind: 'created' });
      // The id is taken: read the transfer that holds it in this transaction, while the
      // insert's duplicate check holds its row (a delete after the commit cannot make it vanish).
      return row ? { row } : { existing: await q.selectTransfer(tx, a.id) };
    });
    if (created.row) return { transfer: toTransfer(created.row), created: true };
    const existing = created.existing;
    // Taken and gone within the transaction (a lock MariaDB did not hold): contention, which
    // the client retries (the call is idempotent by its id), never INTERNAL.
    if (!existing) throw new UnavailableError(`blob transfer ${a.id} was deleted while this call created it: try again`);
    const same =
      existing.blob_uuid === a.blobUuid &&
      existing.node_uuid === a.nodeUuid &&
      existing.source_node_uuid === a.sourceNodeUuid &&
      existing.bytes_total === a.bytesTotal;
    if (!same) throw new ConflictError(`blob transfer ${a.id} exists with other values`);
    return { transfer: toTransfer(existing), created: false };
  },

  async GetBlobTransfersForNode(req, { sql }) {
    const nodeUuid = v.uuid('node_uuid', req.nodeUuid);
    const states = stateFilter(req.states);
    const limit = v.pageSize('limit', req.limit, { max: MAX_TRANSFERS, dflt: DEFAULT_TRANSFERS });
    const rows = await q.selectTransfersForNode(sql, nodeUuid, states, limit);
    return { transfers: rows.map(toTransfer) };
  },

  async UpdateBlobTransfer(req, { write }) {
    const a = {
      id: v.uuid('id', req.id),
      state: v.requiredEnum('state', req.state, TRANSFER_STATES),
      bytesDone: v.int64String('bytes_done', req.bytesDone, { min: 0n }),
      message: v.text('message', req.message, { max: 1024 }),
    };
    const fence = optionalFence(req.fence);
    return write(async (tx, publish) => {
      await holdFence(tx, fence);
      const current = await q.selectTransferForUpdate(tx, a.id);
      if (!current) throw new NotFoundError('id', `blob transfer ${a.id} does not exist`);
      if (current.bytes_total !== '0' && BigInt(a.bytesDone) > BigInt(current.bytes_total)) {
        throw new InvalidArgumentError('bytes_done', `more than the transfer's bytes_total ${current.bytes_total}`);
      }
      if (TERMINAL_STATES.has(current.state)) {
        const repeat = current.state === a.state && current.bytes_done === a.bytesDone && current.message === a.message;
        if (repeat) return { transfer: toTransfer(current) };
        throw new ConflictError(`blob transfer ${a.id} is ${current.state}; a finished transfer does not change`, 'version');
      }
      await q.updateTransfer(tx, a);
      publish({ topic: topics.transfers(current.node_uuid), objectType: 'blob_transfer', objectId: a.id, kind: current.state === a.state ? 'updated' : 'state' });
      const row = await q.selectTransfer(tx, a.id);
      if (!row) throw new RerunTransactionError(`blob transfer ${a.id} vanished inside its transaction`);
      return { transfer: toTransfer(row) };
    });
  },
};
