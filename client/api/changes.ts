// Change feed: typed calls. Changes carry ids and kinds only, never payloads: the caller
// re-reads what changed through its normal, scoped read. Topics come from
// proto/topics.ts; a cursor is opaque text, passed back as last answered. Most callers
// use the client's ChangeWaiter (db.changes, ../changes.ts), which holds one long-poll
// for the whole process; these are the calls underneath it and for jobs that page.
//
//   const { cursor } = await db.waitForChanges({ topics, cursor: '' });   // at once: where "now" is
//   const r = await db.waitForChanges({ topics, cursor, timeoutMs: 30_000 });
import type { Change__Output } from '@sfdb/proto/gen/sfdb/v1/Change';
import type { InterestFilter } from '@sfdb/proto/interest';
import { CHANGE_KIND_ENUM, MAX_WAIT_MS } from '@sfdb/proto/topics';
import type { ChangeKindName } from '@sfdb/proto/topics';
import type { CallOptions, Transport } from '../transport.js';
import type { LeaseFence } from '../fence.js';

/** One change: (topic, id) moved; `kind` says how. `seq` is a decimal string (int64). */
export interface FeedChange {
  seq: string;
  topic: string;
  /** An object type's column name ('instance', 'node', ...) or 'daemon_state', 'work_item', ... */
  objectType: string;
  id: string;
  kind: ChangeKindName;
}

export interface WaitForChangesInput {
  /** 1..64 topics. */
  topics: readonly string[];
  /** From the previous answer; '' answers at once with the current cursor and no changes. */
  cursor: string;
  /** How long the tier holds when nothing changed: 0..30000 ms (0 or absent: 30000). */
  timeoutMs?: number;
  /**
   * What the caller holds (proto/interest.ts): a change on `topics` of the interest wakes
   * the poll only when `filter` may have its id. The answer still carries every change.
   */
  interest?: { topics: readonly string[]; filter: InterestFilter };
  /**
   * Topics (each one of `topics`) on which a report — kind 'reported', a daemon's record of
   * its own state — does not wake the poll: the daemon waiting there knows what it
   * reported. The answer still carries every change.
   */
  quietReports?: readonly string[];
}

export interface WaitForChangesAnswer {
  /** Coalesced per (topic, id): the latest change of each. */
  changes: FeedChange[];
  /** Pass it back next time. */
  cursor: string;
  /** The cursor was older than the tier's window: re-read everything the topics cover. */
  resync: boolean;
}

export interface GetChangesSinceInput {
  cursor: string;
  /** 1..64 topics. */
  topics: readonly string[];
  /** 1..1000 changes (0 or absent: 100). */
  limit?: number;
}

export interface ChangesPage extends WaitForChangesAnswer {
  /** More changes are past `cursor`: ask again. */
  more: boolean;
}

/** The long-poll's deadline beyond its timeout: the tier answers at the timeout, not after. */
export const LONG_POLL_DEADLINE_SLACK_MS = 10_000;

const KIND_BY_ENUM: Record<string, ChangeKindName> = Object.fromEntries(
  Object.entries(CHANGE_KIND_ENUM).map(([name, value]) => [value, name as ChangeKindName]),
);

/**
 * The proto change as a plain object. A kind this client does not know (a newer tier's,
 * or unspecified) is read as 'updated': "something changed, re-read it" is always safe.
 */
export function toFeedChange(c: Change__Output): FeedChange {
  return { seq: c.seq, topic: c.topic, objectType: c.objectType, id: c.id, kind: KIND_BY_ENUM[String(c.kind)] ?? 'updated' };
}

/** The calls a ChangeWaiter makes (a DatabaseClient has them). */
export interface FeedCalls {
  waitForChanges(input: WaitForChangesInput, opts?: CallOptions): Promise<WaitForChangesAnswer>;
}

export function changesApi(t: Transport) {
  return {
    /**
     * Answers at once when a change on `topics` is past `cursor`, else holds until one
     * arrives or `timeoutMs` passes (no changes). The call's deadline is the timeout plus
     * 10 s unless `opts.deadlineMs` is given; `opts.signal` cancels it.
     */
    async waitForChanges(input: WaitForChangesInput, opts?: CallOptions): Promise<WaitForChangesAnswer> {
      const timeoutMs = input.timeoutMs ?? 0;
      const deadlineMs = opts?.deadlineMs ?? (timeoutMs > 0 ? timeoutMs : MAX_WAIT_MS) + LONG_POLL_DEADLINE_SLACK_MS;
      const interest = input.interest && { topics: [...input.interest.topics], bloom: input.interest.filter.bits, hashes: input.interest.filter.hashes };
      const quietReports = input.quietReports === undefined ? [] : [...input.quietReports];
      const r = await t.call('WaitForChanges', { topics: [...input.topics], cursor: input.cursor, timeoutMs, interest, quietReports }, { ...opts, deadlineMs });
      return { changes: r.changes.map(toFeedChange), cursor: r.cursor, resync: r.resync };
    },

    /**
     * The replicas the called replica saw stop answering (their registered `host:port`),
     * once its set's version is not `known` ("" at first), else after `timeoutMs`
     * (1..600000; 0: 300000). ReplicaWatch holds one; a daemon has no need to call it.
     */
    async watchReplicas(known: string, timeoutMs: number, opts?: CallOptions): Promise<{ version: string; unresponsive: string[] }> {
      const r = await t.call('WatchReplicas', { known, timeoutMs }, opts);
      return { version: r.version, unresponsive: r.unresponsive };
    },

    /** The changes past `cursor` without waiting, a page at a time: ask again while `more`. */
    async getChangesSince(input: GetChangesSinceInput, opts?: CallOptions): Promise<ChangesPage> {
      const r = await t.call('GetChangesSince', { cursor: input.cursor, topics: [...input.topics], limit: input.limit ?? 0 }, opts);
      return { changes: r.changes.map(toFeedChange), cursor: r.cursor, resync: r.resync, more: r.more };
    },

    /**
     * Deletes change rows older than the tier's retention, oldest first, at most `limit`
     * (1..100000; 0 or absent: 10000), and folds retired counters past theirs into the
     * counter floor (`retiredFolded`). Fenced by the caller's lease. Call again while `more`.
     */
    async pruneChanges(fence: LeaseFence, limit = 0, opts?: CallOptions): Promise<{ deleted: number; more: boolean; retiredFolded: number }> {
      const r = await t.call('PruneChanges', { fence, limit }, opts);
      return { deleted: Number(r.deleted), more: r.more, retiredFolded: Number(r.retiredFolded) };
    },
  };
}

export type ChangesApi = ReturnType<typeof changesApi>;
