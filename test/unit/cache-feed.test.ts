// The static-object cache with the change feed, on a fake clock: invalidation by the change
// feed (a fake WaitForChanges answered by hand), what is dropped when a feed starts covering,
// own updates, and the interest summary. Concurrent readers: cache-coalesced.test.ts.
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import type { FeedCalls, FeedChange, WaitForChangesAnswer, WaitForChangesInput } from '../../client/api/changes.js';
import { COVER_WAIT_MS, changeMayBeNewer } from '../../client/cache-feed.js';
import { StaticObjectCache } from '../../client/cache.js';
import { ChangeWaiter } from '../../client/changes.js';
import { resolveClientOptions } from '../../client/config.js';
import { createClient } from '../../client/index.js';
import { cacheMetrics, feedMetrics } from '../../client/metrics.js';
import type { CallOptions } from '../../client/transport.js';
import { topics } from '../../proto/topics.js';
import { FakeClock, flush } from '../helpers/fake-clock.js';
import { obj, setup } from '../helpers/cache.js';

/** WaitForChanges held until the test answers it. */
class FakeFeed implements FeedCalls {
  readonly calls: { input: WaitForChangesInput; signal?: AbortSignal; answer: (a: Partial<WaitForChangesAnswer>) => void; done: boolean }[] = [];

  waitForChanges(input: WaitForChangesInput, opts?: CallOptions): Promise<WaitForChangesAnswer> {
    return new Promise((resolve, reject) => {
      const call = {
        input,
        signal: opts?.signal,
        done: false,
        answer: (a: Partial<WaitForChangesAnswer>) => {
          call.done = true;
          resolve({ changes: [], cursor: 'c', resync: false, ...a });
        },
      };
      opts?.signal?.addEventListener('abort', () => {
        call.done = true;
        reject(opts.signal?.reason);
      });
      this.calls.push(call);
    });
  }

  get current() {
    const open = this.calls.filter((c) => !c.done);
    expect(open).toHaveLength(1);
    return open[0] as (typeof this.calls)[number];
  }
}

function feedSetup() {
  const s = setup();
  const feed = new FakeFeed();
  const waiter = new ChangeWaiter(feed, { clock: s.clock, metrics: feedMetrics(s.registry) });
  /** The waiter answers its handshake: from now on the cache hears changes. */
  const live = async () => {
    await flush();
    feed.current.answer({ cursor: 'c1' });
    await flush();
  };
  const heard = async (changes: FeedChange[], resync = false) => {
    feed.current.answer({ cursor: 'c2', changes, resync });
    await flush();
  };
  return { ...s, feed, waiter, live, heard };
}

const staticChange = (type: string, id: string, kind: FeedChange['kind'], seq = '1'): FeedChange => ({
  seq,
  topic: topics.staticValues(type),
  objectType: type.toLowerCase(),
  id,
  kind,
});

describe('the change feed', () => {
  it("subscribes to every cached type's static topic; invalidates on update and delete, ignores creates", async () => {
    const s = feedSetup();
    s.cache.attachFeed(s.waiter);
    await s.live();
    expect(s.feed.current.input.topics).toHaveLength(10);
    expect(s.feed.current.input.topics).toContain('static/network_interface');
    s.cache.set('INSTANCE', 'a', obj(1));
    s.cache.set('NETWORK_INTERFACE', 'b', obj(2));
    s.cache.set('BLOB', 'c', obj(3));
    s.cache.set('NODE', 'd', obj(4));
    await s.heard([
      staticChange('INSTANCE', 'a', 'deleted'),
      staticChange('NETWORK_INTERFACE', 'b', 'updated'),
      staticChange('BLOB', 'c', 'created'),
      staticChange('NODE', 'd', 'state'),
      staticChange('NETWORK', 'zz', 'updated'), // not cached: nothing to drop, nothing counted
    ]);
    expect(s.cache.snapshot().map((e) => e.uuid)).toEqual(['c', 'd']);
    expect(await s.evictions('invalidation')).toBe(2);
    s.waiter.close();
  });

  it('clears on resync; a second attach is a no-op; a closed waiter detaches it', async () => {
    const s = feedSetup();
    s.cache.attachFeed(s.waiter);
    s.cache.attachFeed(s.waiter);
    s.cache.attachFeed(new ChangeWaiter(new FakeFeed(), { clock: s.clock, metrics: feedMetrics(s.registry) }));
    expect(s.waiter.snapshot().subscriptions).toBe(1);
    await s.live();
    s.cache.set('INSTANCE', 'a', obj(1));
    s.cache.set('BLOB', 'b', obj(2));
    await s.heard([], true);
    expect(s.cache.size).toBe(0);
    expect(await s.evictions('invalidation')).toBe(0); // a clear is not an eviction

    s.waiter.close();
    expect(s.cache.feedWaiter).toBeUndefined();
    const next = feedSetup();
    s.cache.attachFeed(next.waiter);
    expect(s.cache.feedWaiter).toBe(next.waiter);
    next.waiter.close();
  });

  it('drops what it cached before the feed took its first cursor (a write meanwhile was not heard)', async () => {
    const s = feedSetup();
    s.cache.set('INSTANCE', 'unheard', obj(0));
    s.cache.attachFeed(s.waiter);
    expect(s.cache.size).toBe(0);
    s.cache.set('INSTANCE', 'early', obj(1));
    await s.live();
    expect(s.cache.size).toBe(0);
    s.cache.set('INSTANCE', 'later', obj(2));
    await s.heard([]);
    expect(s.cache.has('INSTANCE', 'later')).toBe(true);
    s.waiter.close();
  });

  it('attaches at the first load (a cache that never loads holds no long-poll); that load waits for the first cursor and its copy stays', async () => {
    const s = feedSetup();
    let asked = 0;
    s.cache.attachFeedOnInsert(() => {
      asked += 1;
      return s.waiter;
    });
    s.cache.get('INSTANCE', 'x');
    await flush();
    expect(asked).toBe(0);
    expect(s.feed.calls).toHaveLength(0);
    let loads = 0;
    const first = s.cache.read('INSTANCE', 'x', async () => {
      loads += 1;
      return obj(1);
    });
    expect(asked).toBe(1);
    expect(s.cache.feedWaiter).toBe(s.waiter);
    await flush();
    expect(loads, 'not issued before the first cursor').toBe(0);
    expect(s.feed.current.input.cursor).toBe(''); // the handshake
    await s.live();
    expect(await first).toEqual(obj(1));
    expect(loads).toBe(1);
    // The second read hits: nothing loaded before the first cursor, so nothing dropped.
    expect(await s.cache.read('INSTANCE', 'x', async () => obj(2))).toEqual(obj(1));
    expect(await s.hits('INSTANCE')).toBe(1);
    expect(await s.clears('feed_start')).toBe(0);
    expect(await s.clears('attach')).toBe(0);
    s.cache.set('INSTANCE', 'y', obj(2));
    expect(asked).toBe(1);
    s.waiter.close();
  });

  it('a load that waited COVER_WAIT_MS in vain goes ahead; its copy (or its answer, if later) goes at the first cursor, counted once; later copies stay', async () => {
    const s = feedSetup();
    s.cache.attachFeedOnInsert(() => s.waiter);
    const releases: ((v: object) => void)[] = [];
    const slow = () => new Promise<object>((r) => releases.push(r));
    const early = s.cache.read('BLOB', 'early', async () => obj(1));
    const inFlight = s.cache.read('BLOB', 'flight', slow);
    await flush();
    expect(releases).toHaveLength(0);
    await s.clock.advance(COVER_WAIT_MS);
    await flush();
    expect(releases, 'issued once the wait ran out').toHaveLength(1);
    expect(await early).toEqual(obj(1));
    expect(s.cache.has('BLOB', 'early')).toBe(true); // served meanwhile (TTL, as before any feed)
    await s.live(); // the first cursor: both were loaded before it
    expect(s.cache.has('BLOB', 'early')).toBe(false);
    releases[0]?.(obj(2));
    expect(await inFlight).toEqual(obj(2));
    expect(s.cache.has('BLOB', 'flight'), 'a load issued before the cursor caches nothing').toBe(false);
    expect(await s.clears('feed_start')).toBe(1);
    expect(await s.evictions('invalidation')).toBe(0);
    await s.cache.read('BLOB', 'early', async () => obj(3));
    await s.heard([]);
    expect(s.cache.get('BLOB', 'early'), 'loaded after the cursor: covered').toEqual(obj(3));
    expect(await s.clears('feed_start')).toBe(1);
    s.waiter.close();
  });

  it('attaching to a waiter already on the feed drops what was held before (counted), and covers loads from then on', async () => {
    const s = feedSetup();
    const other = s.waiter.subscribe(['queue/n/work']);
    await s.live();
    s.cache.set('NODE', 'held', obj(1));
    s.cache.attachFeedOnInsert(() => s.waiter);
    await s.cache.read('NODE', 'n', async () => obj(2));
    expect(s.cache.has('NODE', 'held')).toBe(false);
    expect(s.cache.has('NODE', 'n')).toBe(true);
    expect(await s.clears('attach')).toBe(1);
    await flush();
    await s.heard([], true);
    expect(s.cache.size).toBe(0);
    expect(await s.clears('resync')).toBe(1);
    s.cache.set('NODE', 'm', obj(3));
    s.cache.clear();
    expect(await s.clears('caller')).toBe(1);
    other.close();
    s.waiter.close();
  });

  it("a client with the feed on attaches its cache to db.changes on the first insert, and detaches on close", () => {
    for (const feed of [true, false]) {
      const own = new StaticObjectCache({ clock: new FakeClock(), metrics: cacheMetrics(new Registry()) });
      const db = createClient({ targets: '127.0.0.1:1', cache: own, feed });
      try {
        expect(db.options.feed).toBe(feed);
        expect(own.feedWaiter).toBeUndefined();
        own.set('NODE', 'n', obj(1));
        if (feed) expect(own.feedWaiter).toBe(db.changes);
        else expect(own.feedWaiter).toBeUndefined();
      } finally {
        db.close();
      }
      expect(own.feedWaiter).toBeUndefined();
      expect(db.changes.closed).toBe(true);
    }
  });

  it('reads SFDB_CHANGE_FEED as an on/off word: on when unset or blank, off for off, false, no or 0', () => {
    expect(resolveClientOptions({}, {}).feed).toBe(true);
    expect(resolveClientOptions({}, { SFDB_CHANGE_FEED: ' ' }).feed).toBe(true);
    for (const off of ['false', '0', 'off', 'OFF', 'no']) expect(resolveClientOptions({}, { SFDB_CHANGE_FEED: off }).feed, off).toBe(false);
    for (const on of ['true', '1', 'on', 'yes']) expect(resolveClientOptions({}, { SFDB_CHANGE_FEED: on }).feed, on).toBe(true);
    expect(() => resolveClientOptions({}, { SFDB_CHANGE_FEED: 'disabled' })).toThrow(/SFDB_CHANGE_FEED: "disabled"/);
    expect(resolveClientOptions({ feed: true }, { SFDB_CHANGE_FEED: '0' }).feed).toBe(true);
  });
});

describe("a change older than the copy: this process's own update", () => {
  it('only the change of its own update, heard by a copy read after that update answered, is proven not newer', () => {
    expect(changeMayBeNewer({ seq: '41', kind: 'updated' }, '41')).toBe(false);
    expect(changeMayBeNewer({ seq: '42', kind: 'updated' }, '41'), 'a later update').toBe(true);
    expect(changeMayBeNewer({ seq: '40', kind: 'updated' }, '41'), 'another update: evict when in doubt').toBe(true);
    expect(changeMayBeNewer({ seq: '41', kind: 'deleted' }, '41'), 'a delete').toBe(true);
    expect(changeMayBeNewer({ seq: '41', kind: 'updated' }, undefined), 'no own update before the read').toBe(true);
    expect(changeMayBeNewer({ seq: '0', kind: 'updated' }, '0'), 'a tier that does not say').toBe(true);
  });

  it('keeps a copy read after its own update when that change arrives; any other change evicts it', async () => {
    const s = feedSetup();
    s.cache.attachFeed(s.waiter);
    await s.live();
    let loads = 0;
    const load = (n: number) => async () => {
      loads += 1;
      return obj(n);
    };
    await s.cache.read('BLOB', 'b', load(1));
    s.cache.evict('BLOB', 'b', 'write', '7'); // its own update answered: change 7
    await s.cache.read('BLOB', 'b', load(2)); // the re-read
    await s.heard([staticChange('BLOB', 'b', 'updated', '7')]);
    expect(s.cache.get('BLOB', 'b'), 'its own change: kept').toEqual(obj(2));
    await s.heard([staticChange('BLOB', 'b', 'updated', '9')]);
    expect(s.cache.has('BLOB', 'b'), 'a later change: evicted').toBe(false);
    expect(await s.evictions('invalidation')).toBe(1);

    // A copy read after the update, then the delete of that seq (never seen for one object, but a delete always evicts).
    s.cache.evict('NODE', 'n', 'write', '11');
    await s.cache.read('NODE', 'n', load(3));
    await s.heard([staticChange('NODE', 'n', 'deleted', '11')]);
    expect(s.cache.has('NODE', 'n')).toBe(false);

    // A copy read before its own update is dropped by the update itself; one stored by hand (no read after the update) evicts.
    s.cache.evict('BLOB', 'c', 'write', '13');
    s.cache.set('BLOB', 'c', obj(4));
    await s.heard([staticChange('BLOB', 'c', 'updated', '13')]);
    expect(s.cache.has('BLOB', 'c')).toBe(false);

    // A failed update or a delete says no seq: the copies read after it skip nothing.
    s.cache.evict('BLOB', 'd', 'write', '15');
    s.cache.evict('BLOB', 'd', 'write');
    await s.cache.read('BLOB', 'd', load(5));
    await s.heard([staticChange('BLOB', 'd', 'updated', '15')]);
    expect(s.cache.has('BLOB', 'd')).toBe(false);

    // Once its change was delivered, copies read later are not marked: a re-delivery of it evicts (a cost, not a risk).
    s.cache.evict('BLOB', 'e', 'write', '17');
    await s.heard([staticChange('BLOB', 'e', 'updated', '17')]);
    await s.cache.read('BLOB', 'e', load(6));
    await s.heard([staticChange('BLOB', 'e', 'updated', '17')]);
    expect(s.cache.has('BLOB', 'e')).toBe(false);

    // A resync clears it all, the own updates remembered too.
    s.cache.evict('BLOB', 'f', 'write', '19');
    await s.heard([], true);
    await s.cache.read('BLOB', 'f', load(7));
    await s.heard([staticChange('BLOB', 'f', 'updated', '19')]);
    expect(s.cache.has('BLOB', 'f')).toBe(false);
    expect(loads).toBe(6);
    s.waiter.close();
  });

  it('keeps a load in flight that was issued after its own update when that change arrives; a load issued before is dropped', async () => {
    const s = feedSetup();
    s.cache.attachFeed(s.waiter);
    await s.live();
    const releases: ((v: object) => void)[] = [];
    const load = () => new Promise<object>((r) => releases.push(r));
    const before = s.cache.read('ARTIFACT', 'a', load); // issued before the update answered
    s.cache.evict('ARTIFACT', 'a', 'write', '21');
    const after = s.cache.read('ARTIFACT', 'a', load);
    await s.heard([staticChange('ARTIFACT', 'a', 'updated', '21')]);
    releases[1]?.(obj(2));
    releases[0]?.(obj(1));
    expect(await after).toEqual(obj(2));
    expect(await before).toEqual(obj(1));
    expect(s.cache.get('ARTIFACT', 'a')).toEqual(obj(2));
    s.waiter.close();
  });

  it('remembers no own update while no feed is attached (nothing would be heard to skip)', async () => {
    const s = feedSetup();
    s.cache.evict('BLOB', 'x', 'write', '23');
    await s.cache.read('BLOB', 'x', async () => obj(1));
    s.cache.attachFeed(s.waiter); // drops what it held: nothing covered it
    await s.live();
    await s.cache.read('BLOB', 'x', async () => obj(2));
    await s.heard([staticChange('BLOB', 'x', 'updated', '23')]);
    expect(s.cache.has('BLOB', 'x')).toBe(false);
    s.waiter.close();
  });
});

describe('what the interest summary names', () => {
  it('every entry, entries that only expired, and loads in flight; not what a write, an invalidation or a clear dropped', async () => {
    const s = setup({ upgradeableTtlMs: 1000 });
    s.cache.set('BLOB', 'kept', obj(1));
    s.cache.set('BLOB', 'expires', obj(2));
    s.cache.set('BLOB', 'written', obj(3));
    s.cache.set('BLOB', 'invalidated', obj(4));
    let release: (v: object) => void = () => {};
    const loading = s.cache.read('NODE', 'loading', () => new Promise<object>((r) => (release = r)));
    await s.clock.advance(500);
    s.cache.set('BLOB', 'kept', obj(1)); // refreshed: outlives the others
    await s.clock.advance(600);
    s.cache.sweepExpired();
    expect(s.cache.has('BLOB', 'expires')).toBe(false);
    s.cache.evict('BLOB', 'written');
    s.cache.invalidate('BLOB', 'invalidated');
    expect(new Set(s.cache.heldIds())).toEqual(new Set(['kept', 'expires', 'loading']));
    // An invalidation of an id held only by memory forgets it too.
    s.cache.invalidate('BLOB', 'expires');
    expect(new Set(s.cache.heldIds())).toEqual(new Set(['kept', 'loading']));
    release(obj(5));
    await loading;
    s.cache.clear();
    expect([...s.cache.heldIds()]).toEqual([]);
  });
});
