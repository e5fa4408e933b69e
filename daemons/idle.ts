// How a daemon waits between two steps and hears of change in its work (the framework's
// idle, see daemon.ts). Its own state — an operator's stop — is not this file's: the
// own-state watcher (own-state.ts) hears it, and a stop ends the idle at once. Both ways
// below end early when the daemon stops or is woken (wake()).
// - feed mode (settings.feed, the default, with a client that has a change waiter): it
//   waits on the change feed — the process's one long-poll — for the topics its work needs
//   (feedTopics()); a change on them ends the idle so step() runs (take() says what
//   changed, all of it or that of some topics). A fallback of the feed ends it too, so step() picks its polling waits. No
//   call while nothing changes.
// - polling (the fallback, and anchor mode): it sleeps until the step's wait is over.
import type { ChangeWaiter, Clock, Subscription } from '@sfdb/client';
import type { WorkChanges } from './types.js';

/** How the idle acts with its daemon. */
export interface IdleCalls {
  readonly clock: Clock;
  /** Aborted when the daemon stops. */
  readonly stopped: AbortSignal;
  /** The topics the daemon's work needs besides its own state (read when it subscribes). */
  workTopics(): string[];
}

/** The most changes kept for the daemon to take; past it the oldest go, and the daemon is told to resync. */
export const MAX_HELD_CHANGES = 1000;

export class DaemonIdle {
  /** Feed mode: the process's change waiter. */
  private waiter: ChangeWaiter | undefined;
  /** Feed mode: the subscription to the work's topics (none when the daemon names none). */
  private sub: Subscription | undefined;
  private work: WorkChanges = { changes: [], resync: false };
  private wakeup = new AbortController();

  constructor(private readonly calls: IdleCalls) {}

  /** Feed mode: subscribes to the work's topics (at start, before the work is first read). */
  subscribe(waiter: ChangeWaiter): void {
    this.waiter = waiter;
    const work = this.calls.workTopics();
    if (work.length > 0) this.sub = waiter.subscribe(work);
  }

  /** Closes the work's subscription (held by an operator, or stopped); the daemon stays in feed mode. */
  close(): void {
    this.sub?.close();
  }

  /** After an operator's hold: subscribed again, and a resync, since what changed on the work's topics meanwhile went unheard. */
  resume(): void {
    if (this.waiter === undefined || this.waiter.closed) return;
    this.subscribe(this.waiter);
    this.work.resync = true;
  }

  /** True in feed mode (subscribed), whether or not the feed serves right now. */
  get usesFeed(): boolean {
    return this.waiter !== undefined;
  }

  /**
   * True while the change feed serves the daemon (else it polls: anchor mode, or the
   * fallback). Not once its client's waiter is closed: a closed subscription's wait
   * returns at once, and the feed idle would spin on it.
   */
  get feedActive(): boolean {
    const waiter = this.waiter;
    return waiter !== undefined && waiter.mode === 'feed' && !waiter.closed;
  }

  /**
   * What changed on the work's topics since the last call: all of them, or (`topics`) only
   * those on these topics — the others stay for whoever takes them (a subclass's own
   * topics beside its base class's), and so does a resync, which only a take of all clears.
   */
  take(topics?: ReadonlySet<string>): WorkChanges {
    const w = this.work;
    if (topics === undefined) {
      this.work = { changes: [], resync: false };
      return w;
    }
    const taken = w.changes.filter((c) => topics.has(c.topic));
    if (taken.length > 0) w.changes = w.changes.filter((c) => !topics.has(c.topic));
    return { changes: taken, resync: w.resync };
  }

  /** Ends the current idle early (a stop, a move of the feed, or a local event). */
  wake(): void {
    this.wakeup.abort();
  }

  /** Waits up to `ms`: on the work's topics while the feed serves, else a plain wait. */
  async wait(ms: number): Promise<void> {
    const end = this.calls.clock.now() + ms;
    // Aborted by a wake-up or a stop; one per idle cycle, so no listener piles up on a
    // long-lived signal.
    const woken = this.wakeup.signal;
    if (this.feedActive && this.sub !== undefined) await this.feedIdle(this.sub, end, woken);
    else if (ms > 0 && !this.calls.stopped.aborted && !woken.aborted) await this.calls.clock.sleep(ms, woken);
    if (woken.aborted && !this.calls.stopped.aborted) this.wakeup = new AbortController();
  }

  /** The feed idle: no database call; a change (or a resync) on the work's topics, or a fallback of the feed, ends it. */
  private async feedIdle(sub: Subscription, end: number, woken: AbortSignal): Promise<void> {
    const clock = this.calls.clock;
    for (;;) {
      if (sub.pending) {
        const batch = sub.take();
        this.work.changes.push(...batch.changes);
        this.work.resync ||= batch.resync;
        // Changes nobody takes (topics no step reads) cannot pile up: the oldest go, and a
        // resync says so.
        if (this.work.changes.length > MAX_HELD_CHANGES) {
          this.work.changes.splice(0, this.work.changes.length - MAX_HELD_CHANGES);
          this.work.resync = true;
        }
        break;
      }
      if (this.calls.stopped.aborted || woken.aborted || !this.feedActive) break;
      const now = clock.now();
      if (now >= end) break;
      await sub.wait(end - now, woken);
    }
  }
}
