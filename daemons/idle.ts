// How a daemon waits between two steps and hears of change (the framework's idle, see
// daemon.ts). Both ways end early when the daemon stops or is woken (wake()).
// - feed mode (settings.feed, the default, with a client that has a change waiter): it
//   waits on the change feed — the process's one long-poll — for its own daemon state
//   and the topics its work needs (feedTopics()); a change on its state topic makes it
//   read its state (an operator stop is noticed in milliseconds), a change on its work's
//   topics ends the idle so step() runs (takeChanges() says what changed). No poll runs.
// - polling (the fallback, and anchor mode): it checks a local abort flag every tick
//   (free) and reads its own daemon state at most every daemonStatePollMs, so an
//   operator stop is noticed within that interval plus one tick. When the feed becomes
//   unavailable the daemon falls back to this at once, and returns to the feed (with a
//   re-read of everything: resync) when it recovers.
import type { ChangeWaiter, Clock, Subscription } from '@sfdb/client';
import { topics } from '@sfdb/proto/topics';
import type { DaemonSettings } from './settings.js';
import type { StatePoll } from './state-poll.js';
import type { DaemonDb, WorkChanges } from './types.js';

/** What the idle needs of its daemon. */
export interface IdleOwner {
  readonly name: string;
  readonly nodeUuid: string;
  readonly db: DaemonDb;
  readonly clock: Clock;
  readonly settings: DaemonSettings;
  readonly statePoll: StatePoll;
}

/** How the idle acts with its daemon. */
export interface IdleCalls {
  /** Aborted when the daemon stops. */
  readonly stopped: AbortSignal;
  /** Reads the daemon's own state (and acts on an operator stop). */
  pollState(): Promise<unknown>;
  /** The topics the daemon's work needs besides its own state (read when it subscribes). */
  workTopics(): string[];
}

export class DaemonIdle {
  /** The daemon's own state topic. */
  private readonly ownTopic: string;
  /** Feed mode: the subscription to the daemon's state topic and its work's topics. */
  private sub: Subscription | undefined;
  private work: WorkChanges = { changes: [], resync: false };
  private wakeup = new AbortController();

  constructor(
    private readonly owner: IdleOwner,
    private readonly calls: IdleCalls,
  ) {
    this.ownTopic = topics.daemonState(owner.nodeUuid, owner.name);
  }

  /**
   * Feed mode: subscribes, and waits for the waiter's first answer. The daemon's own
   * reports (RUNNING, STOPPED: kind 'reported') do not wake its poll; an operator's write
   * or any other caller's does.
   */
  async subscribe(waiter: ChangeWaiter): Promise<void> {
    this.sub = waiter.subscribe([this.ownTopic, ...this.calls.workTopics()], undefined, { quietReports: [this.ownTopic] });
    await waiter.ready();
  }

  /** Closes the subscription (held by an operator, or stopped); the daemon stays in feed mode. */
  close(): void {
    this.sub?.close();
  }

  /** After an operator's hold: subscribed again, and a resync, since what changed on the work's topics meanwhile went unheard. */
  async resume(): Promise<void> {
    const waiter = this.owner.db.changes;
    if (this.sub === undefined || waiter === undefined) return;
    await this.subscribe(waiter);
    this.work.resync = true;
  }

  /** True in feed mode (subscribed), whether or not the feed serves right now. */
  get usesFeed(): boolean {
    return this.sub !== undefined;
  }

  /**
   * True while the change feed serves the daemon (else it polls: anchor mode, or the
   * fallback). Not once its client's waiter is closed: a closed subscription's wait
   * returns at once, and the feed idle would spin on it.
   */
  get feedActive(): boolean {
    const waiter = this.owner.db.changes;
    return this.sub !== undefined && waiter?.mode === 'feed' && !waiter.closed;
  }

  /** What changed on the work's topics since the last call. */
  take(): WorkChanges {
    const w = this.work;
    this.work = { changes: [], resync: false };
    return w;
  }

  /** Ends the current idle early (a stop, or a local event). */
  wake(): void {
    this.wakeup.abort();
  }

  /** Waits up to `ms`: on the feed while it serves, else (or once it falls back mid-wait) polling. */
  async wait(ms: number): Promise<void> {
    const end = this.owner.clock.now() + ms;
    // Aborted by a wake-up or a stop; one per idle cycle, so no listener piles up on a
    // long-lived signal.
    const woken = this.wakeup.signal;
    if (this.feedActive) await this.feedIdle(this.sub as Subscription, end, woken);
    else await this.pollingIdle(end, woken);
    if (woken.aborted && !this.calls.stopped.aborted) this.wakeup = new AbortController();
  }

  /**
   * The feed idle: no database call while nothing changes. A change (or a resync) on the
   * daemon's own state topic reads its state once, unless it is the change of the daemon's
   * own RUNNING; one on its work topics ends the idle.
   * A fallback of the feed also ends it, so step() picks the polling waits.
   */
  private async feedIdle(sub: Subscription, end: number, woken: AbortSignal): Promise<void> {
    const p = this.owner;
    for (;;) {
      if (sub.pending) {
        const batch = sub.take();
        // The change of the daemon's own RUNNING is not news: no read for it.
        const news = batch.changes.filter((c) => c.topic === this.ownTopic && !p.statePoll.isOwnChange(c.seq));
        const work = batch.changes.filter((c) => c.topic !== this.ownTopic);
        if (batch.resync || news.length > 0) await this.calls.pollState();
        if (work.length > 0 || batch.resync) {
          this.work.changes.push(...work);
          this.work.resync ||= batch.resync;
          break;
        }
      }
      if (this.calls.stopped.aborted || woken.aborted) break;
      if (!this.feedActive) {
        // The feed fell back: end this idle so step() runs with the polling waits, and
        // read our state at the first poll.
        p.statePoll.dueNow();
        break;
      }
      const now = p.clock.now();
      if (now >= end) break;
      await sub.wait(end - now, woken);
    }
  }

  /**
   * The polling idle: waits until `end` in ticks of idleTickMs, each a free check of the
   * local abort flag, and reads the daemon state when its poll is due.
   */
  private async pollingIdle(end: number, woken: AbortSignal): Promise<void> {
    const p = this.owner;
    for (;;) {
      if (p.clock.now() >= p.statePoll.nextAt) await this.calls.pollState();
      if (this.calls.stopped.aborted || woken.aborted) break;
      const now = p.clock.now();
      if (now >= end) break;
      await p.clock.sleep(Math.min(p.settings.idleTickMs, end - now, Math.max(0, p.statePoll.nextAt - now)), woken);
    }
  }
}
