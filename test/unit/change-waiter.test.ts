// The ChangeWaiter with a fake clock and a fake WaitForChanges the test answers by hand:
// one long-poll for the union of topics, dispatch by topic, the cursor carried (and kept
// across cancellations), resync, the fallback to polling and back, and a close() that
// leaves nothing pending.
import { status } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { DatabaseError, DatabaseUnavailable } from '../../client/errors.js';
import { CLIENT_METRIC_NAMES } from '../../client/metrics.js';
import { MAX_TOPICS_PER_WAIT, topics } from '../../proto/topics.js';
import { flush } from '../helpers/fake-clock.js';
import { A, change, qa, qb, setup } from '../helpers/fake-feed.js';

describe('the long-poll', () => {
  it('starts with a handshake at cursor "", then carries the cursor and the timeout', async () => {
    const s = setup({ waitTimeoutMs: 20_000 });
    await flush();
    expect(s.feed.calls).toHaveLength(0); // no subscription, no poll
    const sub = s.waiter.subscribe([qa]);
    const ready = s.waiter.ready();
    await flush();
    expect(s.waiter.mode).toBe('starting');
    // The handshake's answer moves the mode and delivers nothing, even if it carried changes.
    s.feed.current.answer({ cursor: 'c1', changes: [change(qa, 'x')] });
    expect(await ready).toBe('feed');
    await flush();
    expect(sub.pending).toBe(false);
    expect(s.feed.current.input).toEqual({ topics: [qa], cursor: 'c1', timeoutMs: 20_000 });
    s.feed.current.answer({ cursor: 'c2', changes: [change(qa, 'y')] });
    await flush();
    expect(s.feed.current.input.cursor).toBe('c2');
    expect(sub.take()).toEqual({ changes: [change(qa, 'y')], resync: false });
    s.feed.current.answer({ cursor: 'c3' }); // a timeout: nothing changed
    await flush();
    expect(s.feed.current.input.cursor).toBe('c3');
    expect(s.waiter.snapshot()).toMatchObject({ mode: 'feed', cursor: 'c3', topics: 1, subscriptions: 1, waits: 3, errors: 0 });
    expect(await s.metric(CLIENT_METRIC_NAMES.feedWaits)).toBe(3);
    expect(await s.metric(CLIENT_METRIC_NAMES.feedWakeups)).toBe(2);
    expect(await s.metric(CLIENT_METRIC_NAMES.feedMode, { mode: 'feed' })).toBe(1);
    s.waiter.close();
  });

  it('in a process with several clients, the answers read in one turn are all delivered before any is asked again', async () => {
    const log: string[] = [];
    const clients = ['a', 'b'].map((name) => {
      const s = setup();
      const poll = s.feed.waitForChanges.bind(s.feed);
      s.feed.waitForChanges = (input, opts) => {
        log.push(`poll ${name}`);
        return poll(input, opts);
      };
      s.waiter.subscribe([qa], () => log.push(`deliver ${name}`));
      return s;
    });
    for (const s of clients) await s.handshake();
    log.length = 0;
    // Both answers arrive in the same turn of the event loop (one read of the sockets).
    for (const s of clients) s.feed.current.answer({ cursor: 'c2', changes: [change(qa, 'i1')] });
    await flush();
    expect(log).toEqual(['deliver a', 'deliver b', 'poll a', 'poll b']);
    for (const s of clients) s.waiter.close();
  });

  it("dispatches by topic: a subscription to node A's queue never sees node B's", async () => {
    const s = setup();
    const onA = s.waiter.subscribe([qa]);
    const onB = s.waiter.subscribe([qb]);
    const both: unknown[] = [];
    s.waiter.subscribe([qa, qb], (batch) => both.push(batch));
    await s.handshake();
    expect([...s.feed.current.input.topics].sort()).toEqual([qa, qb].sort());
    s.feed.current.answer({ cursor: 'c2', changes: [change(qa, 'i1'), change(qa, 'i2')] });
    await flush();
    expect(onA.take().changes.map((c) => c.id)).toEqual(['i1', 'i2']);
    expect(onB.pending).toBe(false);
    expect(onB.take()).toEqual({ changes: [], resync: false });
    expect(both).toEqual([{ changes: [change(qa, 'i1'), change(qa, 'i2')], resync: false }]);
    expect(onA.pending).toBe(false); // a listener subscription buffers nothing either
    s.waiter.close();
  });

  it('deduplicates per (topic, id) until taken, the latest kind winning', async () => {
    const s = setup();
    const sub = s.waiter.subscribe([qa, qb]);
    await s.handshake();
    s.feed.current.answer({ cursor: 'c2', changes: [change(qa, 'x', 'created', '5'), change(qb, 'x', 'created', '6')] });
    await flush();
    s.feed.current.answer({ cursor: 'c3', changes: [change(qa, 'x', 'deleted', '9'), change(qa, 'y', 'state', '10')] });
    await flush();
    expect(sub.take()).toEqual({
      changes: [change(qb, 'x', 'created', '6'), change(qa, 'x', 'deleted', '9'), change(qa, 'y', 'state', '10')],
      resync: false,
    });
    expect(sub.take()).toEqual({ changes: [], resync: false });
    s.waiter.close();
  });

  it('cancels and re-issues the poll, at the same cursor, when the union of topics changes', async () => {
    const s = setup();
    const first = s.waiter.subscribe([qa]);
    await s.handshake();
    const poll = s.feed.current;
    s.waiter.subscribe([qa]); // no new topic: the poll stays
    await flush();
    expect(s.feed.current).toBe(poll);
    const second = s.waiter.subscribe([qb]);
    await flush();
    expect(poll.signal?.aborted).toBe(true);
    expect(s.feed.current.input).toMatchObject({ topics: [qa, qb], cursor: 'c1' });
    second.close();
    await flush();
    expect(s.feed.current.input).toMatchObject({ topics: [qa], cursor: 'c1' });
    first.close(); // qa is still held by the other subscription to it
    await flush();
    expect(s.feed.current.input).toMatchObject({ topics: [qa], cursor: 'c1' });
    expect(s.waiter.snapshot()).toMatchObject({ mode: 'feed', errors: 0, topics: 1, subscriptions: 1 });
    expect(await s.metric(CLIENT_METRIC_NAMES.feedErrors, { code: 'UNKNOWN' })).toBe(0);
    s.waiter.close();
  });

  it('drops an answer that arrived before a subscription joined but was read after: asked again from the same cursor with the new topic', async () => {
    const s = setup();
    const first = s.waiter.subscribe([qa]);
    await s.handshake();
    // The answer is in (its promise settled) when a subscription joins in the same turn:
    // its cursor c2 was taken for [qa] only, so moving to it would skip qb's changes up to c2.
    s.feed.current.answer({ cursor: 'c2', changes: [change(qa, 'x')] });
    const second = s.waiter.subscribe([qb]);
    await flush();
    expect(s.feed.current.input).toMatchObject({ topics: [qa, qb], cursor: 'c1' });
    expect(first.pending, 'delivered by the next answer instead').toBe(false);
    s.feed.current.answer({ cursor: 'c3', changes: [change(qa, 'x'), change(qb, 'y')] });
    await flush();
    expect(first.take().changes).toEqual([change(qa, 'x')]);
    expect(second.take().changes).toEqual([change(qb, 'y')]);
    s.waiter.close();
  });

  it('lets subscriptions made microtasks apart (a daemon starting) join one poll: none is sent and then cancelled', async () => {
    const s = setup();
    s.waiter.subscribe([qa]);
    for (let i = 0; i < 5; i++) await Promise.resolve();
    s.waiter.subscribe([qb]);
    await flush();
    expect(s.feed.calls).toHaveLength(1);
    expect([...s.feed.current.input.topics].sort()).toEqual([qa, qb].sort());
    expect(s.feed.current.signal?.aborted).toBe(false);
    s.waiter.close();
  });

  it('does not cancel a handshake when the union changes: the poll after it asks for every topic from its cursor', async () => {
    const s = setup();
    const first = s.waiter.subscribe([qa]);
    const ready = s.waiter.ready();
    await flush();
    const handshake = s.feed.current;
    expect(handshake.input).toMatchObject({ topics: [qa], cursor: '' });
    // A daemon's start: its own subscription arrives while the handshake is out.
    const second = s.waiter.subscribe([qb]);
    await flush();
    expect(handshake.signal?.aborted).toBe(false);
    expect(s.feed.calls).toHaveLength(1);
    handshake.answer({ cursor: 'c1' });
    expect(await ready).toBe('feed');
    await flush();
    expect(s.feed.calls).toHaveLength(2);
    expect(s.feed.current.input).toMatchObject({ topics: [qa, qb], cursor: 'c1' });
    // What changed on the later topic after that cursor reaches its subscriber.
    s.feed.current.answer({ cursor: 'c2', changes: [change(qb, 'i1')] });
    await flush();
    expect(second.take().changes.map((c) => c.id)).toEqual(['i1']);
    expect(first.pending).toBe(false);
    s.waiter.close();
  });

  it('cancels a handshake when its last subscription closes', async () => {
    const s = setup();
    const sub = s.waiter.subscribe([qa]);
    await flush();
    const handshake = s.feed.current;
    sub.close();
    await flush();
    expect(handshake.signal?.aborted).toBe(true);
    expect(s.feed.open).toBe(0);
    s.waiter.close();
  });

  it('holds no poll while there is no subscription, and resumes at its cursor', async () => {
    const s = setup();
    const sub = s.waiter.subscribe([qa]);
    await s.handshake();
    const poll = s.feed.current;
    sub.close();
    await flush();
    expect(poll.signal?.aborted).toBe(true);
    expect(s.feed.open).toBe(0);
    s.waiter.subscribe([qb]);
    await flush();
    expect(s.feed.current.input).toMatchObject({ topics: [qb], cursor: 'c1' });
    s.waiter.close();
  });

  it('delivers resync to every subscription', async () => {
    const s = setup();
    const a = s.waiter.subscribe([qa]);
    const b = s.waiter.subscribe([qb]);
    const pushed: unknown[] = [];
    s.waiter.subscribe([qb], (batch) => pushed.push(batch));
    await s.handshake();
    s.feed.current.answer({ cursor: 'c9', resync: true });
    await flush();
    expect(a.take()).toEqual({ changes: [], resync: true });
    expect(b.take()).toEqual({ changes: [], resync: true });
    expect(pushed).toEqual([{ changes: [], resync: true }]);
    expect(s.feed.current.input.cursor).toBe('c9');
    expect(await s.metric(CLIENT_METRIC_NAMES.feedResyncs)).toBe(1);
    s.waiter.close();
  });

  it('refuses a subscription that would take the union past 64 topics', () => {
    const s = setup();
    const many = Array.from({ length: MAX_TOPICS_PER_WAIT }, (_, i) => topics.queue(A, `q${i}`));
    s.waiter.subscribe(many);
    expect(() => s.waiter.subscribe([qb])).toThrow(/at most 64/);
    expect(() => s.waiter.subscribe([many[0] as string])).not.toThrow(); // no new topic
    expect(() => s.waiter.subscribe(['Not A Topic'])).toThrow(/not a topic/);
    expect(s.waiter.snapshot().topics).toBe(64);
    s.waiter.close();
  });
});

describe('wait()', () => {
  it('resolves when something arrives, when the mode changes, when ms pass, or on abort; waits share a waker until it is spent', async () => {
    const s = setup();
    const sub = s.waiter.subscribe([qa]);
    let woke = false;
    const onMode = sub.wait(60_000).then(() => (woke = true));
    await s.handshake(); // starting → feed
    await onMode;
    expect(woke).toBe(true);

    woke = false;
    const onChange = sub.wait(60_000).then(() => (woke = true));
    await flush();
    expect(woke).toBe(false);
    s.feed.current.answer({ cursor: 'c2', changes: [change(qa, 'x')] });
    await onChange;
    await sub.wait(60_000); // pending: at once
    sub.take();

    const timed = sub.wait(1000);
    await s.clock.advance(1000);
    await timed;
    const ac = new AbortController();
    const aborted = sub.wait(60_000, ac.signal);
    ac.abort();
    await aborted;
    expect(s.clock.waiting).toBe(0);

    // The waits of a subscription share one waker until something spends it: after the
    // abort above, the next wait waits its time, not at once, and still wakes on a change.
    let waited = false;
    const next = sub.wait(60_000).then(() => (waited = true));
    await s.clock.advance(30_000);
    expect(waited).toBe(false);
    s.feed.current.answer({ cursor: 'c3', changes: [change(qa, 'y')] });
    await next;
    sub.take();
    // Two waits at once: one's signal ends both (the other's owner looks again).
    const ac2 = new AbortController();
    let other = false;
    const mine = sub.wait(60_000, ac2.signal);
    const theirs = sub.wait(60_000).then(() => (other = true));
    ac2.abort();
    await mine;
    await theirs;
    expect(other).toBe(true);
    expect(s.clock.waiting).toBe(0);
    s.waiter.close();
  });
});

describe('fallback', () => {
  it('falls back at once when the tier predates the feed (UNIMPLEMENTED)', async () => {
    const s = setup();
    const sub = s.waiter.subscribe([qa]);
    const waiting = sub.wait(60_000);
    await flush();
    s.feed.current.fail(new DatabaseError('WaitForChanges: unimplemented', status.UNIMPLEMENTED, 'WaitForChanges'));
    expect(await s.waiter.ready()).toBe('fallback');
    await waiting; // the owner is told to poll
    expect(s.feed.open).toBe(0);
    expect(await s.metric(CLIENT_METRIC_NAMES.feedFallbacks)).toBe(1);
    expect(await s.metric(CLIENT_METRIC_NAMES.feedErrors, { code: 'UNIMPLEMENTED' })).toBe(1);
    expect(await s.metric(CLIENT_METRIC_NAMES.feedMode, { mode: 'fallback' })).toBe(1);
    s.waiter.close();
  });

  it('falls back after errorsBeforeFallback consecutive failures, backing off between them', async () => {
    const s = setup({ errorsBeforeFallback: 3 });
    s.waiter.subscribe([qa]);
    const unavailable = () => new DatabaseUnavailable('WaitForChanges: down', status.UNAVAILABLE, 'WaitForChanges');
    for (let i = 0; i < 2; i++) {
      await flush();
      s.feed.current.fail(unavailable());
      await flush();
      expect(s.waiter.mode).toBe('starting');
      expect(s.feed.open).toBe(0); // backing off
      await s.clock.advance(10_000);
    }
    s.feed.current.fail(unavailable());
    await flush();
    expect(s.waiter.mode).toBe('fallback');
    expect(await s.metric(CLIENT_METRIC_NAMES.feedErrors, { code: 'UNAVAILABLE' })).toBe(3);
    expect(s.waiter.snapshot().errors).toBe(3);
    s.waiter.close();
  });

  it('an answer resets the count of consecutive failures', async () => {
    const s = setup({ errorsBeforeFallback: 2 });
    s.waiter.subscribe([qa]);
    await s.handshake();
    for (let i = 0; i < 3; i++) {
      s.feed.current.fail(new DatabaseUnavailable('down', status.UNAVAILABLE, 'WaitForChanges'));
      await s.clock.advance(10_000);
      s.feed.current.answer({ cursor: `c${i + 2}` });
      await flush();
    }
    expect(s.waiter.mode).toBe('feed');
    s.waiter.close();
  });

  it('tries the feed again every retryFeedMs, and on success resyncs every subscription', async () => {
    const s = setup({ retryFeedMs: 30_000 });
    const sub = s.waiter.subscribe([qa]);
    const pushed: unknown[] = [];
    s.waiter.subscribe([qb], (batch) => pushed.push(batch));
    await s.handshake();
    s.feed.current.fail(new DatabaseError('unimplemented', status.UNIMPLEMENTED, 'WaitForChanges'));
    await flush();
    expect(s.waiter.mode).toBe('fallback');
    await s.clock.advance(29_999);
    expect(s.feed.open).toBe(0);
    await s.clock.advance(1);
    // Still failing: stays in fallback, tries again a period later.
    expect(s.feed.current.input.cursor).toBe('');
    s.feed.current.fail(new DatabaseUnavailable('down', status.UNAVAILABLE, 'WaitForChanges'));
    await flush();
    expect(s.waiter.mode).toBe('fallback');
    await s.clock.advance(29_999);
    expect(s.feed.open).toBe(0);
    await s.clock.advance(1);
    expect(s.feed.current.input).toMatchObject({ cursor: '', topics: [qa, qb] });
    s.feed.current.answer({ cursor: 'c50' });
    await flush();
    expect(s.waiter.mode).toBe('feed');
    expect(sub.take()).toEqual({ changes: [], resync: true });
    expect(pushed).toEqual([{ changes: [], resync: true }]);
    expect(s.feed.current.input.cursor).toBe('c50');
    expect(await s.metric(CLIENT_METRIC_NAMES.feedResyncs)).toBe(1);
    expect(await s.metric(CLIENT_METRIC_NAMES.feedFallbacks)).toBe(1);
    s.waiter.close();
  });
});

describe('close()', () => {
  it('cancels the poll in flight, wakes every wait, and leaves no timer', async () => {
    const s = setup();
    const sub = s.waiter.subscribe([qa]);
    let closedHook = 0;
    s.waiter.onClose(() => (closedHook += 1));
    await s.handshake();
    const poll = s.feed.current;
    const waiting = sub.wait(60_000);
    s.waiter.close();
    s.waiter.close(); // idempotent
    await waiting;
    await flush();
    expect(poll.signal?.aborted).toBe(true);
    expect(s.feed.open).toBe(0);
    expect(s.clock.waiting).toBe(0);
    expect(closedHook).toBe(1);
    expect(s.waiter.snapshot()).toMatchObject({ subscriptions: 0, topics: 0 });
    expect(await s.metric(CLIENT_METRIC_NAMES.feedMode, { mode: 'feed' })).toBe(0); // closed waiters are not counted
    expect(() => s.waiter.subscribe([qa])).toThrow(/closed/);
  });

  it('leaves no timer when closed while backing off or waiting to retry the feed', async () => {
    for (const failure of [status.UNAVAILABLE, status.UNIMPLEMENTED]) {
      const s = setup();
      s.waiter.subscribe([qa]);
      await flush();
      s.feed.current.fail(new DatabaseError('x', failure, 'WaitForChanges'));
      await flush();
      expect(s.clock.waiting).toBe(1); // the backoff, or the wait for the next try
      s.waiter.close();
      await flush();
      expect(s.clock.waiting).toBe(0);
      expect(s.feed.open).toBe(0);
      expect(await s.waiter.ready()).toBe(failure === status.UNIMPLEMENTED ? 'fallback' : 'starting');
    }
  });
});
