// Queue: typed calls. Work items are never cached. Epochs stay strings (int64).
//
//   await db.enqueue({ id: randomUUID(), nodeUuid, queue: 'jobs', payload: { op: 'x' } });
//   for (const c of await db.dequeue({ nodeUuid, queues: ['urgent', 'jobs'], limit: 10 })) {
//     await db.resolve(c.item.id, c.epoch, 'SUCCEEDED');   // a stale epoch throws Fenced
//   }
//   const item = await db.getWorkItem(id);   // WorkItem | undefined: state, result, attempts, epoch, times
import type { Claim__Output } from '@sfdb/proto/gen/sfdb/v1/Claim';
import type { WorkItem__Output } from '@sfdb/proto/gen/sfdb/v1/WorkItem';
import type { WorkItemState__Output } from '@sfdb/proto/gen/sfdb/v1/WorkItemState';
import { fenceField } from '../fence.js';
import type { FencedCallOptions } from '../fence.js';
import type { CallOptions, Transport } from '../transport.js';
import type { Page } from './nodes.js';

/**
 * A work item; `payload` is the JSON text as enqueued (`null` when none was given),
 * `result` the JSON text its Resolve gave ('' when none), `message` its last Release's,
 * `claimHolder` and `claimExpiresAt` its claim's while CLAIMED ('' otherwise), `notBefore`
 * when it is due. Times are database times.
 */
export type WorkItem = WorkItem__Output;
export type WorkItemState = Exclude<WorkItemState__Output, 'WORK_ITEM_STATE_UNSPECIFIED'>;
/** A claimed item: present `epoch` on every later write of it. */
export type Claim = Claim__Output & { item: WorkItem };
export type ClaimOutcome = 'SUCCEEDED' | 'FAILED';

export interface EnqueueInput {
  /** Chosen by the caller (a uuid): a retry with the same values answers created=false. */
  id: string;
  nodeUuid: string;
  queue: string;
  /** Any JSON-able value (≤ 64 KiB as JSON); undefined is stored as null. */
  payload?: unknown;
  /** Not dequeued before this many ms have passed by database time (0..86 400 000). */
  delayMs?: number;
}

export interface DequeueInput {
  nodeUuid: string;
  /** Queue names in priority order (1..16): earlier queues are drained first. */
  queues: readonly string[];
  /** 1..100 (default 1). */
  limit?: number;
  /** Claim lease, 1000..3 600 000 ms; default the server's (SFDB_DEFAULT_CLAIM_LEASE_MS). */
  leaseMs?: number;
  /** Who claims, for operators (≤ 128 characters). */
  holder?: string;
}

export interface ListWorkItemsInput {
  nodeUuid: string;
  queue: string;
  /** Only items in this state; every state when absent (then grouped by state, each in queue order). */
  state?: WorkItemState;
  /** 1..1000 (default 100); a page of large items can be shorter (its JSON ends past 1 MiB). */
  pageSize?: number;
  /** The previous page's nextPageToken. */
  pageToken?: string;
}

export interface QueueLength {
  /** Queued items, due or delayed. */
  queued: number;
  claimed: number;
}

function jsonText(value: unknown): string {
  return value === undefined ? '' : (JSON.stringify(value) ?? '');
}

export function queueApi(t: Transport) {
  const dequeueWithNextDue = async (input: DequeueInput, opts?: CallOptions): Promise<{ claims: Claim[]; nextDueInMs: number }> => {
    const r = await t.call(
      'Dequeue',
      { nodeUuid: input.nodeUuid, queues: [...input.queues], limit: input.limit ?? 1, leaseMs: input.leaseMs ?? 0, holder: input.holder ?? '' },
      opts,
    );
    return { claims: r.claims as Claim[], nextDueInMs: Number(r.nextDueInMs) };
  };
  return {
    async enqueue(input: EnqueueInput, opts?: FencedCallOptions): Promise<{ item: WorkItem; created: boolean }> {
      const r = await t.call(
        'Enqueue',
        { id: input.id, nodeUuid: input.nodeUuid, queue: input.queue, payload: jsonText(input.payload), delayMs: input.delayMs ?? 0, ...fenceField(opts) },
        opts,
      );
      return { item: r.item as WorkItem, created: r.created };
    },

    /** Claims up to `limit` due items. Not retried: a lost answer would strand its claims until their lease ends. */
    async dequeue(input: DequeueInput, opts?: CallOptions): Promise<Claim[]> {
      return (await dequeueWithNextDue(input, opts)).claims;
    },

    /**
     * dequeue(), and when it claimed fewer than `limit`, how long until the earliest delayed
     * item of the queues is due (`nextDueInMs`; 0 when none, or when the batch was full):
     * sleep until then, not a fixed poll.
     */
    dequeueWithNextDue,

    /** Extends a claim; returns the new lease expiry. Fenced when the epoch is stale. */
    async renewClaim(id: string, epoch: string, leaseMs = 0, opts?: CallOptions): Promise<string> {
      return (await t.call('RenewClaim', { id, epoch, leaseMs }, opts)).leaseExpiresAt;
    },

    /** Finishes a claim with a JSON-able result (≤ 64 KiB). Fenced when the epoch is stale; a repeat is harmless. */
    async resolve(id: string, epoch: string, outcome: ClaimOutcome, result?: unknown, opts?: CallOptions): Promise<void> {
      await t.call('Resolve', { id, epoch, outcome, result: jsonText(result) }, opts);
    },

    /** Gives a claim back to its queue, not due for `delayMs`. Fenced when the epoch is stale. */
    async release(id: string, epoch: string, options: { delayMs?: number; message?: string } = {}, opts?: CallOptions): Promise<void> {
      await t.call('Release', { id, epoch, delayMs: options.delayMs ?? 0, message: options.message ?? '' }, opts);
    },

    async getQueueLength(nodeUuid: string, queue: string, opts?: CallOptions): Promise<QueueLength> {
      const r = await t.call('GetQueueLength', { nodeUuid, queue }, opts);
      return { queued: Number(r.queued), claimed: Number(r.claimed) };
    },

    /** The item as it stands, or undefined when no item has this id. */
    async getWorkItem(id: string, opts?: CallOptions): Promise<WorkItem | undefined> {
      const r = await t.call('GetWorkItem', { id }, opts);
      return r.found && r.item ? r.item : undefined;
    },

    /** One page of a node's queue, history included, in queue order; pass nextPageToken back for the next. */
    async listWorkItems(input: ListWorkItemsInput, opts?: CallOptions): Promise<Page<WorkItem>> {
      const r = await t.call(
        'ListWorkItems',
        { nodeUuid: input.nodeUuid, queue: input.queue, state: input.state ?? 'WORK_ITEM_STATE_UNSPECIFIED', pageSize: input.pageSize ?? 0, pageToken: input.pageToken ?? '' },
        opts,
      );
      return { items: r.items, nextPageToken: r.nextPageToken };
    },

    /** Claims whose lease ran out (database time), oldest first; limit 1..1000 (default 100). */
    async listStuckClaims(limit = 0, opts?: CallOptions): Promise<Claim[]> {
      return (await t.call('ListStuckClaims', { limit }, opts)).claims as Claim[];
    },
  };
}

export type QueueApi = ReturnType<typeof queueApi>;
