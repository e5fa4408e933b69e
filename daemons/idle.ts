// How a daemon waits between two steps (the framework's idle, see daemon.ts): on the
// change feed, or polling. Both end early when the daemon stops or is woken (`woken`).
import type { Clock, FeedChange, Subscription } from '@sfdb/client';
import type { DaemonSettings } from './settings.js';
import type { StatePoll } from './state-poll.js';

/** What the idles need of their daemon. */
export interface IdleParts {
  readonly clock: Clock;
  readonly settings: DaemonSettings;
  readonly statePoll: StatePoll;
  /** The daemon's own state topic. */
  readonly ownTopic: string;
  readonly stopping: boolean;
  /** True while the change feed serves the daemon. */
  readonly feedActive: boolean;
  /** Reads the daemon's own state (and acts on an operator stop). */
  pollState(): Promise<unknown>;
  /** Keeps what changed on the work's topics for takeChanges(). */
  addWork(changes: FeedChange[], resync: boolean): void;
}

/**
 * The feed idle: no database call while nothing changes. A change (or a resync) on the
 * daemon's own state topic reads its state once, unless it is the change of the daemon's
 * own RUNNING; one on its work topics ends the idle.
 * A fallback of the feed also ends it, so step() picks the polling waits.
 */
export async function feedIdle(p: IdleParts, sub: Subscription, end: number, woken: AbortSignal): Promise<void> {
  for (;;) {
    if (sub.pending) {
      const batch = sub.take();
      // The change of the daemon's own RUNNING is not news: no read for it.
      const news = batch.changes.filter((c) => c.topic === p.ownTopic && !p.statePoll.isOwnChange(c.seq));
      const work = batch.changes.filter((c) => c.topic !== p.ownTopic);
      if (batch.resync || news.length > 0) await p.pollState();
      if (work.length > 0 || batch.resync) {
        p.addWork(work, batch.resync);
        break;
      }
    }
    if (p.stopping || woken.aborted) break;
    if (!p.feedActive) {
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
export async function pollingIdle(p: IdleParts, end: number, woken: AbortSignal): Promise<void> {
  for (;;) {
    if (p.clock.now() >= p.statePoll.nextAt) await p.pollState();
    if (p.stopping || woken.aborted) break;
    const now = p.clock.now();
    if (now >= end) break;
    await p.clock.sleep(Math.min(p.settings.idleTickMs, end - now, Math.max(0, p.statePoll.nextAt - now)), woken);
  }
}
