// Every metric of the client, defined in one place. One process-wide registry,
// `clientRegistry`, which a daemon serves beside its own (`Registry.merge([mine,
// clientRegistry])`). The metric objects are made once per registry (get-or-create), so
// several clients and caches in one process share them and making another never throws
// "already registered".
import { Counter, Gauge, Registry } from 'prom-client';

/** The process-wide registry of client metrics. */
export const clientRegistry = new Registry();

export const CLIENT_METRIC_NAMES = {
  cacheHits: 'sfdb_client_cache_hits_total',
  cacheMisses: 'sfdb_client_cache_misses_total',
  cacheEvictions: 'sfdb_client_cache_evictions_total',
  cacheEntries: 'sfdb_client_cache_entries',
} as const;

/** The static-object cache's two TTL tiers. */
export const CACHE_TIERS = ['immutable', 'upgradeable'] as const;
export type CacheTier = (typeof CACHE_TIERS)[number];

/**
 * Why an entry left the cache: its TTL passed; room was needed; this process updated or
 * deleted the object; another process's write was reported (the change feed).
 */
export const EVICTION_REASONS = ['expired', 'capacity', 'write', 'invalidation'] as const;
export type EvictionReason = (typeof EVICTION_REASONS)[number];

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
  // prom-client hashes label values on every labels() call; the hot path keeps children.
  private readonly hitChildren = new Map<string, Counter.Internal>();
  private readonly missChildren = new Map<string, Counter.Internal>();
  private readonly evictionChildren = new Map<EvictionReason, Counter.Internal>();

  constructor(registry: Registry) {
    const registers = [registry];
    const caches = this.caches;
    // Registered first: a scrape collects metrics in registration order, so the expired
    // entries this sweep drops are in the same scrape's eviction count.
    new Gauge({
      name: CLIENT_METRIC_NAMES.cacheEntries,
      help: 'Live entries in the static-object caches of this process, by TTL tier (expired ones are dropped before each scrape).',
      labelNames: ['tier'],
      registers,
      collect() {
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
      },
    });
    this.hits = new Counter({
      name: CLIENT_METRIC_NAMES.cacheHits,
      help: 'Static-object reads answered by the cache, by object type.',
      labelNames: ['object_type'],
      registers,
    });
    this.misses = new Counter({
      name: CLIENT_METRIC_NAMES.cacheMisses,
      help: 'Static-object reads the cache could not answer (absent or expired), by object type.',
      labelNames: ['object_type'],
      registers,
    });
    this.evictions = new Counter({
      name: CLIENT_METRIC_NAMES.cacheEvictions,
      help: 'Entries dropped from the static-object cache, by reason: expired, capacity, write (this process), invalidation (others).',
      labelNames: ['reason'],
      registers,
    });
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

  evicted(reason: EvictionReason, count = 1): void {
    if (count > 0) (this.evictionChildren.get(reason) as Counter.Internal).inc(count);
  }
}

function child(children: Map<string, Counter.Internal>, counter: Counter<'object_type'>, objectType: string): Counter.Internal {
  let c = children.get(objectType);
  if (!c) {
    c = counter.labels(objectType);
    children.set(objectType, c);
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
