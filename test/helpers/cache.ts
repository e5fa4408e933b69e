// A static-object cache on a fake clock and a registry of its own, for the cache's unit tests.
import { Registry } from 'prom-client';
import { StaticObjectCache } from '../../client/cache.js';
import type { CacheTier, CachedType } from '../../client/cache.js';
import { CLIENT_METRIC_NAMES, cacheMetrics } from '../../client/metrics.js';
import { FakeClock } from './fake-clock.js';
import { metricValue } from '../../harness/scrape.js';

/** A cache on its own registry, so its metrics are its alone. */
export function setup(options: { immutableTtlMs?: number; upgradeableTtlMs?: number; capacity?: number } = {}) {
  const clock = new FakeClock();
  const registry = new Registry();
  const cache = new StaticObjectCache({ ...options, clock, metrics: cacheMetrics(registry) });
  const metric = async (name: string, labels: Record<string, string>): Promise<number> => metricValue(await registry.metrics(), name, labels);
  return {
    clock,
    registry,
    cache,
    hits: (type: CachedType) => metric(CLIENT_METRIC_NAMES.cacheHits, { object_type: type }),
    misses: (type: CachedType) => metric(CLIENT_METRIC_NAMES.cacheMisses, { object_type: type }),
    evictions: (reason: string) => metric(CLIENT_METRIC_NAMES.cacheEvictions, { reason }),
    coalesced: (type: CachedType) => metric(CLIENT_METRIC_NAMES.cacheCoalesced, { object_type: type }),
    clears: (reason: string) => metric(CLIENT_METRIC_NAMES.cacheClears, { reason }),
    /** The gauge (a scrape: it drops expired entries first). */
    gauge: (tier: CacheTier) => metric(CLIENT_METRIC_NAMES.cacheEntries, { tier }),
  };
}

/** A JSON-like static value with nesting, numbered. */
export const obj = (n: number) => ({ uuid: `u${n}`, staticValues: { n, nested: { list: [n] } } });
