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
// Rules: at most one waiter at a time; attaching again is a no-op. When the waiter
// closes, the cache detaches and may attach to another later. Entries held while no feed
// covered them are dropped when a feed is attached (at attach, or once a waiter that was
// still starting has taken its first cursor). While the waiter is in fallback the cache
// keeps its TTLs as they are: the feed only ever shortens an entry's life.
import { topics } from '@sfdb/proto/topics';
import type { ChangeBatch, ChangeWaiter, Subscription } from './changes.js';

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
  clear(): void;
  readonly size: number;
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

  constructor(
    private readonly target: FeedTarget<T>,
    types: readonly T[],
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

  /** True when the next insert should try the sources (cheap: the cache asks on every insert). */
  get wantsInsert(): boolean {
    return this.attached === undefined && this.sources.size > 0;
  }

  attach(waiter: ChangeWaiter): void {
    if (this.attached !== undefined || waiter.closed) return;
    if (this.target.size > 0) this.target.clear(); // held while nothing covered them
    const sub = waiter.subscribe(this.topics, (batch) => this.heard(batch), { held: () => this.target.heldIds() });
    const offClose = waiter.onClose(() => this.detach());
    this.attached = { waiter, sub, offClose };
    if (waiter.mode === 'starting') {
      // Its first cursor is "now": a write between our loads and that moment was not heard.
      void waiter.ready().then((mode) => {
        if (mode === 'feed' && this.attached?.waiter === waiter) this.target.clear();
      });
    }
  }

  detach(): void {
    const attached = this.attached;
    if (!attached) return;
    this.attached = undefined;
    attached.offClose();
    attached.sub.close();
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

  /** Called by the cache before it stores an entry while unattached: attaches to the first live source. */
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
    if (batch.resync) this.target.clear();
    for (const c of batch.changes) {
      if (c.kind !== 'updated' && c.kind !== 'deleted') continue;
      const type = this.byTopic.get(c.topic);
      if (type !== undefined) this.target.invalidate(type, c.id, { seq: c.seq, kind: c.kind });
    }
  }
}
