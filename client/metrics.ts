// Every metric of the client, declared in one catalogue (CLIENT_METRICS) and made from it.
// One process-wide registry, `clientRegistry`, which a daemon serves beside its own
// (`Registry.merge([mine, clientRegistry])`). The metric objects are made once per
// registry (get-or-create), so several clients and caches in one process share them and
// making another never throws "already registered". Cache metrics (CacheMetrics) and
// change-feed metrics (FeedMetrics), p2c balancer metrics (BalancerMetrics).
import { Registry } from 'prom-client';
import type { Counter } from 'prom-client';
import { makeCounter, makeGauge, metricNames } from '@sfdb/proto/runtime/metrics';
import type { MetricSpec } from '@sfdb/proto/runtime/metrics';

/** The process-wide registry of client metrics. */
export const clientRegistry = new Registry();

const counter = <L extends string>(name: string, help: string, labels: readonly L[] = []): MetricSpec<L> => ({ name, kind: 'counter', help, labels });
const gauge = <L extends string>(name: string, help: string, labels: readonly L[] = []): MetricSpec<L> => ({ name, kind: 'gauge', help, labels });

/** Every metric of the client (the scheme: proto/runtime/metrics.ts). */
export const CLIENT_METRICS = {
  cacheHits: counter('database_client_cache_hits_total', 'Static-object reads answered by the cache, by object type.', ['object_type']),
  cacheMisses: counter('database_client_cache_misses_total', 'Static-object reads the cache could not answer (absent or expired), by object type.', [
    'object_type',
  ]),
  cacheEvictions: counter(
    'database_client_cache_evictions_total',
    'Entries dropped from the static-object cache, by reason: expired, capacity, write (this process), invalidation (others).',
    ['reason'],
  ),
  cacheEntries: gauge(
    'database_client_cache_entries',
    'Live entries in the static-object caches of this process, by TTL tier (expired ones are dropped before each scrape).',
    ['tier'],
  ),
  cacheCoalesced: counter(
    'database_client_cache_coalesced_total',
    'Static-object reads that joined a load of the same object already in flight (no RPC of their own), by object type.',
    ['object_type'],
  ),
  cacheClears: counter(
    'database_client_cache_clears_total',
    'Times the static-object cache dropped entries wholesale (counted when it dropped at least one entry or load in flight), by reason: attach, feed_start, resync, caller.',
    ['reason'],
  ),
  feedWaits: counter('database_client_feed_waits_total', 'WaitForChanges long-polls answered.'),
  feedWakeups: counter('database_client_feed_wakeups_total', 'WaitForChanges answers that carried changes.'),
  feedChanges: counter('database_client_feed_changes_total', 'Changes the change feed delivered.'),
  feedFallbacks: counter('database_client_feed_fallbacks_total', 'Times a change waiter gave up on the feed and fell back to polling.'),
  feedResyncs: counter(
    'database_client_feed_resyncs_total',
    'Resyncs a change waiter passed to its subscriptions: its cursor was past the window, or the feed came back after a fallback.',
  ),
  feedErrors: counter(
    'database_client_feed_errors_total',
    'WaitForChanges calls that failed, by grpc status name (cancellations by the waiter itself excluded).',
    ['code'],
  ),
  feedMoves: counter(
    'database_client_feed_moves_total',
    'Long-polls moved (re-issued, same cursor), by reason: unresponsive (other replicas saw its replica stop answering: WatchReplicas), beside_watch (the replica watch was just placed on its replica).',
    ['reason'],
  ),
  feedRepolls: counter(
    'database_client_feed_interest_repolls_total',
    'Long-polls re-issued (same cursor) because the cache started holding an object its interest summary in flight did not have.',
  ),
  balancerPicks: counter(
    'database_client_p2c_picks_total',
    'Replica picks of the p2c balancer, by kind (call, long_poll, watch) and how it was decided (single: one READY replica; less_loaded; tie: decided at random).',
    ['kind', 'choice'],
  ),
  balancerInFlight: gauge(
    'database_client_p2c_in_flight',
    'Calls in flight from this process per replica address as the p2c balancer counts them, by kind (call, long_poll, watch).',
    ['endpoint', 'kind'],
  ),
  feedMode: gauge('database_client_feed_mode', 'Change waiters of this process in each mode: starting (no answer yet), feed, fallback (polling).', ['mode']),
} as const;

/** `{ key: name }` of CLIENT_METRICS. */
export const CLIENT_METRIC_NAMES = metricNames(CLIENT_METRICS);

/** The static-object cache's two TTL tiers. */
export const CACHE_TIERS = ['immutable', 'upgradeable'] as const;
export type CacheTier = (typeof CACHE_TIERS)[number];

/**
 * Why an entry left the cache: its TTL passed; room was needed; this process updated or
 * deleted the object; another process's write was reported (the change feed).
 */
export const EVICTION_REASONS = ['expired', 'capacity', 'write', 'invalidation'] as const;
export type EvictionReason = (typeof EVICTION_REASONS)[number];

/**
 * Why the cache dropped entries wholesale (client/cache-feed.ts): a feed was attached
 * (what it held, no feed covered); the feed took its first cursor (what was loaded before
 * it); the feed resynced (changes were missed: a resync, or back from a fallback); its
 * owner called clear().
 */
export const CLEAR_REASONS = ['attach', 'feed_start', 'resync', 'caller'] as const;
export type ClearReason = (typeof CLEAR_REASONS)[number];

/** What the occupancy gauge asks of each cache when it is scraped. */
export interface CacheOccupancy {
  /** Drops the entries whose TTL has passed (counted as `expired` evictions). */
  sweepExpired(): void;
  /** Entries held in `tier`. */
  entryCount(tier: CacheTier): number;
}

/** The cache metrics of one registry, shared by every cache that reports to it. */
export class CacheMetrics {
  private readonly caches = new Set<WeakRef<CacheOccupancy>>();
  private readonly hits: Counter<'object_type'>;
  private readonly misses: Counter<'object_type'>;
  private readonly evictions: Counter<'reason'>;
  private readonly coalescedReads: Counter<'object_type'>;
  private readonly clears: Counter<'reason'>;
  // prom-client hashes label values on every labels() call; the hot path keeps children.
  private readonly hitChildren = new Map<string, Counter.Internal>();
  private readonly missChildren = new Map<string, Counter.Internal>();
  private readonly coalescedChildren = new Map<string, Counter.Internal>();
  private readonly evictionChildren = new Map<EvictionReason, Counter.Internal>();

  constructor(registry: Registry) {
    const caches = this.caches;
    // Registered first: a scrape collects metrics in registration order, so the expired
    // entries this sweep drops are in the same scrape's eviction count.
    makeGauge(CLIENT_METRICS.cacheEntries, registry, function collect() {
      const totals: Record<CacheTier, number> = { immutable: 0, upgradeable: 0 };
      for (const ref of caches) {
        const cache = ref.deref();
        if (!cache) {
          caches.delete(ref);
          continue;
        }
        cache.sweepExpired();
        for (const tier of CACHE_TIERS) totals[tier] += cache.entryCount(tier);
      }
      for (const tier of CACHE_TIERS) this.set({ tier }, totals[tier]);
    });
    this.hits = makeCounter(CLIENT_METRICS.cacheHits, registry);
    this.misses = makeCounter(CLIENT_METRICS.cacheMisses, registry);
    this.evictions = makeCounter(CLIENT_METRICS.cacheEvictions, registry);
    this.coalescedReads = makeCounter(CLIENT_METRICS.cacheCoalesced, registry);
    this.clears = makeCounter(CLIENT_METRICS.cacheClears, registry);
    for (const reason of EVICTION_REASONS) this.evictionChildren.set(reason, this.evictions.labels(reason));
  }

  /** Counts `cache` in the occupancy gauge for as long as it is reachable. */
  track(cache: CacheOccupancy): void {
    this.caches.add(new WeakRef(cache));
  }

  hit(objectType: string): void {
    child(this.hitChildren, this.hits, objectType).inc();
  }

  miss(objectType: string): void {
    child(this.missChildren, this.misses, objectType).inc();
  }

  coalesced(objectType: string): void {
    child(this.coalescedChildren, this.coalescedReads, objectType).inc();
  }

  evicted(reason: EvictionReason, count = 1): void {
    if (count > 0) (this.evictionChildren.get(reason) as Counter.Internal).inc(count);
  }

  cleared(reason: ClearReason): void {
    this.clears.labels(reason).inc();
  }
}

function child<L extends string>(children: Map<string, Counter.Internal>, counter: Counter<L>, value: string): Counter.Internal {
  let c = children.get(value);
  if (!c) {
    c = counter.labels(value);
    children.set(value, c);
  }
  return c;
}

const byRegistry = new WeakMap<Registry, CacheMetrics>();

/** The cache metrics of `registry` (default the process-wide one), made on first use. */
export function cacheMetrics(registry: Registry = clientRegistry): CacheMetrics {
  let m = byRegistry.get(registry);
  if (!m) {
    m = new CacheMetrics(registry);
    byRegistry.set(registry, m);
  }
  return m;
}

/** The modes of a change waiter: before its first answer, on the feed, polling instead. */
export const FEED_MODES = ['starting', 'feed', 'fallback'] as const;
export type FeedMode = (typeof FEED_MODES)[number];

/** What the mode gauge asks of each change waiter when it is scraped. */
export interface FeedModeSource {
  /** Its mode; undefined once closed (it is then not counted). */
  feedMode(): FeedMode | undefined;
}

/** The change-feed metrics of one registry, shared by every change waiter that reports to it. */
export class FeedMetrics {
  private readonly waiters = new Set<WeakRef<FeedModeSource>>();
  private readonly waits: Counter;
  private readonly wakeups: Counter;
  private readonly changes: Counter;
  private readonly fallbacks: Counter;
  private readonly resyncs: Counter;
  private readonly repolls: Counter;
  private readonly moves: Counter<'reason'>;
  private readonly errors: Counter<'code'>;
  private readonly errorChildren = new Map<string, Counter.Internal>();

  constructor(registry: Registry) {
    const waiters = this.waiters;
    makeGauge(CLIENT_METRICS.feedMode, registry, function collect() {
      const totals: Record<FeedMode, number> = { starting: 0, feed: 0, fallback: 0 };
      for (const ref of waiters) {
        const mode = ref.deref()?.feedMode();
        if (mode === undefined) waiters.delete(ref);
        else totals[mode] += 1;
      }
      for (const mode of FEED_MODES) this.set({ mode }, totals[mode]);
    });
    this.waits = makeCounter(CLIENT_METRICS.feedWaits, registry);
    this.wakeups = makeCounter(CLIENT_METRICS.feedWakeups, registry);
    this.changes = makeCounter(CLIENT_METRICS.feedChanges, registry);
    this.fallbacks = makeCounter(CLIENT_METRICS.feedFallbacks, registry);
    this.resyncs = makeCounter(CLIENT_METRICS.feedResyncs, registry);
    this.repolls = makeCounter(CLIENT_METRICS.feedRepolls, registry);
    this.moves = makeCounter(CLIENT_METRICS.feedMoves, registry);
    this.errors = makeCounter(CLIENT_METRICS.feedErrors, registry);
  }

  /** Counts `waiter` in the mode gauge while it is reachable and open. */
  track(waiter: FeedModeSource): void {
    this.waiters.add(new WeakRef(waiter));
  }

  /** An answer with `changes` changes. */
  answered(changes: number): void {
    this.waits.inc();
    if (changes > 0) {
      this.wakeups.inc();
      this.changes.inc(changes);
    }
  }

  fellBack(): void {
    this.fallbacks.inc();
  }

  resynced(): void {
    this.resyncs.inc();
  }

  repolled(): void {
    this.repolls.inc();
  }

  moved(reason: 'unresponsive' | 'beside_watch'): void {
    this.moves.labels(reason).inc();
  }

  failed(code: string): void {
    child(this.errorChildren, this.errors, code).inc();
  }
}

const feedByRegistry = new WeakMap<Registry, FeedMetrics>();

/** The change-feed metrics of `registry` (default the process-wide one), made on first use. */
export function feedMetrics(registry: Registry = clientRegistry): FeedMetrics {
  let m = feedByRegistry.get(registry);
  if (!m) {
    m = new FeedMetrics(registry);
    feedByRegistry.set(registry, m);
  }
  return m;
}

/** What a call is to the p2c balancer: a unary call, or a long-poll (WaitForChanges), counted apart. */
export const PICK_KINDS = ['call', 'long_poll', 'watch'] as const;
export type PickKind = (typeof PICK_KINDS)[number];

/** How a p2c pick was decided: one READY endpoint only; the two drawn had different loads; they were equal. */
export const PICK_CHOICES = ['single', 'less_loaded', 'tie'] as const;
export type PickChoice = (typeof PICK_CHOICES)[number];

/** What the in-flight gauge asks of each p2c balancer (one per channel) when it is scraped. */
export interface InFlightSource {
  /** Calls in flight from its channel per endpoint address; undefined once destroyed. */
  inFlight(): ReadonlyMap<string, { readonly calls: number; readonly longPolls: number; readonly watches: number }> | undefined;
}

/** The p2c balancer metrics of one registry, shared by every channel of the process. */
export class BalancerMetrics {
  private readonly sources = new Set<WeakRef<InFlightSource>>();
  private readonly children = new Map<string, Counter.Internal>();
  private readonly picks: Counter<'kind' | 'choice'>;

  constructor(registry: Registry) {
    const sources = this.sources;
    makeGauge(CLIENT_METRICS.balancerInFlight, registry, function collect() {
      const totals = new Map<string, { calls: number; longPolls: number; watches: number }>();
      for (const ref of sources) {
        const loads = ref.deref()?.inFlight();
        if (!loads) {
          sources.delete(ref);
          continue;
        }
        for (const [endpoint, load] of loads) {
          const t = totals.get(endpoint) ?? { calls: 0, longPolls: 0, watches: 0 };
          t.calls += load.calls;
          t.longPolls += load.longPolls;
          t.watches += load.watches;
          totals.set(endpoint, t);
        }
      }
      this.reset(); // endpoints no longer resolved leave the gauge
      for (const [endpoint, t] of totals) {
        this.set({ endpoint, kind: 'call' }, t.calls);
        this.set({ endpoint, kind: 'long_poll' }, t.longPolls);
        this.set({ endpoint, kind: 'watch' }, t.watches);
      }
    });
    this.picks = makeCounter(CLIENT_METRICS.balancerPicks, registry);
    for (const kind of PICK_KINDS) for (const choice of PICK_CHOICES) this.children.set(`${kind}/${choice}`, this.picks.labels(kind, choice));
  }

  /** Counts `source` in the in-flight gauge while it is reachable and not destroyed. */
  track(source: InFlightSource): void {
    this.sources.add(new WeakRef(source));
  }

  picked(kind: PickKind, choice: PickChoice): void {
    (this.children.get(`${kind}/${choice}`) as Counter.Internal).inc();
  }
}

const balancerByRegistry = new WeakMap<Registry, BalancerMetrics>();

/** The p2c balancer metrics of `registry` (default the process-wide one), made on first use. */
export function balancerMetrics(registry: Registry = clientRegistry): BalancerMetrics {
  let m = balancerByRegistry.get(registry);
  if (!m) {
    m = new BalancerMetrics(registry);
    balancerByRegistry.set(registry, m);
  }
  return m;
}
