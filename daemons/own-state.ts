// The daemon's own state, watched: the one place that decides "an operator stopped me"
// (and, while held, "an operator started me"). It owns
// - the subscription to the daemon's state topic (feed mode), with the daemon's own reports
//   quiet on it, and the own-write filter: the change a write of the daemon's own published
//   is not news (wrote());
// - the polling fallback (no feed, or the feed fell back): a read every
//   SFDB_DAEMON_STATE_POLL_MS, doubling up to SFDB_DAEMON_STATE_POLL_MAX_MS while the tier is
//   unavailable (counted from the failed read's start, so a read that hung until its
//   deadline is followed within 100 ms, not made to wait twice) — the daemon's declared
//   `daemon-state-poll` task;
// - the retries: a change heard on the topic (or a resync, or a move between the feed and
//   polling) is owed a read, and it stays owed until a read has SUCCEEDED — a wake-up is a
//   hint, never consumed by a read that failed. An owed read is tried again with full-jitter
//   backoff from 100 ms up to the poll interval (2 s), so a stop is heard within the 2 s duty
//   once a live replica answers, and each read is hedged (client/hedge.ts): a read not
//   answered in 250 ms goes out a second time, and a third at 750 ms, each sent by p2c to
//   the least busy replica — not one still holding an earlier call (a frozen replica, or a
//   call left hanging on a live one), while another is live.
// One loop, started once the daemon's first state is written; it hands every successful
// read to its owner (onRead) and knows nothing of what the daemon does with it.
// Cost: in feed mode, one read per change of the daemon's state that is not its own (an
// operator's stop or start, a resync); a retry only while such a read fails; a hedge only
// for a read slower than 250 ms. No periodic call while the feed serves.
import { DatabaseUnavailable, hedged, jitteredDelay, topics } from '@sfdb/client';
import type { ChangeBatch, ChangeWaiter, Clock, DatabaseClient, NodeDaemonState, Subscription, WrittenDaemonState } from '@sfdb/client';
import { statePolls, stateRetries } from './metrics.js';
import type { DaemonSettings } from './settings.js';

/** The first wait before an owed read is tried again; it doubles up to the poll interval. */
export const OWED_RETRY_BASE_MS = 100;
/** The longest local wait on the feed between two looks at the waiter's mode. No RPC. */
const FEED_WAIT_MS = 60_000;
/** How many of the daemon's own recent changes the filter remembers. */
const OWN_SEQS = 4;

export interface OwnStateOptions {
  db: Pick<DatabaseClient, 'getNodeDaemonState'>;
  nodeUuid: string;
  name: string;
  settings: DaemonSettings;
  clock: Clock;
  /** Told of a failed read that is not the tier being unavailable. */
  countError(err: unknown): void;
  /** Every successful read: the daemon's row, undefined when it has none (its node was deleted). */
  onRead(own: NodeDaemonState | undefined): void;
  /** The watcher moved between the feed and polling (the daemon's idle may want to look again). */
  onModeChange?(feed: boolean): void;
}

/** What the daemon expects a write of its own to have left: its change is then not news. */
export interface OwnWrite {
  state: NodeDaemonState['state'];
  operatorHold: boolean;
}

export class OwnStateWatcher {
  /** The current poll interval: the setting, doubled while the tier is unavailable. */
  intervalMs: number;
  /** Reads made (and hedges and retries among them counted apart in the metrics). */
  reads = 0;
  private readonly topic: string;
  /** Feed mode: the process's change waiter, and the subscription to the state topic. */
  private waiter: ChangeWaiter | undefined;
  private sub: Subscription | undefined;
  private readonly stop = new AbortController();
  /** Ends the loop's current wait (owe() from outside, close()). */
  private wakeup = new AbortController();
  private loop: Promise<void> | undefined;
  /** When the next poll is due (polling). */
  private nextPollAt = 0;
  /** A change was heard and no read has succeeded since: the read is owed. */
  private owed = false;
  /** When an owed read is tried next, and how many have failed in a row. */
  private retryAt = 0;
  private failures = 0;
  /** The seqs of the daemon's own recent changes. */
  private readonly ownSeqs: string[] = [];

  constructor(private readonly o: OwnStateOptions) {
    this.intervalMs = o.settings.daemonStatePollMs;
    this.topic = topics.daemonState(o.nodeUuid, o.name);
  }

  /** Feed mode: subscribes to the state topic (before the daemon's first write, so nothing after it is missed). */
  subscribe(waiter: ChangeWaiter): void {
    if (this.sub) return;
    this.waiter = waiter;
    this.sub = waiter.subscribe([this.topic], undefined, { quietReports: [this.topic] });
  }

  /** Starts the loop: the first poll one interval from now (polling); reads as changes come (feed). */
  start(): void {
    this.nextPollAt = this.o.clock.now() + this.intervalMs;
    this.loop ??= this.run();
  }

  /** Ends the loop (a read in flight is cancelled) and the subscription. */
  async close(): Promise<void> {
    this.stop.abort();
    this.wakeup.abort();
    this.sub?.close();
    await this.loop;
  }

  /** A read is owed now (the daemon wants its state confirmed: its own write failed, say). */
  owe(): void {
    this.owed = true;
    this.retryAt = this.o.clock.now();
    this.wakeup.abort();
  }

  /**
   * The daemon wrote its own state: when the row is as it expected (`expect`), the change
   * of this write is its own and needs no read. Two writes merged in one group-commit batch
   * share the last one's row and change, so an operator's write in the same batch shows in
   * the row, and the change is read as any other.
   */
  wrote(written: WrittenDaemonState, expect: OwnWrite): void {
    if (written.changeSeq === '0' || written.state !== expect.state || written.operatorHold !== expect.operatorHold) return;
    this.ownSeqs.push(written.changeSeq);
    if (this.ownSeqs.length > OWN_SEQS) this.ownSeqs.shift();
  }

  /** True while the change feed serves this watcher; not once the client's waiter is closed (its waits answer at once). */
  get feedServes(): boolean {
    const w = this.waiter;
    return this.sub !== undefined && w !== undefined && w.mode === 'feed' && !w.closed;
  }

  private async run(): Promise<void> {
    const signal = this.stop.signal;
    let wasFeed: boolean | undefined;
    while (!signal.aborted) {
      const feed = this.feedServes;
      if (wasFeed !== undefined && feed !== wasFeed) {
        // Between the feed and polling, look once: a change may have come in between.
        this.owe();
        this.o.onModeChange?.(feed);
      }
      wasFeed = feed;
      if (this.sub?.pending) this.heard(this.sub.take());
      const now = this.o.clock.now();
      const due = this.owed ? this.retryAt : feed ? Number.POSITIVE_INFINITY : this.nextPollAt;
      if (now >= due) {
        await this.read(signal);
        continue;
      }
      const wait = Math.min(due - now, FEED_WAIT_MS);
      const sub = this.sub;
      if (this.wakeup.signal.aborted) this.wakeup = new AbortController();
      // The subscription's wait also ends on a change and on the waiter's move between feed
      // and fallback; a closed waiter's would answer at once, so then the clock's.
      if (sub !== undefined && !this.waiter?.closed) await sub.wait(wait, this.wakeup.signal);
      else await this.o.clock.sleep(wait, this.wakeup.signal);
    }
  }

  /** What the topic delivered: a resync, or any change not the daemon's own, is owed a read. */
  private heard(batch: ChangeBatch): void {
    if (batch.resync || batch.changes.some((c) => !this.ownSeqs.includes(c.seq))) this.owe();
  }

  /** One read, hedged; on success the owed read is paid, on failure it stays owed and is tried again with backoff. */
  private async read(signal: AbortSignal): Promise<void> {
    const o = this.o;
    this.reads += 1;
    let own: NodeDaemonState | undefined;
    const startedAt = o.clock.now();
    try {
      own = await hedged((opts) => o.db.getNodeDaemonState(o.nodeUuid, o.name, opts), {
        signal,
        clock: o.clock,
        onHedge: () => stateRetries.inc({ daemon: o.name, call: 'read', kind: 'hedge' }),
      });
    } catch (err) {
      if (signal.aborted) return;
      const unavailable = err instanceof DatabaseUnavailable;
      statePolls.inc({ daemon: o.name, outcome: unavailable ? 'unavailable' : 'error' });
      if (unavailable) this.intervalMs = Math.min(this.intervalMs * 2, o.settings.daemonStatePollMaxMs);
      else o.countError(err);
      const now = o.clock.now();
      // The doubled interval counts from the read's start: a read that hung until its
      // deadline (5 s, past the doubled 4 s) has waited already, and the next poll follows
      // it after OWED_RETRY_BASE_MS; while reads keep hanging the doubling soon outgrows the
      // deadline, so a tier that hangs is polled at the doubled interval all the same.
      this.nextPollAt = Math.max(startedAt + this.intervalMs, now + OWED_RETRY_BASE_MS);
      if (this.owed) {
        this.retryAt = now + jitteredDelay(this.failures++, OWED_RETRY_BASE_MS, o.settings.daemonStatePollMs);
        stateRetries.inc({ daemon: o.name, call: 'read', kind: 'retry' });
      }
      return;
    }
    statePolls.inc({ daemon: o.name, outcome: 'ok' });
    this.intervalMs = o.settings.daemonStatePollMs;
    this.nextPollAt = o.clock.now() + this.intervalMs;
    this.owed = false;
    this.failures = 0;
    o.onRead(own);
  }
}
