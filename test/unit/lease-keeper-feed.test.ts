// LeaseKeeper on the change feed, with a fake clock, a fake WaitForChanges and a scripted
// lease service: a standby asks when the lease as answered could end (plus its jitter), or,
// from a tier that announces lease ends, only at its long backstop; soon after the lease's
// topic says it was released or ended, but not after a takeover; in fallback it asks on
// the interval.
import { describe, expect, it } from 'vitest';
import type { LeaseCalls } from '../../client/lease-keeper.js';
import { LeaseKeeper } from '../../client/lease-keeper.js';
import { topics } from '../../proto/topics.js';
import { flush } from '../helpers/fake-clock.js';
import { change, setup as feedSetup } from '../helpers/fake-feed.js';

class HeldElsewhere implements LeaseCalls {
  acquires: number[] = [];
  free = false;
  constructor(
    private readonly now: () => number,
    private readonly remainingMs: number,
    private readonly expiryAnnounced = false,
  ) {}

  async acquireLease(_name: string, holder: string) {
    this.acquires.push(this.now());
    const lease = { name: 'job', holder: this.free ? holder : 'other', token: '3', expiresAt: '', remainingMs: String(this.remainingMs) };
    return { acquired: this.free, lease, expiryAnnounced: this.expiryAnnounced };
  }

  async renewLease(_name: string, holder: string) {
    return { name: 'job', holder, token: '3', expiresAt: '', remainingMs: '3000' };
  }

  async releaseLease() {
    return true;
  }
}

/** A standby on a feed already answering (cursor c1); random() is `r`. */
async function standby(r: number, remainingMs = 2500, expiryAnnounced = false) {
  const s = feedSetup();
  const leases = new HeldElsewhere(() => s.clock.now(), remainingMs, expiryAnnounced);
  const keeper = new LeaseKeeper(leases, { name: 'job', holder: 'me', ttlMs: 3000, clock: s.clock, changes: s.waiter, random: () => r });
  keeper.start();
  await s.handshake();
  return { ...s, leases, keeper };
}

describe('a standby on the change feed', () => {
  it('asks again when the lease could end, plus its share of the interval, not every third of the lease', async () => {
    const s = await standby(0.5);
    expect(s.feed.current.input.topics).toContain(topics.lease('job'));
    // A try at start, one more when the feed began to serve, then at the lease's end (2500) + 500.
    expect(s.leases.acquires).toEqual([0, 0]);
    await s.clock.advance(2999);
    expect(s.leases.acquires).toEqual([0, 0]);
    await s.clock.advance(1);
    expect(s.leases.acquires).toEqual([0, 0, 3000]);
    await s.keeper.stop();
  });

  it('asks soon after a release is heard, and takes the lease', async () => {
    const s = await standby(0.25);
    await s.clock.advance(1000); // waiting for the lease's end (2500 + 250)
    expect(s.leases.acquires).toEqual([0, 0]);
    s.leases.free = true;
    s.feed.current.answer({ cursor: 'c2', changes: [{ ...change(topics.lease('job'), 'job'), objectType: 'lease' }] });
    await flush();
    await s.clock.advance(249);
    expect(s.leases.acquires).toEqual([0, 0]);
    await s.clock.advance(1);
    expect(s.leases.acquires).toEqual([0, 0, 1250]);
    expect(s.keeper.isHolder()).toBe(true);
    await s.keeper.stop();
  });

  it('from a tier that announces lease ends: does not ask at the end, only when the topic says so, or at its backstop', async () => {
    const s = await standby(0.5, 2500, true);
    expect(s.leases.acquires).toEqual([0, 0]);
    // The backstop is 10 × ttl (30 s) + half the interval (500).
    await s.clock.advance(30_499);
    expect(s.leases.acquires).toEqual([0, 0]);
    await s.clock.advance(1);
    expect(s.leases.acquires).toEqual([0, 0, 30_500]);
    // The lease ended unrenewed: the tier announces it on the topic; the standby asks within its jitter and takes it.
    await s.clock.advance(5_000);
    s.leases.free = true;
    s.feed.current.answer({ cursor: 'c2', changes: [{ ...change(topics.lease('job'), 'job'), objectType: 'lease' }] });
    await flush();
    await s.clock.advance(500);
    expect(s.leases.acquires).toEqual([0, 0, 30_500, 36_000]);
    expect(s.keeper.isHolder()).toBe(true);
    await s.keeper.stop();
  });

  it('does not ask when the topic says another holder took the lease (kind state), and asks when it may be free', async () => {
    const s = await standby(0.5, 2500, true);
    const lease = (kind: 'state' | 'updated', cursor: string) =>
      s.feed.current.answer({ cursor, changes: [{ ...change(topics.lease('job'), 'job', kind), objectType: 'lease' }] });
    await s.clock.advance(1000);
    lease('state', 'c2'); // a takeover: held again
    await flush();
    await s.clock.advance(5000);
    expect(s.leases.acquires).toEqual([0, 0]);
    lease('updated', 'c3'); // ended or released: asked about within the jitter (500)
    await flush();
    await s.clock.advance(500);
    expect(s.leases.acquires).toEqual([0, 0, 6500]);
    await s.keeper.stop();
  });

  it('a standby that hears within its jitter that a quicker one took the lease does not ask', async () => {
    const s = await standby(0.8, 2500, true);
    await s.clock.advance(1000);
    s.feed.current.answer({ cursor: 'c2', changes: [{ ...change(topics.lease('job'), 'job', 'updated'), objectType: 'lease' }] });
    await flush();
    await s.clock.advance(300); // 800 of jitter; another standby asked sooner and took it
    s.feed.current.answer({ cursor: 'c3', changes: [{ ...change(topics.lease('job'), 'job', 'state'), objectType: 'lease' }] });
    await flush();
    await s.clock.advance(10_000);
    expect(s.leases.acquires).toEqual([0, 0]);
    // Its wait starts again from the takeover (1300): the backstop, 30 s + 800.
    await s.clock.advance(32_100 - 11_300 - 1);
    expect(s.leases.acquires).toEqual([0, 0]);
    await s.clock.advance(1);
    expect(s.leases.acquires).toEqual([0, 0, 32_100]);
    await s.keeper.stop();
  });

  it('asks on the interval while the feed is not serving', async () => {
    const s = await standby(0.5);
    await s.clock.advance(1000);
    s.feed.current.fail(Object.assign(new Error('unimplemented'), { code: 12 }));
    await flush();
    expect(s.waiter.mode).toBe('fallback');
    expect(s.leases.acquires).toEqual([0, 0, 1000]); // the mode change ended the wait
    await s.clock.advance(2000);
    expect(s.leases.acquires).toEqual([0, 0, 1000, 2000, 3000]);
    await s.keeper.stop();
  });
});
