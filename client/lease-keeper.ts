// LeaseKeeper: hold a lease for a singleton job. It tries to acquire on an interval while
// standing by, renews at a third of the lease while holding, and stops acting as holder
// on its own monotonic deadline — the send time of the last confirmed acquire or renew,
// plus the lease, minus a safety margin — so a holder cut off from the database stops
// before the lease can pass to another.
import type { Lease__Output } from '../proto/gen/sfdb/v1/Lease.js';
import { systemClock } from './clock.js';
import type { Clock } from './clock.js';
import { Fenced } from './errors.js';
import type { CallOptions } from './transport.js';

/** The calls a LeaseKeeper makes (a DatabaseClient has them). */
export interface LeaseCalls {
  acquireLease(name: string, holder: string, ttlMs: number, opts?: CallOptions): Promise<{ acquired: boolean; lease: Lease__Output }>;
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
  /** How long before the lease's end the keeper stops acting as holder (default ttl/5). */
  safetyMs?: number;
  clock?: Clock;
  onAcquired?: (token: string) => void;
  onLost?: (reason: string) => void;
  onError?: (err: unknown) => void;
}

export interface LeaseFence {
  name: string;
  holder: string;
  token: string;
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
  private readonly safetyMs: number;
  private acquisitions = 0;
  private losses = 0;
  private errors = 0;

  constructor(
    private readonly db: LeaseCalls,
    private readonly options: LeaseKeeperOptions,
  ) {
    if (options.ttlMs < 100) throw new Error('ttlMs must be at least 100');
    this.clock = options.clock ?? systemClock;
    this.renewEveryMs = options.renewEveryMs ?? Math.floor(options.ttlMs / 3);
    this.standbyEveryMs = options.standbyEveryMs ?? Math.floor(options.ttlMs / 3);
    this.safetyMs = options.safetyMs ?? Math.floor(options.ttlMs / 5);
    if (this.renewEveryMs + this.safetyMs >= options.ttlMs) throw new Error('renewEveryMs + safetyMs must be shorter than ttlMs');
  }

  /** Starts contending for the lease. */
  start(): void {
    if (this.loop) throw new Error('start() once');
    this.state = 'standby';
    this.loop = this.run();
  }

  /** True while we hold the lease and our own deadline has not passed. */
  isHolder(): boolean {
    return this.state === 'holding' && this.clock.now() < this.deadline;
  }

  /** The lease to present with fenced calls, while we hold it. */
  fence(): LeaseFence | undefined {
    return this.isHolder() && this.token !== undefined
      ? { name: this.options.name, holder: this.options.holder, token: this.token }
      : undefined;
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
    while (!signal.aborted) {
      if (this.state === 'holding' && this.clock.now() >= this.deadline) {
        this.lose('no renewal confirmed before our deadline');
      }
      const sentAt = this.clock.now();
      if (this.state !== 'holding') {
        try {
          const r = await this.db.acquireLease(name, holder, ttlMs, { deadlineMs: this.standbyEveryMs || 1 });
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
      const wait =
        this.state === 'holding'
          ? Math.min(this.renewEveryMs, Math.max(0, this.deadline - this.clock.now()))
          : this.standbyEveryMs;
      await this.clock.sleep(wait, signal);
    }
  }

  /** Stops contending; releases the lease if we hold it. */
  async stop(): Promise<void> {
    if (this.state === 'stopped') return;
    this.abort.abort();
    await this.loop;
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

  snapshot(): { state: LeaseKeeperState; token: string | undefined; remainingMs: number; acquisitions: number; losses: number; errors: number } {
    return {
      state: this.state,
      token: this.token,
      remainingMs: this.remainingMs(),
      acquisitions: this.acquisitions,
      losses: this.losses,
      errors: this.errors,
    };
  }
}
