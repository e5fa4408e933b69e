// The static-object cache's concurrent readers: one load per key in flight, shared errors,
// and never an answer loaded before an eviction (split from cache-feed.test.ts).
import { describe, expect, it } from 'vitest';
import { obj, setup } from '../helpers/cache.js';

describe('coalesced reads', () => {
  it('shares one load among concurrent misses of a key, and counts the readers that joined', async () => {
    const s = setup();
    let loads = 0;
    let release: (v: object) => void = () => {};
    const load = () => {
      loads += 1;
      return new Promise<object>((r) => (release = r));
    };
    const readers = [s.cache.read('NETWORK', 'k', load), s.cache.read('NETWORK', 'k', load), s.cache.read('NETWORK', 'k', load)];
    const otherKey = s.cache.read('NETWORK', 'other', async () => obj(9));
    expect(loads).toBe(1);
    release(obj(1));
    const answers = await Promise.all(readers);
    expect(answers[1]).toBe(answers[0]);
    expect(answers[2]).toBe(answers[0]);
    await otherKey;
    expect(await s.coalesced('NETWORK')).toBe(2);
    expect(await s.misses('NETWORK')).toBe(4);
    // Done: the next read is a hit, the one after the load a fresh load.
    expect(await s.cache.read('NETWORK', 'k', load)).toBe(answers[0]);
    expect(loads).toBe(1);
  });

  it('shares an error too, and caches nothing', async () => {
    const s = setup();
    let loads = 0;
    let fail: (e: Error) => void = () => {};
    const load = () => {
      loads += 1;
      return new Promise<object>((_r, reject) => (fail = reject));
    };
    const a = s.cache.read('BLOB', 'k', load);
    const b = s.cache.read('BLOB', 'k', load);
    fail(new Error('unavailable'));
    await expect(a).rejects.toThrow('unavailable');
    await expect(b).rejects.toThrow('unavailable');
    expect(loads).toBe(1);
    expect(s.cache.size).toBe(0);
    await s.cache.read('BLOB', 'k', async () => obj(2)); // not stuck: a fresh load
    expect(s.cache.has('BLOB', 'k')).toBe(true);
  });

  it('a reader arriving after an eviction during a load starts its own and never gets the old value', async () => {
    for (const interrupt of ['write', 'invalidation', 'clear'] as const) {
      const s = setup();
      const releases: ((v: object) => void)[] = [];
      const load = () => new Promise<object>((r) => releases.push(r));
      const before = s.cache.read('NODE', 'k', load);
      if (interrupt === 'write') s.cache.evict('NODE', 'k');
      else if (interrupt === 'invalidation') s.cache.invalidate('NODE', 'k');
      else s.cache.clear();
      const after = s.cache.read('NODE', 'k', load);
      expect(releases, interrupt).toHaveLength(2);
      releases[1]?.(obj(2)); // the new value, read after the write
      releases[0]?.(obj(1)); // the old one answers last
      expect(await after).toEqual(obj(2));
      expect(await before).toEqual(obj(1));
      expect(s.cache.get('NODE', 'k'), interrupt).toEqual(obj(2));
      expect(await s.coalesced('NODE')).toBe(0);
    }
  });
});
