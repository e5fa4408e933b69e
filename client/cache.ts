// The static-object cache (docs/client.md, "Static-object cache"): read-through, above the transport. A map
// (type, uuid) → deep-frozen value in two TTL tiers by type (immutable 300 s, upgradeable
// 30 s; 0 disables a tier). Misses and errors are never cached; this process's update or
// delete evicts, and other processes' writes are heard through the change feed
// (`attachFeed`, ./cache-feed.ts): an update or delete invalidates, a resync clears —
// except the change of this process's own update heard by a copy read after that update
// answered (changeMayBeNewer: that copy is the update or later; an RPC saved, not a risk).
// Each load is stamped with the feed's fill generation when issued, so that when the feed
// starts covering (its first cursor) only the copies loaded before go (cache-feed.ts).
// Concurrent misses of one key share one load (one RPC per key in flight); an eviction
// drops the shared load, so nobody who asks after a write gets an answer read before it.
// A capacity cap trims expired entries first, then the least recently used across both
// tiers (the entries, on lru-cache: ./cache-entries.ts). State, attributes, metadata,
// daemon states, queues, leases and IPAM reservations are never cached: only the types in
// CACHED_TYPES are, and only their typed Get.
//
// Values are frozen: callers must not (and cannot) mutate what a Get answers.
import { OBJECT_TYPE_MUTABILITY } from '@sfdb/proto/object-types';
import type { ObjectTypeName } from '@sfdb/proto/object-types';
import { CacheFeed, changeMayBeNewer } from './cache-feed.js';
import type { HeardChange, WaiterSource } from './cache-feed.js';
import type { ChangeWaiter } from './changes.js';
import { systemClock } from '@sfdb/proto/runtime/clock';
import type { Clock } from '@sfdb/proto/runtime/clock';
import { DEFAULT_CACHE_SETTINGS, resolveCacheSettings } from './config.js';
import { CacheEntries, entryKey, uuidOf } from './cache-entries.js';
import type { CacheSettings } from './config.js';
import { cacheMetrics } from './metrics.js';
import type { CacheMetrics, CacheOccupancy, CacheTier, ClearReason, EvictionReason } from './metrics.js';

export type { CacheSettings, CacheTier, ClearReason, EvictionReason, HeardChange };

/**
 * Every cached object type and its TTL tier: its mutability (proto/object-types.ts, where
 * every object type is classified). Only their static values are cached.
 */
export const CACHED_TYPES: Readonly<Record<ObjectTypeName, CacheTier>> = OBJECT_TYPE_MUTABILITY;

export type CachedType = keyof typeof CACHED_TYPES;

export interface StaticObjectCacheOptions extends Partial<CacheSettings> {
  /** Where time and the wait for the feed's first cursor come from; tests pass a fake clock. */
  clock?: Clock;
  /** Where it reports; default the process-wide client metrics (`clientRegistry`). */
  metrics?: CacheMetrics;
}

/** A load in flight, shared by every reader of its key that misses meanwhile. */
interface Flight {
  promise: Promise<object | undefined>;
  /** Issued after this process's own update that published the change of this seq had answered. */
  readonly readAfter: string | undefined;
  /** The fill generation when its load was issued (undefined while it waits for the feed's first cursor). */
  generation: number | undefined;
}

/** How many own updates' change seqs are remembered at most (the oldest are forgotten first: a cost, never a risk). */
const MAX_OWN_WRITES = 1024;

/** Freezes `value` and everything reachable from it; answers it. */
export function deepFreeze<T>(value: T): Readonly<T> {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

function nonNegativeInt(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`${name}: ${value} is not an integer ≥ 0`);
  return value;
}

export class StaticObjectCache implements CacheOccupancy {
  readonly settings: CacheSettings;
  private readonly ttl: Record<CacheTier, number>;
  private readonly clock: Clock;
  private readonly metrics: CacheMetrics;
  private readonly entries: CacheEntries;
  // The loads in flight, one per key. A load that started before an eviction of its key
  // (or a clear) may answer the old value after it: the eviction drops it from here, so
  // its answer is not inserted and a reader arriving later starts a fresh load.
  private readonly inflight = new Map<string, Flight>();
  private readonly feed: CacheFeed<CachedType>;
  // key → the seq of the change this process's latest update of it published (from the
  // update's answer), while the feed has not delivered it: reads issued from now on are
  // that update or later (changeMayBeNewer). A delete, a failed update, a clear forget it.
  private readonly ownWrites = new Map<string, string>();

  constructor(options: StaticObjectCacheOptions = {}) {
    const capacity = options.capacity ?? DEFAULT_CACHE_SETTINGS.capacity;
    if (!Number.isSafeInteger(capacity) || capacity < 1) throw new Error(`capacity: ${capacity} is not a positive integer`);
    this.settings = Object.freeze({
      immutableTtlMs: nonNegativeInt('immutableTtlMs', options.immutableTtlMs ?? DEFAULT_CACHE_SETTINGS.immutableTtlMs),
      upgradeableTtlMs: nonNegativeInt('upgradeableTtlMs', options.upgradeableTtlMs ?? DEFAULT_CACHE_SETTINGS.upgradeableTtlMs),
      capacity,
    });
    this.ttl = { immutable: this.settings.immutableTtlMs, upgradeable: this.settings.upgradeableTtlMs };
    this.clock = options.clock ?? systemClock;
    this.metrics = options.metrics ?? cacheMetrics();
    this.entries = new CacheEntries(capacity, this.clock, this.metrics);
    this.metrics.track(this);
    this.feed = new CacheFeed<CachedType>(this, Object.keys(CACHED_TYPES) as CachedType[], this.clock);
  }

  /**
   * Hears other processes' writes through `waiter` (one push subscription to the
   * `static/<type>` topics): an update or delete of a cached entry invalidates it, a
   * resync clears the cache. A no-op when attached already; when the waiter closes, the
   * cache detaches. Entries held and loads issued before are dropped (no feed covered
   * them), and, when the waiter has no cursor yet, those issued before its first one.
   */
  attachFeed(waiter: ChangeWaiter): void {
    this.feed.attach(waiter);
  }

  /** Stops hearing the feed; entries stay, with their TTLs. */
  detachFeed(): void {
    this.feed.detach();
  }

  /**
   * Attaches to `source()`'s waiter the first time a load is issued (or an entry stored)
   * while unattached, so a process that never reads a cached type never holds a
   * long-poll; that load waits for the waiter's first cursor (cache-feed.ts). Several sources may be
   * registered (clients sharing this cache); the first with an open waiter is used.
   * Answers a function that removes the source.
   */
  attachFeedOnInsert(source: WaiterSource): () => void {
    return this.feed.addSource(source);
  }

  /** The change waiter this cache hears, if attached. */
  get feedWaiter(): ChangeWaiter | undefined {
    return this.feed.waiter;
  }

  /** False when `type`'s tier has TTL 0: its reads always go to the tier. */
  enabled(type: CachedType): boolean {
    return this.ttl[tierOf(type)] > 0;
  }

  /** The cached value, or undefined (absent, expired, or the tier is off). Counts a hit or miss. */
  get<T extends object>(type: CachedType, uuid: string): Readonly<T> | undefined {
    const tier = tierOf(type);
    if (this.ttl[tier] === 0) return undefined;
    const entry = this.entries.get(entryKey(type, uuid));
    if (entry === undefined) {
      this.metrics.miss(type);
      return undefined;
    }
    this.metrics.hit(type);
    return entry.value as Readonly<T>;
  }

  /** Caches a deep-frozen copy of `value` (a JSON-like object) and answers the copy. */
  set<T extends object>(type: CachedType, uuid: string, value: T): Readonly<T> {
    const copy = deepFreeze(structuredClone(value));
    this.insert(type, uuid, copy);
    return copy;
  }

  /**
   * Read-through: the cached value, else `load()`'s answer, cached unless it is
   * undefined (a miss is never cached) or this key was evicted while it loaded. An error
   * propagates and caches nothing. A miss while a load of the same key is in flight joins
   * it (its own `load` is not called; counted as coalesced, and as a miss): it gets that
   * load's answer or error. The answer is deep-frozen; `load` must answer a fresh object
   * that nothing else holds (it is frozen in place, not copied).
   */
  /** `cacheable` false: the loaded answer is handed over and not kept (an object holding secrets). */
  async read<T extends object>(
    type: CachedType,
    uuid: string,
    load: () => Promise<T | undefined>,
    cacheable: (value: T) => boolean = () => true,
  ): Promise<Readonly<T> | undefined> {
    if (!this.enabled(type)) {
      const value = await load();
      return value === undefined ? undefined : deepFreeze(value);
    }
    const cached = this.get<T>(type, uuid);
    if (cached !== undefined) return cached;
    const key = entryKey(type, uuid);
    const shared = this.inflight.get(key);
    if (shared !== undefined) {
      this.metrics.coalesced(type);
      return shared.promise as Promise<Readonly<T> | undefined>;
    }
    const flight: Flight = { promise: Promise.resolve(undefined), readAfter: this.ownWrites.get(key), generation: undefined };
    this.inflight.set(key, flight);
    flight.promise = this.loadShared(key, type, uuid, flight, load, cacheable as (value: object) => boolean);
    return flight.promise as Promise<Readonly<T> | undefined>;
  }

  private async loadShared(
    key: string,
    type: CachedType,
    uuid: string,
    flight: Flight,
    load: () => Promise<object | undefined>,
    cacheable: (value: object) => boolean,
  ): Promise<object | undefined> {
    try {
      const covering = this.feed.beforeLoad();
      if (covering !== undefined) await covering;
      flight.generation = this.feed.generation;
      const value = await load();
      if (value === undefined) return undefined;
      deepFreeze(value);
      // Still ours: no eviction of this key, and no clear, since the load started.
      if (this.inflight.get(key) === flight && cacheable(value)) this.insert(type, uuid, value, flight.generation, flight.readAfter);
      return value;
    } finally {
      if (this.inflight.get(key) === flight) this.inflight.delete(key);
    }
  }

  /**
   * Drops (type, uuid): this process wrote it (`write`), or another did (`invalidation`).
   * A load of it in flight will not cache its answer. True when an entry was dropped.
   * `ownChangeSeq`: this process's update answered, having published the change of that
   * seq; the copies read from now on skip that change when the feed delivers it. Absent
   * (a delete, a failed update, a tier that does not say): no copy will skip anything.
   */
  evict(type: CachedType, uuid: string, reason: 'write' | 'invalidation' = 'write', ownChangeSeq?: string): boolean {
    const key = entryKey(type, uuid);
    const dropped = this.drop(key, reason, undefined);
    if (reason === 'write') {
      this.ownWrites.delete(key);
      // Only while a feed is attached (without one no change is heard to skip).
      if (ownChangeSeq !== undefined && ownChangeSeq !== '0' && this.feed.waiter !== undefined) {
        this.ownWrites.set(key, ownChangeSeq);
        if (this.ownWrites.size > MAX_OWN_WRITES) this.ownWrites.delete(this.ownWrites.keys().next().value as string);
      }
    }
    return dropped;
  }

  /**
   * The feed delivered a change of (type, uuid) (the change feed calls this): the entry and
   * a load in flight go unless the change is proven not newer (changeMayBeNewer); without
   * `change`, they go. True when an entry was dropped.
   */
  invalidate(type: CachedType, uuid: string, change?: HeardChange): boolean {
    const key = entryKey(type, uuid);
    if (change !== undefined && this.ownWrites.get(key) === change.seq) this.ownWrites.delete(key); // delivered: no later read needs it
    return this.drop(key, 'invalidation', change);
  }

  /** Drops the entry of `key` and its load in flight, each unless `change` is proven not newer than it. */
  private drop(key: string, reason: 'write' | 'invalidation', change: HeardChange | undefined): boolean {
    const flight = this.inflight.get(key);
    if (flight !== undefined && (change === undefined || changeMayBeNewer(change, flight.readAfter))) this.inflight.delete(key);
    const entry = this.entries.peek(key);
    if (entry !== undefined && change !== undefined && !changeMayBeNewer(change, entry.readAfter)) return false;
    return this.entries.remove(key, reason);
  }

  /** Drops every entry (not counted as evictions; counted as a clear, reason `caller`); loads in flight will not cache. */
  clear(): void {
    const dropped = this.entries.size + this.inflight.size;
    this.entries.clear();
    this.ownWrites.clear();
    this.inflight.clear();
    if (dropped > 0) this.metrics.cleared('caller');
  }

  /**
   * The feed's drop (cache-feed.ts): every entry and issued load stamped before
   * `generation` (not counted as evictions; one clear for `reason` when any went). A load
   * still waiting for the feed's first cursor stays: it will be stamped when issued.
   */
  dropFilledBefore(generation: number, reason: ClearReason): void {
    let dropped = 0;
    for (const [key, flight] of this.inflight) {
      if (flight.generation === undefined || flight.generation >= generation) continue;
      this.inflight.delete(key);
      dropped += 1;
    }
    dropped += this.entries.removeFilledBefore(generation);
    this.ownWrites.clear();
    if (dropped > 0) this.metrics.cleared(reason);
  }

  /** Drops every expired entry (counted as `expired` evictions). */
  sweepExpired(): void {
    this.entries.sweep();
  }

  /** True when (type, uuid) is cached and not expired; neither counts nor touches it. */
  has(type: CachedType, uuid: string): boolean {
    return this.entries.has(entryKey(type, uuid));
  }

  /** What the change feed's interest summary names: the uuids of every entry, of entries that only expired, and of the loads in flight. */
  *heldIds(): Iterable<string> {
    yield* this.entries.uuids();
    for (const key of this.inflight.keys()) yield uuidOf(key);
  }

  /** Entries held in `tier` (expired ones not yet dropped included). */
  entryCount(tier: CacheTier): number {
    return this.entries.count(tier);
  }

  /** Entries held, both tiers. */
  get size(): number {
    return this.entries.size;
  }

  /** Every entry, least recently used first, expired ones not yet dropped included (a walk: for tests and debugging). */
  snapshot(): { type: CachedType; uuid: string; tier: CacheTier; expiresAt: number }[] {
    return this.entries.list().map((e) => ({ type: e.key.slice(0, e.key.indexOf(':')) as CachedType, uuid: uuidOf(e.key), tier: e.tier, expiresAt: e.expiresAt }));
  }

  /** Records in the expiry queues, dead ones included (for tests of the compaction). */
  queuedRecords(): number {
    return this.entries.queuedRecords();
  }

  private insert(type: CachedType, uuid: string, value: object, generation?: number, readAfter?: string): void {
    const tier = tierOf(type);
    const ttl = this.ttl[tier];
    if (ttl === 0) return;
    if (this.feed.wantsSource) this.feed.onInsert(); // before the insert: attaching drops what was held
    // set(): a value handed over now is stamped now.
    this.entries.insert(entryKey(type, uuid), tier, ttl, value, generation ?? this.feed.generation, readAfter);
    this.feed.held(uuid);
  }
}

function tierOf(type: CachedType): CacheTier {
  const tier = CACHED_TYPES[type] as CacheTier | undefined;
  if (tier === undefined) throw new Error(`${String(type)} is not a cached object type`);
  return tier;
}

let processCache: StaticObjectCache | undefined;

/** The process-wide cache (SFDB_CACHE_* settings), shared by clients that pass none. */
export function defaultStaticObjectCache(): StaticObjectCache {
  processCache ??= new StaticObjectCache(resolveCacheSettings());
  return processCache;
}
