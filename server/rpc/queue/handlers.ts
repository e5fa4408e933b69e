// Queue: work items per (node, queue), claimed with an epoch that fences every later
// write of the claim. The rules:
// - Enqueue is idempotent on the client-chosen id: the same id with the same node, queue
//   and payload answers created=false and the item as it stands (delay is not compared);
//   anything else is a Conflict. An empty payload is stored as JSON `null`.
// - Dequeue claims up to `limit` due items (0 means 1), draining queues in the order given.
// - RenewClaim, Resolve and Release write only when the presented epoch is the item's
//   current claim: otherwise FAILED_PRECONDITION (Fenced) and nothing is written; an id
//   that does not exist is NOT_FOUND. A repeated Resolve of the same epoch with the same
//   outcome succeeds without writing (clients retry it on UNAVAILABLE); with the other
//   outcome it is Fenced. A claim past its lease but not yet requeued can still be renewed.
// - Enqueue and Dequeue naming a node that does not exist are NOT_FOUND, nothing written.
// - Leases (Dequeue, RenewClaim) are 1000..3600000 ms; 0 means SFDB_DEFAULT_CLAIM_LEASE_MS.
// - JSON (payload, result) is at most 64 KiB and 31 levels deep (MariaDB's JSON limit).
import type { Claim } from '@sfdb/proto/gen/sfdb/v1/Claim';
import type { WorkItem } from '@sfdb/proto/gen/sfdb/v1/WorkItem';
import { ER_DUP_ENTRY, RerunTransactionError, sqlErrno } from '../../db/retryable.js';
import { ConflictError, FencedError, InvalidArgumentError, NotFoundError } from '../../errors.js';
import { topics } from '@sfdb/proto/topics';
import { isoTime } from '../../time.js';
import * as v from '../../validate.js';
import type { CallContext, Handlers } from '../context.js';
import { holdFence, optionalFence } from '../fence.js';
import { missing } from '../targets.js';
import * as q from './queries.js';

const MAX_PAYLOAD_BYTES = 64 * 1024;
const MAX_DELAY_MS = 86_400_000;
const MIN_LEASE_MS = 1_000;
const MAX_LEASE_MS = 3_600_000;
const MAX_DEQUEUE_LIMIT = 100;
const MAX_DEQUEUE_QUEUES = 16;
const OUTCOMES = ['SUCCEEDED', 'FAILED'] as const;

/** A work item as answered: every column but seq (times ISO; empty for none). */
export function toWorkItem(row: q.WorkItemRow): WorkItem {
  return {
    id: row.id,
    nodeUuid: row.node_uuid,
    queue: row.queue,
    payload: row.payload,
    state: row.state as WorkItem['state'],
    epoch: row.epoch,
    attempts: row.attempts,
    createdAt: isoTime(row.created_at),
    updatedAt: isoTime(row.updated_at),
    result: row.result ?? '',
    message: row.message,
    claimHolder: row.claim_holder,
    claimExpiresAt: isoTime(row.claim_expires_at),
    notBefore: isoTime(row.not_before),
  };
}

function toClaim(row: q.WorkItemRow): Claim {
  return { item: toWorkItem(row), epoch: row.epoch, holder: row.claim_holder, leaseExpiresAt: isoTime(row.claim_expires_at) };
}

/** A claim lease: 0 means the server's default, else 1 s .. 1 h. */
function leaseMs(field: string, value: string, ctx: CallContext): number {
  const ms = v.int64(field, value, 0, MAX_LEASE_MS);
  if (ms === 0) return ctx.config.defaultClaimLeaseMs;
  if (ms < MIN_LEASE_MS) throw new InvalidArgumentError(field, `must be 0 (the default) or ${MIN_LEASE_MS}..${MAX_LEASE_MS}`);
  return ms;
}

/** Why a fenced write wrote nothing, from the item as it stands: unknown id (NotFound) or the claim moved on. */
function refusal(row: q.WorkItemRow | undefined, id: string, epoch: string): Error {
  if (!row) return new NotFoundError('id', `work item ${id} does not exist`);
  if (row.epoch !== epoch) return new FencedError(`work item ${id} is at epoch ${row.epoch}, not ${epoch}`);
  return new FencedError(`work item ${id} is ${row.state}, not claimed at epoch ${epoch}`);
}

/** Why a fenced write wrote nothing: the id is unknown (NotFound) or the claim moved on. */
async function fencedOrNotFound(ctx: CallContext, id: string, epoch: string): Promise<never> {
  throw refusal(await q.selectWorkItem(ctx.sql, id), id, epoch);
}

type QueueMethods = 'Enqueue' | 'Dequeue' | 'RenewClaim' | 'Resolve' | 'Release' | 'GetQueueLength' | 'ListStuckClaims';

export const queueHandlers: Handlers<QueueMethods> = {
  async Enqueue(req, { sql, write }) {
    const a = {
      id: v.uuid('id', req.id),
      nodeUuid: v.uuid('node_uuid', req.nodeUuid),
      queue: v.name('queue', req.queue),
      payload: v.json('payload', req.payload, { maxBytes: MAX_PAYLOAD_BYTES, dflt: 'null' }),
      delayMs: v.int64('delay_ms', req.delayMs, 0, MAX_DELAY_MS),
    };
    const fence = optionalFence(req.fence);
    try {
      // A new item wakes the node's daemon waiting on this queue's topic.
      const row = await write(async (tx, publish) => {
        await holdFence(tx, fence);
        const r = await q.insertWorkItem(tx, a);
        if (!r) throw missing({ field: 'node_uuid', type: 'node', uuid: a.nodeUuid });
        publish({ topic: topics.queue(a.nodeUuid, a.queue), objectType: 'work_item', objectId: a.id, kind: 'created' });
        return r;
      });
      return { item: toWorkItem(row), created: true };
    } catch (err) {
      if (sqlErrno(err) !== ER_DUP_ENTRY) throw err;
    }
    const existing = await q.selectWorkItem(sql, a.id);
    if (existing && existing.node_uuid === a.nodeUuid && existing.queue === a.queue && existing.payload === a.payload) {
      return { item: toWorkItem(existing), created: false };
    }
    throw new ConflictError(`work item ${a.id} exists with another node, queue or payload`);
  },

  async Dequeue(req, ctx) {
    const nodeUuid = v.uuid('node_uuid', req.nodeUuid);
    v.count('queues', req.queues, { min: 1, max: MAX_DEQUEUE_QUEUES });
    const queues = req.queues.map((name) => v.name('queues', name));
    v.distinct('queues', queues);
    const limit = v.pageSize('limit', req.limit, { max: MAX_DEQUEUE_LIMIT, dflt: 1 });
    const lease = leaseMs('lease_ms', req.leaseMs, ctx);
    const holder = v.holder('holder', req.holder);

    const { rows, nextDueInUs } = await ctx.sql.transaction(async (tx) => {
      const seqs: string[] = [];
      // With fewer than `limit` claimed every queue was scanned: the soonest delayed item of them all.
      let soonest: number | undefined;
      for (const queue of queues) {
        if (seqs.length >= limit) break;
        const due = await q.lockDueItems(tx, nodeUuid, queue, limit - seqs.length);
        // Rolled back: nothing claimed for a node that does not exist.
        if (!due.nodeKnown) throw missing({ field: 'node_uuid', type: 'node', uuid: nodeUuid });
        seqs.push(...due.seqs);
        if (due.dueInUs !== undefined && (soonest === undefined || due.dueInUs < soonest)) soonest = due.dueInUs;
      }
      if (seqs.length === 0) return { rows: [], nextDueInUs: soonest };
      const partial = seqs.length < limit;
      // Every locked item is claimed by this statement, or none is handed out: on Galera a
      // row locked here can still be claimed through another node (its writeset aborts this
      // transaction, which must not go on to read that claim back as its own).
      const claimedRows = await q.claimItems(tx, seqs, { holder, leaseMs: lease });
      if (claimedRows !== seqs.length) throw new RerunTransactionError(`dequeue: ${seqs.length - claimedRows} locked item(s) claimed elsewhere`);
      const claimed = new Map((await q.selectItemsBySeq(tx, seqs)).map((r) => [r.seq, r]));
      // Priority order: queue by queue as asked, FIFO within a queue.
      return { rows: seqs.map((s) => claimed.get(s)).filter((r): r is q.WorkItemRow => r !== undefined), nextDueInUs: partial ? soonest : undefined };
    });
    // Rounded up, at least 1: 0 means no delayed item (or a full batch: more may be due now).
    const nextDueInMs = nextDueInUs !== undefined ? String(Math.max(1, Math.ceil(nextDueInUs / 1000))) : '0';
    return { claims: rows.map(toClaim), nextDueInMs };
  },

  async RenewClaim(req, ctx) {
    const id = v.uuid('id', req.id);
    const epoch = v.int64String('epoch', req.epoch, { min: 1n });
    const lease = leaseMs('lease_ms', req.leaseMs, ctx);
    const expiresAt = await ctx.sql.transaction(async (tx) => {
      if ((await q.renewClaim(tx, { id, epoch, leaseMs: lease })) === 0) return undefined;
      return (await q.selectWorkItem(tx, id))?.claim_expires_at ?? undefined;
    });
    if (expiresAt === undefined) return fencedOrNotFound(ctx, id, epoch);
    return { leaseExpiresAt: isoTime(expiresAt) };
  },

  async Resolve(req, ctx) {
    const id = v.uuid('id', req.id);
    const epoch = v.int64String('epoch', req.epoch, { min: 1n });
    const outcome = v.requiredEnum('outcome', req.outcome, OUTCOMES);
    const result = req.result === '' ? null : v.json('result', req.result, { maxBytes: MAX_PAYLOAD_BYTES });
    if ((await q.resolveItem(ctx.sql, { id, epoch, outcome, result })) > 0) return {};
    // A repeat of a Resolve that already went through: same claim, same outcome. A
    // resolved item never changes again, so this read is not racy.
    const row = await q.selectWorkItem(ctx.sql, id);
    if (row && row.epoch === epoch && row.state === outcome) return {};
    return fencedOrNotFound(ctx, id, epoch);
  },

  async Release(req, ctx) {
    const id = v.uuid('id', req.id);
    const epoch = v.int64String('epoch', req.epoch, { min: 1n });
    const delayMs = v.int64('delay_ms', req.delayMs, 0, MAX_DELAY_MS);
    const message = v.text('message', req.message, { max: 1024 });
    // Back in its queue: its node's daemon hears it (due now, or after the delay: the safety poll).
    // The item is locked first for its node and queue; a refusal is decided from that row
    // (rolled back: nothing written, nothing published).
    return ctx.write(async (tx, publish) => {
      const row = await q.lockWorkItem(tx, id);
      if (!row || row.epoch !== epoch || row.state !== 'CLAIMED') throw refusal(row, id, epoch);
      if ((await q.releaseItem(tx, { id, epoch, delayMs, message })) === 0) throw new RerunTransactionError(`work item ${id} changed under its lock`);
      publish({ topic: topics.queue(row.node_uuid, row.queue), objectType: 'work_item', objectId: id, kind: 'state' });
      return {};
    });
  },

  async GetQueueLength(req, { sql }) {
    const rows = await q.countActive(sql, v.uuid('node_uuid', req.nodeUuid), v.name('queue', req.queue));
    const n = (state: string): string => rows.find((r) => r.state === state)?.n ?? '0';
    return { queued: n('QUEUED'), claimed: n('CLAIMED') };
  },

  async ListStuckClaims(req, { sql }) {
    const limit = v.pageSize('limit', req.limit);
    return { claims: (await q.selectStuckClaims(sql, limit)).map(toClaim) };
  },
};
