// The static-object cache with a fake clock: TTL tiers, read-through rules, capacity
// (expired first, then LRU across both tiers), metrics that stay exact. Concurrent
// readers and the change feed: cache-feed.test.ts.
import { randomUUID } from 'node:crypto';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { CACHED_TYPES, StaticObjectCache, defaultStaticObjectCache } from '../../client/cache.js';
import type { CacheTier } from '../../client/cache.js';
import { resolveCacheSettings } from '../../client/config.js';
import { createClient } from '../../client/index.js';
import { CACHE_TIERS, CLIENT_METRIC_NAMES, cacheMetrics, clientRegistry } from '../../client/metrics.js';
import { ObjectType } from '../../proto/gen/sfdb/v1/ObjectType.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { metricValue } from '../../harness/scrape.js';
import { obj, setup } from '../helpers/cache.js';

const S = 1000;

function counted(cache: StaticObjectCache, tier: CacheTier): number {
  return cache.snapshot().filter((e) => e.tier === tier).length;
}

/** The per-tier counts match a walk of the map; a scrape's gauge matches the walk after it. */
async function expectOccupancyTrue(s: ReturnType<typeof setup>): Promise<void> {
  for (const tier of CACHE_TIERS) expect(s.cache.entryCount(tier), tier).toBe(counted(s.cache, tier));
  const text = await s.registry.metrics();
  for (const tier of CACHE_TIERS) {
    expect(metricValue(text, CLIENT_METRIC_NAMES.cacheEntries, { tier }), tier).toBe(counted(s.cache, tier));
    expect(s.cache.entryCount(tier), tier).toBe(counted(s.cache, tier));
  }
}


describe('type registry', () => {
  it('classifies every object type of the proto into the two tiers of docs/client.md (Static-object cache)', () => {
    const all = Object.keys(ObjectType).filter((t) => t !== 'OBJECT_TYPE_UNSPECIFIED').sort();
    expect(Object.keys(CACHED_TYPES).sort()).toEqual(all);
    const tier = (t: CacheTier) => Object.entries(CACHED_TYPES).filter(([, v]) => v === t).map(([k]) => k).sort();
    expect(tier('immutable')).toEqual(['AGENT_OPERATION', 'INSTANCE', 'IPAM', 'NETWORK', 'NETWORK_INTERFACE']);
    expect(tier('upgradeable')).toEqual(['ARTIFACT', 'BLOB', 'NAMESPACE', 'NODE', 'UPLOAD']);
  });
});

describe('values', () => {
  it('answers a deep-frozen copy: the caller can mutate neither it nor the cache through its original', () => {
    const { cache } = setup();
    const original = obj(1);
    const stored = cache.set('INSTANCE', 'a', original);
    original.staticValues.n = 99;
    const hit = cache.get<typeof original>('INSTANCE', 'a');
    expect(hit).toBe(stored);
    expect(hit?.staticValues.n).toBe(1);
    expect(Object.isFrozen(hit)).toBe(true);
    expect(Object.isFrozen(hit?.staticValues.nested.list)).toBe(true);
    expect(() => {
      (hit as { uuid: string }).uuid = 'x';
    }).toThrow(TypeError);
    expect(() => (hit?.staticValues.nested.list as number[]).push(2)).toThrow(TypeError);
  });

  it('freezes what a read-through loads, also when the tier is disabled', async () => {
    const { cache } = setup({ upgradeableTtlMs: 0 });
    const a = await cache.read('INSTANCE', 'a', async () => obj(1));
    const b = await cache.read('BLOB', 'b', async () => obj(2));
    expect(Object.isFrozen(a?.staticValues.nested)).toBe(true);
    expect(Object.isFrozen(b?.staticValues.nested)).toBe(true);
  });
});

describe('TTL tiers', () => {
  it('keeps immutable types 300 s and upgradeable types 30 s by default', async () => {
    const s = setup();
    s.cache.set('INSTANCE', 'i', obj(1));
    s.cache.set('NODE', 'n', obj(2));
    await s.clock.advance(30 * S - 1);
    expect(s.cache.get('NODE', 'n')).toBeDefined();
    await s.clock.advance(1);
    expect(s.cache.get('NODE', 'n')).toBeUndefined();
    expect(s.cache.get('INSTANCE', 'i')).toBeDefined();
    await s.clock.advance(270 * S - 1);
    expect(s.cache.get('INSTANCE', 'i')).toBeDefined();
    await s.clock.advance(1);
    expect(s.cache.get('INSTANCE', 'i')).toBeUndefined();
    expect(await s.evictions('expired')).toBe(2);
    expect(await s.hits('NODE')).toBe(1);
    expect(await s.misses('NODE')).toBe(1);
    expect(await s.hits('INSTANCE')).toBe(2);
    expect(await s.misses('INSTANCE')).toBe(1);
  });

  it('TTL 0 disables only its tier: every read loads, nothing is held, nothing counted', async () => {
    const s = setup({ immutableTtlMs: 0 });
    let loads = 0;
    const load = async () => {
      loads += 1;
      return obj(loads);
    };
    for (let i = 0; i < 3; i++) await s.cache.read('NETWORK', 'x', load);
    expect(loads).toBe(3);
    s.cache.set('NETWORK', 'y', obj(1));
    expect(s.cache.get('NETWORK', 'y')).toBeUndefined();
    expect(s.cache.enabled('NETWORK')).toBe(false);
    expect(await s.misses('NETWORK')).toBe(0);
    // The other tier still caches.
    for (let i = 0; i < 3; i++) await s.cache.read('NAMESPACE', 'z', load);
    expect(loads).toBe(4);
    expect(s.cache.size).toBe(1);
    await expectOccupancyTrue(s);
  });
});

describe('read-through', () => {
  it('loads a miss once, then answers from the cache', async () => {
    const s = setup();
    let loads = 0;
    const load = async () => {
      loads += 1;
      return obj(7);
    };
    const first = await s.cache.read('IPAM', 'k', load);
    const second = await s.cache.read('IPAM', 'k', load);
    expect(loads).toBe(1);
    expect(second).toBe(first);
    expect(await s.misses('IPAM')).toBe(1);
    expect(await s.hits('IPAM')).toBe(1);
  });

  it('never caches "not found" or an error', async () => {
    const s = setup();
    let answer: 'missing' | 'error' | 'found' = 'missing';
    let loads = 0;
    const load = async () => {
      loads += 1;
      if (answer === 'error') throw new Error('unavailable');
      return answer === 'found' ? obj(1) : undefined;
    };
    expect(await s.cache.read('UPLOAD', 'k', load)).toBeUndefined();
    expect(s.cache.size).toBe(0);
    answer = 'error';
    await expect(s.cache.read('UPLOAD', 'k', load)).rejects.toThrow('unavailable');
    expect(s.cache.size).toBe(0);
    answer = 'found';
    expect(await s.cache.read('UPLOAD', 'k', load)).toBeDefined();
    expect(await s.cache.read('UPLOAD', 'k', load)).toBeDefined();
    expect(loads).toBe(3);
  });

  it('does not cache a load answered after this key was evicted, invalidated or the cache cleared', async () => {
    for (const interrupt of ['write', 'invalidation', 'clear'] as const) {
      const s = setup();
      let release: (v: object) => void = () => {};
      const slow = s.cache.read('NODE', 'k', () => new Promise<object>((r) => (release = r)));
      const other = s.cache.read('NODE', 'other', async () => obj(2));
      if (interrupt === 'write') s.cache.evict('NODE', 'k');
      else if (interrupt === 'invalidation') s.cache.invalidate('NODE', 'k');
      else s.cache.clear();
      release(obj(1)); // the old value, read before the write
      expect(await slow).toEqual(obj(1));
      await other;
      expect(s.cache.has('NODE', 'k'), interrupt).toBe(false);
      // Another key's load, in flight at the same time, is cached unless the whole cache was cleared.
      expect(s.cache.has('NODE', 'other'), interrupt).toBe(interrupt !== 'clear');
      // A load that starts after the write caches as usual.
      await s.cache.read('NODE', 'k', async () => obj(3));
      expect(s.cache.has('NODE', 'k'), interrupt).toBe(true);
    }
  });
});

describe('eviction', () => {
  it("counts this process's writes and others' invalidations, only when an entry was held", async () => {
    const s = setup();
    s.cache.set('BLOB', 'a', obj(1));
    s.cache.set('BLOB', 'b', obj(2));
    expect(s.cache.evict('BLOB', 'a')).toBe(true);
    expect(s.cache.evict('BLOB', 'a')).toBe(false);
    expect(s.cache.invalidate('BLOB', 'b')).toBe(true);
    expect(s.cache.invalidate('BLOB', 'zz')).toBe(false);
    expect(await s.evictions('write')).toBe(1);
    expect(await s.evictions('invalidation')).toBe(1);
    expect(await s.evictions('capacity')).toBe(0); // the last entry's removal is no capacity eviction
    expect(s.cache.size).toBe(0);
    await expectOccupancyTrue(s);
  });

  it('an overwrite is no eviction, even of an expired copy', async () => {
    const s = setup();
    s.cache.set('NODE', 'a', obj(1));
    s.cache.set('NODE', 'b', obj(2));
    await s.clock.advance(30 * S);
    s.cache.set('NODE', 'a', obj(3));
    expect(await s.evictions('expired')).toBe(1); // b only
    expect(s.cache.get<ReturnType<typeof obj>>('NODE', 'a')?.staticValues.n).toBe(3);
    expect(s.cache.snapshot().map((e) => e.uuid)).toEqual(['a']);
    await expectOccupancyTrue(s);
  });

  it('evicts the least recently used when full, a hit counting as a use', async () => {
    const s = setup({ capacity: 3 });
    s.cache.set('INSTANCE', 'a', obj(1));
    s.cache.set('NODE', 'b', obj(2));
    s.cache.set('INSTANCE', 'c', obj(3));
    expect(s.cache.get('INSTANCE', 'a')).toBeDefined(); // b is now the least recent
    s.cache.set('NETWORK', 'd', obj(4));
    expect(s.cache.snapshot().map((e) => e.uuid)).toEqual(['c', 'a', 'd']);
    expect(await s.evictions('capacity')).toBe(1);
  });

  it('trims expired entries before any live one, even more recently used ones', async () => {
    const s = setup({ capacity: 4 });
    s.cache.set('BLOB', 'old1', obj(1));
    s.cache.set('BLOB', 'old2', obj(2));
    s.cache.set('INSTANCE', 'live1', obj(3));
    s.cache.set('INSTANCE', 'live2', obj(4));
    // The upgradeable ones become the most recently used, then expire.
    s.cache.get('BLOB', 'old1');
    s.cache.get('BLOB', 'old2');
    await s.clock.advance(31 * S);
    s.cache.set('INSTANCE', 'new1', obj(5));
    expect(await s.evictions('expired')).toBe(2);
    expect(await s.evictions('capacity')).toBe(0);
    expect(s.cache.snapshot().map((e) => e.uuid)).toEqual(['live1', 'live2', 'new1']);
    s.cache.set('INSTANCE', 'new2', obj(6));
    s.cache.set('INSTANCE', 'new3', obj(7));
    expect(await s.evictions('capacity')).toBe(1);
    expect(s.cache.snapshot().map((e) => e.uuid)).toEqual(['live2', 'new1', 'new2', 'new3']);
  });

  for (const [pressure, hot] of [
    ['INSTANCE', 'NODE'],
    ['BLOB', 'NETWORK_INTERFACE'],
  ] as const) {
    it(`sustained ${CACHED_TYPES[pressure]} inserts do not shed the ${CACHED_TYPES[hot]} tier's entries in use`, async () => {
      const s = setup({ capacity: 100 });
      const hotKeys = Array.from({ length: 40 }, (_, i) => `hot${i}`);
      for (const k of hotKeys) s.cache.set(hot, k, obj(1));
      for (let i = 0; i < 10_000; i++) {
        s.cache.set(pressure, `p${i}`, obj(i));
        if (i % 20 === 0) for (const k of hotKeys) expect(s.cache.get(hot, k)).toBeDefined();
        if (i % 1000 === 0) await s.clock.advance(1); // time passes, well within both TTLs
      }
      for (const k of hotKeys) expect(s.cache.has(hot, k), k).toBe(true);
      expect(s.cache.entryCount(CACHED_TYPES[hot])).toBe(40);
      expect(s.cache.entryCount(CACHED_TYPES[pressure])).toBe(60);
      expect(await s.evictions('capacity')).toBe(10_000 - 60);
      expect(s.cache.queuedRecords()).toBeLessThan(2 * 100 + 1024 + 2);
      await expectOccupancyTrue(s);
    });
  }

  it('keeps the expiry queues bounded when one key is overwritten over and over', () => {
    const { cache } = setup();
    for (let i = 0; i < 20_000; i++) cache.set('NAMESPACE', 'same', obj(i));
    expect(cache.size).toBe(1);
    expect(cache.queuedRecords()).toBeLessThanOrEqual(2 * 1 + 1024 + 1);
  });
});

describe('occupancy gauge', () => {
  it('stays exact through inserts, hits, overwrites, lazy expiry on read, scrapes, capacity, writes, invalidations and clear', async () => {
    const s = setup({ capacity: 6 });
    for (let i = 0; i < 3; i++) s.cache.set('INSTANCE', `i${i}`, obj(i));
    for (let i = 0; i < 3; i++) s.cache.set('ARTIFACT', `a${i}`, obj(i));
    await expectOccupancyTrue(s);
    expect(await s.gauge('immutable')).toBe(3);
    expect(await s.gauge('upgradeable')).toBe(3);

    s.cache.get('INSTANCE', 'i0');
    s.cache.set('INSTANCE', 'i0', obj(9)); // overwrite
    await expectOccupancyTrue(s);

    await s.clock.advance(30 * S); // the artifacts expire
    expect(s.cache.get('ARTIFACT', 'a0')).toBeUndefined(); // dropped on the read path
    expect(s.cache.entryCount('upgradeable')).toBe(2);
    expect(counted(s.cache, 'upgradeable')).toBe(2);
    await expectOccupancyTrue(s); // the scrape drops the other two
    expect(await s.gauge('upgradeable')).toBe(0);
    expect(await s.evictions('expired')).toBe(3);

    for (let i = 3; i < 7; i++) s.cache.set('IPAM', `p${i}`, obj(i)); // 3 + 4 > 6: one capacity eviction
    expect(await s.evictions('capacity')).toBe(1);
    await expectOccupancyTrue(s);
    expect(await s.gauge('immutable')).toBe(6);

    s.cache.evict('IPAM', 'p3');
    s.cache.invalidate('IPAM', 'p4');
    await expectOccupancyTrue(s);
    expect(await s.gauge('immutable')).toBe(4);

    s.cache.clear();
    await expectOccupancyTrue(s);
    expect(await s.gauge('immutable')).toBe(0);
  });

  it('sums the caches that share a registry, and new caches never collide on metric names', async () => {
    const registry = new Registry();
    const a = new StaticObjectCache({ clock: new FakeClock(), metrics: cacheMetrics(registry) });
    const b = new StaticObjectCache({ clock: new FakeClock(), metrics: cacheMetrics(registry) });
    a.set('NODE', 'x', obj(1));
    b.set('NODE', 'y', obj(2));
    b.set('NODE', 'z', obj(3));
    expect(metricValue(await registry.metrics(), CLIENT_METRIC_NAMES.cacheEntries, { tier: 'upgradeable' })).toBe(3);
    expect(cacheMetrics(registry)).toBe(cacheMetrics(registry));
    // The process-wide registry: any number of caches and clients.
    expect(() => [new StaticObjectCache(), new StaticObjectCache()]).not.toThrow();
    expect(await clientRegistry.metrics()).toContain(CLIENT_METRIC_NAMES.cacheEntries);
  });
});

describe('settings and the client option', () => {
  it('reads SFDB_CACHE_* with the documented defaults and refuses bad values', () => {
    expect(resolveCacheSettings({})).toEqual({ immutableTtlMs: 300_000, upgradeableTtlMs: 30_000, capacity: 20_000 });
    expect(resolveCacheSettings({ SFDB_CACHE_IMMUTABLE_TTL_MS: '0', SFDB_CACHE_UPGRADEABLE_TTL_MS: '5000', SFDB_CACHE_CAPACITY: '10' })).toEqual({
      immutableTtlMs: 0,
      upgradeableTtlMs: 5000,
      capacity: 10,
    });
    expect(() => resolveCacheSettings({ SFDB_CACHE_CAPACITY: '0' })).toThrow(/SFDB_CACHE_CAPACITY/);
    expect(() => resolveCacheSettings({ SFDB_CACHE_UPGRADEABLE_TTL_MS: '-1' })).toThrow(/SFDB_CACHE_UPGRADEABLE_TTL_MS/);
    expect(() => resolveCacheSettings({ SFDB_CACHE_IMMUTABLE_TTL_MS: '5m' })).toThrow(/SFDB_CACHE_IMMUTABLE_TTL_MS/);
    expect(() => new StaticObjectCache({ capacity: 0 })).toThrow(/capacity/);
  });

  it('shares one process-wide cache among clients that pass none; a client may bring its own or none', () => {
    const own = new StaticObjectCache();
    const clients = [createClient({ targets: '127.0.0.1:1' }), createClient({ targets: '127.0.0.1:1' })];
    const mine = createClient({ targets: '127.0.0.1:1', cache: own });
    const none = createClient({ targets: '127.0.0.1:1', cache: false });
    try {
      expect(clients[0]?.cache).toBe(defaultStaticObjectCache());
      expect(clients[1]?.cache).toBe(defaultStaticObjectCache());
      expect(mine.cache).toBe(own);
      expect(none.cache).toBeUndefined();
    } finally {
      for (const c of [...clients, mine, none]) c.close();
    }
  });

  it('keys entries by type as well as uuid', () => {
    const { cache } = setup();
    const uuid = randomUUID();
    cache.set('INSTANCE', uuid, obj(1));
    expect(cache.get('NETWORK', uuid)).toBeUndefined();
    expect(cache.snapshot()).toEqual([{ type: 'INSTANCE', uuid, tier: 'immutable', expiresAt: 300 * S }]);
  });
});
