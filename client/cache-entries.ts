// The static-object cache's entries (./cache.ts): what it holds and how each entry leaves.
// One lru-cache keeps them: it keeps the LRU order (a hit moves its entry to the recent
// end), the capacity (it evicts the least recently used), each entry's TTL (a read of an
// expired entry drops it), and reports every removal to `disposed`, which keeps the
// per-tier counts (the occupancy gauge) and the eviction counts exact.
//
// One thing lru-cache does not do cheaply: find the expired entries, which must go before
// a live one is evicted for room. Its purgeStale walks every entry: 0.9 ms at the default
// 20,000 entries, where an insert costs a few µs. Each tier's TTL is fixed, so its entries
// expire in the order they were inserted: a FIFO per tier (./expiry-queue.ts) has every
// expired entry at its head, and an insert pops them (amortised O(1)) before lru-cache
// makes room.
import { LRUCache } from 'lru-cache';
import type { Clock } from '@sfdb/proto/runtime/clock';
import { ExpiryQueue } from './expiry-queue.js';
import { CACHE_TIERS } from './metrics.js';
import type { CacheMetrics, CacheTier } from './metrics.js';

/** One cached value, under the key `<type>:<uuid>`. */
export interface CacheEntry {
  readonly key: string;
  readonly tier: CacheTier;
  readonly value: object;
  readonly expiresAt: number;
  /** Read after this process's own update that published the change of this seq had answered (see changeMayBeNewer). */
  readonly readAfter: string | undefined;
  /** The fill generation when its load was issued (client/cache-feed.ts). */
  readonly generation: number;
  /** False once lru-cache disposed of it; its expiry-queue record is then dead. */
  live: boolean;
}

// lru-cache keeps an entry while its age is at most its ttl; here an entry expires when
// its age reaches the TTL (expiresAt ≤ now, as its tier's queue pops it). Each entry is
// given a ttl a nanosecond shorter: the same instant on an integer clock (a fake one), and
// no difference that a real one can show.
const TTL_EDGE_MS = 1e-6;

/** The key of (type, uuid). */
export function entryKey(type: string, uuid: string): string {
  return `${type}:${uuid}`;
}

/** The uuid part of an entry's key. */
export function uuidOf(key: string): string {
  return key.slice(key.indexOf(':') + 1);
}

export class CacheEntries {
  private readonly lru: LRUCache<string, CacheEntry>;
  private readonly queues: Record<CacheTier, ExpiryQueue<CacheEntry>> = { immutable: new ExpiryQueue(), upgradeable: new ExpiryQueue() };
  private readonly counts: Record<CacheTier, number> = { immutable: 0, upgradeable: 0 };
  // The uuids the interest summary names: every entry, and those that merely expired (so
  // that reading one again after its TTL does not need a new summary). An eviction for a
  // write, an invalidation, capacity or a clear forgets them; past twice the capacity the
  // set is rebuilt from the entries.
  private readonly remembered = new Set<string>();
  /** True while this class removes an entry by pop() (see delete): its dispose counts nothing. */
  private popping = false;

  constructor(
    private readonly capacity: number,
    private readonly clock: Pick<Clock, 'now'>,
    private readonly metrics: CacheMetrics,
  ) {
    this.lru = new LRUCache<string, CacheEntry>({
      // Bounded by size, one per entry, not by `max`: with `max` lru-cache allocates its
      // key, value, link and TTL arrays at full capacity up front (~0.6 MB per cache at the
      // default 20,000, whatever it holds), where a daemon's cache holds tens of objects;
      // these grow with the entries instead. The same bound and the same LRU order.
      maxSize: capacity,
      sizeCalculation: () => 1,
      // The cache's clock (a test's fake one), read at every check: ttlResolution 0, as
      // lru-cache otherwise keeps a reading for 1 ms. Counted from 1: lru-cache reads an
      // entry started at 0 as one without a TTL.
      perf: { now: () => clock.now() + 1 },
      ttlResolution: 0,
      dispose: (entry, _key, reason) => this.disposed(entry, reason),
    });
  }

  /** The entry of `key` unless expired, moved to the recent end; an expired one is dropped (counted). */
  get(key: string): CacheEntry | undefined {
    return this.lru.get(key);
  }

  /** The entry of `key`, expired or not; neither touches nor drops it. */
  peek(key: string): CacheEntry | undefined {
    return this.lru.peek(key, { allowStale: true });
  }

  /** True when `key` is held and not expired; does not touch it. */
  has(key: string): boolean {
    return this.lru.has(key);
  }

  /** Stores `value` under `key` for `ttl` ms (> 0), at the recent end. */
  insert(key: string, tier: CacheTier, ttl: number, value: object, generation: number, readAfter: string | undefined): void {
    // The expired entries go first, so that lru-cache evicts a live one for room only when
    // none has expired; not the copy this one replaces (an overwrite is no eviction, even of
    // an expired copy): its record is dead from now, and lru-cache disposes of it as `set`.
    const old = this.lru.peek(key, { allowStale: true });
    if (old !== undefined) old.live = false;
    const now = this.clock.now();
    this.sweep(now);
    const entry: CacheEntry = { key, tier, value, expiresAt: now + ttl, readAfter, generation, live: true };
    this.lru.set(key, entry, { ttl: ttl - TTL_EDGE_MS });
    this.counts[tier] += 1;
    this.queues[tier].push(entry);
    this.queues[tier].compact(this.counts[tier]);
    this.remembered.add(uuidOf(key));
    if (this.remembered.size > 2 * this.capacity) this.rememberEntriesOnly();
  }

  /** Drops the entry of `key` (counted for `reason`) and forgets its uuid; true when one was held. */
  remove(key: string, reason: 'write' | 'invalidation'): boolean {
    this.remembered.delete(uuidOf(key));
    if (!this.delete(key)) return false;
    this.metrics.evicted(reason);
    return true;
  }

  /**
   * Drops every live entry stamped before fill generation `generation`, not counted as
   * evictions; answers how many. (An expired one is never served again; it goes as usual.)
   */
  removeFilledBefore(generation: number): number {
    const keys: string[] = [];
    for (const [key, entry] of this.lru.entries()) if (entry.generation < generation) keys.push(key);
    for (const key of keys) {
      this.remembered.delete(uuidOf(key));
      this.delete(key);
    }
    return keys.length;
  }

  /** Drops every entry, not counted as evictions. */
  clear(): void {
    this.lru.clear();
    this.remembered.clear();
    for (const tier of CACHE_TIERS) this.queues[tier].reset();
  }

  /** Drops every expired entry (counted as `expired` evictions). */
  sweep(now = this.clock.now()): void {
    for (const tier of CACHE_TIERS) this.queues[tier].popDue(now, this.dropExpired);
  }

  /** The uuids of every entry and of those that only expired since (the interest summary's). */
  uuids(): Iterable<string> {
    return this.remembered;
  }

  /** Entries held in `tier` (expired ones not yet dropped included). */
  count(tier: CacheTier): number {
    return this.counts[tier];
  }

  get size(): number {
    return this.lru.size;
  }

  /** Every entry, least recently used first, expired ones not yet dropped included. */
  list(): CacheEntry[] {
    return this.lru.dump().map(([, { value }]) => value);
  }

  /** Records in the expiry queues, dead ones included (for tests of the compaction). */
  queuedRecords(): number {
    return this.queues.immutable.length + this.queues.upgradeable.length;
  }

  private rememberEntriesOnly(): void {
    this.remembered.clear();
    for (const key of this.lru.keys()) this.remembered.add(uuidOf(key));
  }

  /** Deletes the entry of `key`, uncounted; true when one was held. */
  private delete(key: string): boolean {
    // lru-cache refills its arrays when the last entry is deleted (0.15 ms at 20,000
    // entries, where a delete costs well under a µs); its pop() of the last one does not.
    // (A read of the last entry once expired still pays it: at most once per TTL.)
    if (this.lru.size !== 1 || this.peek(key) === undefined) return this.lru.delete(key);
    this.popping = true;
    this.lru.pop();
    this.popping = false;
    return true;
  }

  private readonly dropExpired = (entry: CacheEntry): void => {
    this.delete(entry.key);
    this.metrics.evicted('expired');
  };

  /**
   * Every way out of lru-cache passes here, so the per-tier counts stay exact. It counts
   * the evictions lru-cache decides (capacity; an expired entry read); those asked of it
   * (`delete`, or `evict` from delete's pop) are counted where they are asked, and an
   * overwrite (`set`) or a clear is no eviction.
   */
  private disposed(entry: CacheEntry, reason: LRUCache.DisposeReason): void {
    entry.live = false;
    this.counts[entry.tier] -= 1;
    if (reason === 'evict' && !this.popping) {
      this.remembered.delete(uuidOf(entry.key));
      this.metrics.evicted('capacity');
    } else if (reason === 'expire') {
      this.metrics.evicted('expired');
    }
  }
}
