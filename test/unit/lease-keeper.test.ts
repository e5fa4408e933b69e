// LeaseKeeper timing, with a fake clock and a scripted lease service.
import { describe, expect, it } from 'vitest';
import { DatabaseUnavailable, Fenced } from '../../client/errors.js';
import { LeaseKeeper } from '../../client/lease-keeper.js';
import type { LeaseCalls } from '../../client/lease-keeper.js';
import { FakeClock, flush } from '../helpers/fake-clock.js';

type Answer = 'ok' | 'unavailable' | 'fenced' | 'hang' | 'taken';

class ScriptedLeases implements LeaseCalls {
  acquires: number[] = [];
  renews: number[] = [];
  releases = 0;
  acquireAnswer: Answer = 'ok';
  renewAnswer: Answer = 'ok';
  constructor(private readonly clock: FakeClock) {}

  private lease(holder: string) {
    return { name: 'job', holder, token: '7', expiresAt: '', remainingMs: '0' };
  }

  async acquireLease(_name: string, holder: string) {
    this.acquires.push(this.clock.now());
    if (this.acquireAnswer === 'unavailable') throw new DatabaseUnavailable('down', 14, 'AcquireLease');
    if (this.acquireAnswer === 'taken') return { acquired: false, lease: this.lease('someone-else') };
    return { acquired: true, lease: this.lease(holder) };
  }

  async renewLease(_name: string, holder: string) {
    this.renews.push(this.clock.now());
    if (this.renewAnswer === 'unavailable') throw new DatabaseUnavailable('down', 14, 'RenewLease');
    if (this.renewAnswer === 'fenced') throw new Fenced('taken', 9, 'RenewLease');
    if (this.renewAnswer === 'hang') return new Promise<never>(() => {});
    return this.lease(holder);
  }

  async releaseLease() {
    this.releases += 1;
    return true;
  }
}

function setup(opts: { ttlMs?: number } = {}) {
  const clock = new FakeClock();
  const leases = new ScriptedLeases(clock);
  const lost: { at: number; reason: string }[] = [];
  const keeper = new LeaseKeeper(leases, {
    name: 'job',
    holder: 'me',
    ttlMs: opts.ttlMs ?? 3000,
    clock,
    onLost: (reason) => lost.push({ at: clock.now(), reason }),
  });
  return { clock, leases, keeper, lost };
}

describe('LeaseKeeper', () => {
  it('acquires at once, then renews every third of the lease', async () => {
    const { clock, leases, keeper } = setup();
    keeper.start();
    await flush();
    expect(keeper.isHolder()).toBe(true);
    expect(keeper.fence()).toEqual({ name: 'job', holder: 'me', token: '7' });
    await clock.advance(3000);
    expect(leases.acquires).toEqual([0]);
    expect(leases.renews).toEqual([1000, 2000, 3000]);
    expect(keeper.isHolder()).toBe(true);
    await keeper.stop();
    expect(leases.releases).toBe(1);
  });

  it('stops acting as holder on its own deadline, before the lease ends, when renewals fail', async () => {
    const { clock, leases, keeper, lost } = setup();
    keeper.start();
    await flush();
    await clock.advance(1000); // renewed at 1000: deadline 1000 + 3000 - 600 = 3400
    leases.renewAnswer = 'unavailable';
    leases.acquireAnswer = 'unavailable';
    await clock.advance(2399);
    expect(keeper.isHolder()).toBe(true);
    expect(keeper.remainingMs()).toBe(1);
    await clock.advance(1);
    expect(keeper.isHolder()).toBe(false);
    // The database would still count the lease as ours until at least 1000 + 3000.
    expect(clock.now()).toBeLessThan(4000);
    expect(lost).toEqual([{ at: 3400, reason: 'no renewal confirmed before our deadline' }]);
    await keeper.stop();
    expect(leases.releases).toBe(0);
  });

  it('is not holder past its deadline even while a renewal hangs', async () => {
    const { clock, leases, keeper } = setup();
    keeper.start();
    await flush();
    leases.renewAnswer = 'hang';
    await clock.advance(2399); // the renewal sent at 1000 never answers
    expect(keeper.isHolder()).toBe(true);
    await clock.advance(1); // deadline 0 + 3000 - 600 = 2400
    expect(keeper.isHolder()).toBe(false);
    expect(keeper.fence()).toBeUndefined();
  });

  it('requireFence() hands the fence while holding and throws Fenced from its deadline on, never undefined', async () => {
    const { clock, leases, keeper } = setup();
    expect(() => keeper.requireFence()).toThrow(Fenced); // idle: never held
    keeper.start();
    await flush();
    expect(keeper.requireFence()).toEqual({ name: 'job', holder: 'me', token: '7' });
    leases.renewAnswer = 'unavailable';
    leases.acquireAnswer = 'unavailable';
    await clock.advance(2399);
    expect(keeper.requireFence()).toEqual({ name: 'job', holder: 'me', token: '7' });
    await clock.advance(1); // no renewal confirmed: deadline 0 + 3000 - 600 = 2400
    expect(() => keeper.requireFence()).toThrow(Fenced);
    await keeper.stop();
    expect(() => keeper.requireFence()).toThrow(/does not hold it \(state stopped\)/);
  });

  it('drops the lease at once when a renewal is fenced, then stands by', async () => {
    const { clock, leases, keeper, lost } = setup();
    keeper.start();
    await flush();
    leases.renewAnswer = 'fenced';
    leases.acquireAnswer = 'taken';
    await clock.advance(1000);
    expect(keeper.isHolder()).toBe(false);
    expect(lost.map((l) => l.at)).toEqual([1000]);
    await clock.advance(3000);
    expect(leases.acquires).toEqual([0, 2000, 3000, 4000]);
  });

  it('stands by without a tight loop: one acquire attempt per interval while another holds', async () => {
    const { clock, leases, keeper } = setup();
    leases.acquireAnswer = 'taken';
    keeper.start();
    await clock.advance(10_000);
    expect(leases.acquires).toEqual([0, 1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 9000, 10_000]);
    expect(keeper.isHolder()).toBe(false);
    leases.acquireAnswer = 'ok';
    await clock.advance(1000);
    expect(keeper.isHolder()).toBe(true);
    await keeper.stop();
  });

  it('refuses settings that leave no room to renew', () => {
    const clock = new FakeClock();
    expect(() => new LeaseKeeper(new ScriptedLeases(clock), { name: 'j', holder: 'h', ttlMs: 1000, renewEveryMs: 900, clock })).toThrow(
      /shorter than ttlMs/,
    );
  });
});
