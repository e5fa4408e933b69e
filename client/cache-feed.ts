// How the static-object cache hears other processes' writes: one push subscription of a
// ChangeWaiter to `static/<type>` for every cached type. An update or delete of an
// object invalidates its entry (each change with its seq and kind: the cache keeps a copy
// read after this process's own update when the change is that update's, see
// changeMayBeNewer below); a resync clears the cache. The subscription says what the
// cache holds (its ids, as an interest summary with the long-poll), so an update of an
// object this process does not hold does not wake it; every insert tells the waiter, which
// re-issues its poll when the summary in flight lacks the id. Creates are ignored (a miss is
// never cached, so there is nothing to drop), and so are state moves (never cached).
//
// Which entries the feed covers (issue 38). The feed delivers the changes past its cursor;
// a waiter's first cursor is "now" when its handshake is answered. A copy whose load was
// issued after that answer read every change up to the cursor (reads are causal), and any
// later change is past the cursor, so it will be delivered and evict: the copy is covered.
// A copy loaded earlier may have missed a change at or before the cursor that will never
// be delivered: it must go. So every load is stamped with a fill generation when it is
// issued (the cache's flight and then its entry carry it), and each event that starts a
// coverage anew bumps the generation and drops only what was stamped before it:
//   attach      every entry held and load in flight (nothing covered them; when the
//               waiter is already on the feed, its poll is re-issued with our topics from
//               its cursor, and loads issued from now on are covered);
//   feed_start  the waiter that was still starting took its first cursor: the loads
//               issued before that;
//   resync      the feed missed changes (a resync, or back from a fallback): everything.
// Each such drop that dropped something counts once in database_client_cache_clears_total.
// Before this, the answer to the first cursor cleared the whole cache, so the copies loaded
// after it (a daemon's second read of its node, 0.5 s in) went too, uncounted.
//
// So that a process's first reads are covered at all, the cache attaches at its first
// load (not its first insert) and that load, and any other issued while the waiter has no
// cursor yet, waits for it at most COVER_WAIT_MS (the handshake is answered at once: one
// round trip, once per process). Past that it loads anyway, and its copy goes at
// feed_start: a cost (one more miss), never a risk.
//
// Rules: at most one waiter at a time; attaching again is a no-op. When the waiter
// closes, the cache detaches and may attach to another later. While the waiter is in
// fallback the cache keeps its TTLs as they are: the feed only ever shortens an entry's life.
import { topics } from '@sfdb/proto/topics';
import type { Clock } from '@sfdb/proto/runtime/clock';
import type { ChangeBatch, ChangeWaiter, Subscription } from './changes.js';
import type { ClearReason } from './metrics.js';

/** How long a load waits for a starting waiter's first cursor before it goes ahead uncovered. */
export const COVER_WAIT_MS = 1000;

/** A change the feed delivered for a cached key: its seq (decimal) and kind. */
export interface HeardChange {
  seq: string;
  kind: 'updated' | 'deleted';
}

/**
 * Whether a change the feed delivers may be newer than a copy, which must then go. Only
 * one case is proven not to be: the change is the one this process's own update of the
 * object published (`readAfter`, the seq the update answered with) and the copy was read
 * after that update answered. Reads are causal (a read issued after a write answered sees
 * it, on Galera too: wsrep_sync_wait), so the copy is that update or later. And the feed
 * delivers per (topic, id) the latest change past the cursor: changes of one object take
 * their seqs under its row lock, so a change after the copy's read would have a larger seq
 * and be delivered instead of (or after) this one, and evict then. Anything else may be
 * newer and evicts: a delete (a re-created object starts its versions over), another
 * process's update, another update of this process, an unknown seq ('0', a tier that does
 * not say), a copy with no own update before it.
 */
export function changeMayBeNewer(change: HeardChange, readAfter: string | undefined): boolean {
  return !(change.kind === 'updated' && readAfter !== undefined && readAfter !== '0' && change.seq === readAfter);
}

/** What the attachment needs of the cache. */
export interface FeedTarget<T extends string> {
  invalidate(type: T, uuid: string, change: HeardChange): boolean;
  /** Drops every entry and issued load stamped before fill generation `generation`; counts a clear for `reason` when it dropped any. */
  dropFilledBefore(generation: number, reason: ClearReason): void;
  /** The uuids held or being loaded (for the interest summary). */
  heldIds(): Iterable<string>;
}

/** Where a cache may find a waiter to attach to (a client's `db.changes`), or none. */
export type WaiterSource = () => ChangeWaiter | undefined;

export class CacheFeed<T extends string> {
  /** `static/<type>` → the cached type. */
  private readonly byTopic: ReadonlyMap<string, T>;
  private attached: { waiter: ChangeWaiter; sub: Subscription; offClose: () => void } | undefined;
  private readonly sources = new Set<WaiterSource>();
  /** The fill generation: loads issued now are stamped with it (see the header). */
  private fill = 0;
  /** While the attached waiter has no cursor yet: resolves once it has (or gave up, or closed). */
  private firstCursor: Promise<void> | undefined;

  constructor(
    private readonly target: FeedTarget<T>,
    types: readonly T[],
    private readonly clock: Clock,
  ) {
    this.byTopic = new Map(types.map((type) => [topics.staticValues(type), type]));
  }

  /** The topics it subscribes to. */
  get topics(): string[] {
    return [...this.byTopic.keys()];
  }

  /** The waiter attached to, if any. */
  get waiter(): ChangeWaiter | undefined {
    return this.attached?.waiter;
  }

  /** The fill generation a load issued now is stamped with. */
  get generation(): number {
    return this.fill;
  }

  /** True when the next load or insert should try the sources (cheap: the cache asks on every miss). */
  get wantsSource(): boolean {
    return this.attached === undefined && this.sources.size > 0;
  }

  attach(waiter: ChangeWaiter): void {
    if (this.attached !== undefined || waiter.closed) return;
    this.target.dropFilledBefore(++this.fill, 'attach');
    const sub = waiter.subscribe(this.topics, (batch) => this.heard(batch), { held: () => this.target.heldIds() });
    const offClose = waiter.onClose(() => this.detach());
    this.attached = { waiter, sub, offClose };
    if (waiter.mode === 'starting') {
      // Its first cursor is "now" when answered: a load issued before may have missed a
      // write up to then, which the feed will never deliver.
      const first = waiter.ready().then((mode) => {
        if (this.attached?.waiter !== waiter) return;
        if (mode === 'feed') this.target.dropFilledBefore(++this.fill, 'feed_start');
        if (this.firstCursor === first) this.firstCursor = undefined;
      });
      this.firstCursor = first;
    }
  }

  detach(): void {
    const attached = this.attached;
    if (!attached) return;
    this.attached = undefined;
    this.firstCursor = undefined;
    attached.offClose();
    attached.sub.close();
  }

  /**
   * Before the cache issues a load: attaches to the first live source when unattached and,
   * while the waiter has no cursor yet, waits for it (at most COVER_WAIT_MS), so that the
   * load is stamped after it and its copy is covered. Undefined when there is nothing to
   * wait for (the load is then issued in the same turn).
   */
  beforeLoad(): Promise<void> | undefined {
    if (this.wantsSource) this.onInsert();
    const first = this.firstCursor;
    if (first === undefined) return undefined;
    const waited = new AbortController();
    return Promise.race([first, this.clock.sleep(COVER_WAIT_MS, waited.signal)]).then(() => waited.abort());
  }

  /** The cache stored `uuid`: a change of it must wake this process from now on. */
  held(uuid: string): void {
    this.attached?.sub.hold(uuid);
  }

  addSource(source: WaiterSource): () => void {
    this.sources.add(source);
    return () => {
      this.sources.delete(source);
    };
  }

  /** Called by the cache before it loads or stores an entry while unattached: attaches to the first live source. */
  onInsert(): void {
    for (const source of [...this.sources]) {
      try {
        const waiter = source();
        if (waiter === undefined || waiter.closed) continue;
        this.attach(waiter);
        if (this.attached) return;
      } catch {
        // Its waiter refused the topics (no room left): this source is not asked again,
        // and the cache keeps to its TTLs.
        this.sources.delete(source);
      }
    }
  }

  private heard(batch: ChangeBatch): void {
    if (batch.resync) this.target.dropFilledBefore(++this.fill, 'resync');
    for (const c of batch.changes) {
      if (c.kind !== 'updated' && c.kind !== 'deleted') continue;
      const type = this.byTopic.get(c.topic);
      if (type !== undefined) this.target.invalidate(type, c.id, { seq: c.seq, kind: c.kind });
    }
  }
}
