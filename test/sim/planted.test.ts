// The simulation catches a regression of each duty other than the operator stop
// (harness/sim/): each test plants one into the real code for its own duration (a spy on
// a prototype, restored after) and asks that within K seeds the run reports that duty.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CacheEntries } from '../../client/cache-entries.js';
import { LeaseKeeper } from '../../client/lease-keeper.js';
import { QueuesDaemon } from '../../daemons/queues.js';
import { firstViolation, printed } from './helpers.js';

/** Seeds each planted regression may take to show. */
const K = 30;

/** A prototype's private members, reached as the regression reaches them. */
type Loose = Record<string, (...args: never[]) => unknown>;

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the simulation catches a planted regression', () => {
  it('item-lost: a failed job neither released nor resolved FAILED', async () => {
    // QueuesDaemon.fail: says "released" without telling the tier.
    vi.spyOn(QueuesDaemon.prototype as unknown as Loose, 'fail').mockResolvedValue('released');
    const { violation, seeds } = await firstViolation('item-lost', 1, 1 + K);
    expect(violation, `no item-lost within ${K} seeds`).toBeDefined();
    expect(printed(violation!)).toMatch(/item .* after \d+ attempts?/);
    expect(seeds).toBeLessThanOrEqual(K);
  });

  it('item-fence: a job whose renewal is fenced goes on working', async () => {
    // QueuesDaemon.renewWhileRunning: a Fenced renewal no longer aborts the job.
    vi.spyOn(QueuesDaemon.prototype as unknown as Loose, 'renewWhileRunning').mockImplementation(async function (
      this: { clock: { sleep(ms: number, s: AbortSignal): Promise<void> }; settings: { claimLeaseMs: number }; db: { renewClaim(id: string, epoch: string, ms: number): Promise<unknown> } },
      ...args: unknown[]
    ) {
      const [id, epoch, , done] = args as [string, string, AbortController, AbortSignal];
      for (;;) {
        await this.clock.sleep(Math.floor(this.settings.claimLeaseMs / 3), done);
        if (done.aborted) return;
        await this.db.renewClaim(id, epoch, this.settings.claimLeaseMs).catch(() => undefined);
      }
    } as never);
    const { violation } = await firstViolation('item-fence', 1, 1 + K);
    expect(violation, `no item-fence within ${K} seeds`).toBeDefined();
    expect(violation!.message).toMatch(/did its work after RenewClaim answered that the claim moved on/);
  });

  it("lease-two-holders: a keeper whose own deadline runs a lease past the tier's", async () => {
    // LeaseKeeper: its safety margin turned into a full extra lease (deadline = sent + 2 × ttl).
    const start = LeaseKeeper.prototype.start;
    vi.spyOn(LeaseKeeper.prototype, 'start').mockImplementation(function (this: LeaseKeeper) {
      const self = this as unknown as { safetyMs: number; options: { ttlMs: number } };
      self.safetyMs = -self.options.ttlMs;
      start.call(this);
    });
    const { violation } = await firstViolation('lease-two-holders', 1, 1 + K);
    expect(violation, `no lease-two-holders within ${K} seeds`).toBeDefined();
    expect(violation!.message).toMatch(/hold/);
  });

  it('cache-stale: cached entries kept twenty times their TTL', async () => {
    const insert = CacheEntries.prototype.insert;
    vi.spyOn(CacheEntries.prototype, 'insert').mockImplementation(function (this: CacheEntries, key, tier, ttl, value, generation, readAfter) {
      insert.call(this, key, tier, ttl * 20, value, generation, readAfter);
    });
    const { violation } = await firstViolation('cache-stale', 1, 1 + K);
    expect(violation, `no cache-stale within ${K} seeds`).toBeDefined();
    expect(violation!.message).toMatch(/blob served at version \d+, though version \d+ was written/);
  });
});
