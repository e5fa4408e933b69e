// LeaseKeeper: hold a lease for a singleton job. It tries to acquire on an interval while
// standing by, renews at a third of the lease while holding, and stops acting as holder
// on its own monotonic deadline — the send time of the last confirmed acquire or renew,
// plus the lease, minus a safety margin — so a holder cut off from the database stops
// before the lease can pass to another.
//
// With a change waiter (`changes`, feed mode) a standby does not ask every standbyEveryMs:
// it waits for the lease's topic (a release or a new holder publishes it; a new holder's
// takeover, kind `state`, needs no question: the lease is held). When the tier
// also announces a lease that ends unrenewed (AcquireLease's `expiry_announced`), the
// topic is all it waits for, with a long backstop (standbyBackstopMs); from a tier that
// does not, it also asks when the lease as last answered could end (its remaining time,
// at most ttlMs). Either wait has a random part of standbyEveryMs added, and a standby
// that heard the topic waits a random part of a second, so that the standbys of a large
// cluster do not all ask at once. In fallback it asks on the interval, as without a waiter.
import { status } from '@grpc/grpc-js';
import type { Lease__Output } from '@sfdb/proto/gen/sfdb/v1/Lease';
import { systemClock } from '@sfdb/proto/runtime/clock';
import type { Clock } from '@sfdb/proto/runtime/clock';
import type { ChangeBatch, ChangeWaiter, Subscription } from './changes.js';
import { Fenced } from './errors.js';
import type { LeaseFence } from './fence.js';
import { topics } from '@sfdb/proto/topics';
import type { CallOptions } from './transport.js';

/**
 * The lease's topic says only that a holder took it (kind `state`, from a tier that tells a
 * takeover from a release or an announced end, which are `updated`): a standby has nothing
 * to ask. Changes of one id are coalesced, the latest kind winning.
 */
function takenOnly(batch: ChangeBatch): boolean {
  return !batch.resync && batch.changes.length > 0 && batch.changes.every((c) => c.kind === 'state');
}

/** The calls a LeaseKeeper makes (a DatabaseClient has them). */
export interface LeaseCalls {
  acquireLease(name: string, holder: string, ttlMs: number, opts?: CallOptions): Promise<{ acquired: boolean; lease: Lease__Output; expiryAnnounced?: boolean }>;
  renewLease(name: string, holder: string, token: string, ttlMs: number, opts?: CallOptions): Promise<Lease__Output>;
  releaseLease(name: string, holder: string, token: string, opts?: CallOptions): Promise<boolean>;
}

export interface LeaseKeeperOptions {
  name: string;
  /** Who holds it: unique per process (e.g. `${daemon}@${node}/${pid}`). */
  holder: string;
  ttlMs: number;
  /** Renewal interval while holding (default ttl/3). */
  renewEveryMs?: number;
  /** Acquire attempt interval while standing by (default ttl/3). */
  standbyEveryMs?: number;
  /**
   * On the feed, from a tier that announces lease ends: the longest a standby waits for the
   * lease's topic before it asks anyway (default 10 × ttl).
   */
  standbyBackstopMs?: number;
  /** How long before the lease's end the keeper stops acting as holder (default ttl/5). */
  safetyMs?: number;
  clock?: Clock;
  onAcquired?: (token: string) => void;
  onLost?: (reason: string) => void;
  onError?: (err: unknown) => void;
  /** The client's change waiter: standbys wait for the lease's topic instead of asking on the interval. */
  changes?: ChangeWaiter;
  /** A number in [0, 1) (tests inject their own). */
  random?: () => number;
}

export type LeaseKeeperState = 'idle' | 'standby' | 'holding' | 'stopped';

export class LeaseKeeper {
  private state: LeaseKeeperState = 'idle';
  private token: string | undefined;
  /** Monotonic time until which we may act as holder. */
  private deadline = 0;
  private loop: Promise<void> | undefined;
  private readonly abort = new AbortController();
  private readonly clock: Clock;
  private readonly renewEveryMs: number;
  private readonly standbyEveryMs: number;
  private readonly standbyBackstopMs: number;
  private readonly safetyMs: number;
  private acquisitions = 0;
  private losses = 0;
  private errors = 0;
  private attempts = 0;
  private readonly random: () => number;
  private sub: Subscription | undefined;

  constructor(
    private readonly db: LeaseCalls,
    private readonly options: LeaseKeeperOptions,
  ) {
    if (options.ttlMs < 100) throw new Error('ttlMs must be at least 100');
    this.clock = options.clock ?? systemClock;
    this.renewEveryMs = options.renewEveryMs ?? Math.floor(options.ttlMs / 3);
    this.standbyEveryMs = options.standbyEveryMs ?? Math.floor(options.ttlMs / 3);
    this.standbyBackstopMs = options.standbyBackstopMs ?? 10 * options.ttlMs;
    this.safetyMs = options.safetyMs ?? Math.floor(options.ttlMs / 5);
    this.random = options.random ?? Math.random;
    if (this.renewEveryMs + this.safetyMs >= options.ttlMs) throw new Error('renewEveryMs + safetyMs must be shorter than ttlMs');
  }

  /** Starts contending for the lease. */
  start(): void {
    if (this.loop) throw new Error('start() once');
    this.state = 'standby';
    if (this.options.changes && !this.options.changes.closed) this.sub = this.options.changes.subscribe([topics.lease(this.options.name)]);
    this.loop = this.run();
  }

  /** True while we hold the lease and our own deadline has not passed. */
  isHolder(): boolean {
    return this.state === 'holding' && this.clock.now() < this.deadline;
  }

  /** The lease to present with fenced calls, while we hold it (undefined when not: see requireFence). */
  fence(): LeaseFence | undefined {
    return this.isHolder() && this.token !== undefined
      ? { name: this.options.name, holder: this.options.holder, token: this.token }
      : undefined;
  }

  /**
   * The fence for a write made as holder: `db.setObjectState(..., { fence: keeper.requireFence() })`.
   * Throws `Fenced` when we do not hold the lease (by our own deadline), so a write meant to
   * be fenced is never sent unfenced; the tier refuses it too once another holds the lease.
   */
  requireFence(): LeaseFence {
    const fence = this.fence();
    // FAILED_PRECONDITION, as the tier would answer; the operation is the lease's, no RPC was made.
    if (!fence) throw new Fenced(`lease ${this.options.name}: ${this.options.holder} does not hold it (state ${this.state})`, status.FAILED_PRECONDITION, 'requireFence');
    return fence;
  }

  /** Milliseconds we may still act as holder (0 when not holding). */
  remainingMs(): number {
    return this.isHolder() ? Math.max(0, this.deadline - this.clock.now()) : 0;
  }

  private lose(reason: string): void {
    this.state = 'standby';
    this.token = undefined;
    this.deadline = 0;
    this.losses += 1;
    this.options.onLost?.(reason);
  }

  private async run(): Promise<void> {
    const { name, holder, ttlMs } = this.options;
    const signal = this.abort.signal;
    /** A standby's wait for the topic, as its last answer set it. */
    let standbyWait = this.standbyEveryMs;
    /** False after the topic said only that another holder took the lease: nothing to ask. */
    let ask = true;
    while (!signal.aborted) {
      if (this.state === 'holding' && this.clock.now() >= this.deadline) {
        this.lose('no renewal confirmed before our deadline');
      }
      const sentAt = this.clock.now();
      if (this.state !== 'holding' && !ask) {
        ask = true;
      } else if (this.state !== 'holding') {
        standbyWait = this.standbyEveryMs;
        try {
          this.attempts += 1;
          const r = await this.db.acquireLease(name, holder, ttlMs, { deadlineMs: this.standbyEveryMs || 1 });
          // Held by another: on the feed, nothing can change before its end but a release
          // or a takeover, which the lease's topic tells; the end too, where the tier
          // announces it.
          if (!r.acquired && this.sub !== undefined && this.options.changes?.mode === 'feed') {
            const until = r.expiryAnnounced === true ? this.standbyBackstopMs : Math.min(Number(r.lease.remainingMs) || 0, ttlMs);
            standbyWait = until + Math.floor(this.random() * this.standbyEveryMs);
          }
          if (r.acquired && !signal.aborted) {
            this.state = 'holding';
            this.token = r.lease.token;
            this.deadline = sentAt + ttlMs - this.safetyMs;
            this.acquisitions += 1;
            this.options.onAcquired?.(r.lease.token);
          }
        } catch (err) {
          this.errors += 1;
          this.options.onError?.(err);
        }
      } else {
        try {
          // Never wait for an answer past our deadline: by then we are no longer holder.
          const budget = Math.max(1, Math.floor(this.deadline - sentAt));
          await this.db.renewLease(name, holder, this.token as string, ttlMs, { deadlineMs: budget });
          if (this.state === 'holding') this.deadline = sentAt + ttlMs - this.safetyMs;
        } catch (err) {
          if (err instanceof Fenced) {
            this.lose('the lease was taken over (fenced)');
          } else {
            this.errors += 1;
            this.options.onError?.(err);
          }
        }
      }
      if (signal.aborted) break;
      if (this.state === 'holding') {
        this.sub?.take(); // our own takeover, heard: nothing to act on
        await this.clock.sleep(Math.min(this.renewEveryMs, Math.max(0, this.deadline - this.clock.now())), signal);
      } else if (this.sub !== undefined) {
        await this.sub.wait(standbyWait, signal);
        if (this.sub.pending && !signal.aborted) {
          if (takenOnly(this.sub.take())) {
            ask = false; // another holder took it: wait on
            continue;
          }
          // Released or ended: ask soon, but not every standby at the same instant; one that
          // hears meanwhile that a quicker standby took it does not ask at all.
          const until = this.clock.now() + Math.floor(this.random() * Math.min(1000, this.standbyEveryMs));
          for (let left = until - this.clock.now(); left > 0 && !signal.aborted; left = until - this.clock.now()) {
            await this.sub.wait(left, signal);
            if (this.sub.pending && takenOnly(this.sub.take())) {
              ask = false;
              break;
            }
          }
        }
      } else {
        await this.clock.sleep(standbyWait, signal);
      }
    }
  }

  /** Stops contending; releases the lease if we hold it. */
  async stop(): Promise<void> {
    if (this.state === 'stopped') return;
    this.abort.abort();
    await this.loop;
    this.sub?.close();
    const token = this.token;
    const held = this.isHolder();
    this.state = 'stopped';
    this.token = undefined;
    if (held && token !== undefined) {
      try {
        await this.db.releaseLease(this.options.name, this.options.holder, token);
      } catch (err) {
        this.options.onError?.(err);
      }
    }
  }

  snapshot(): {
    state: LeaseKeeperState;
    token: string | undefined;
    remainingMs: number;
    acquisitions: number;
    losses: number;
    errors: number;
    attempts: number;
  } {
    return {
      state: this.state,
      token: this.token,
      remainingMs: this.remainingMs(),
      acquisitions: this.acquisitions,
      losses: this.losses,
      errors: this.errors,
      attempts: this.attempts,
    };
  }
}
