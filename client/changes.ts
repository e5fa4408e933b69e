// ChangeWaiter: the change feed for one client (so one per daemon process, one per
// simulated process). It holds ONE WaitForChanges long-poll for the union of its
// subscriptions' topics and hands each subscription the changes on its own topics, either
// buffered (take() / wait()) or pushed to a listener. When the feed is unavailable it
// falls back: mode 'fallback', every subscription's wait() wakes so that its owner polls
// instead, and the feed is tried again every `retryFeedMs`; once it answers, every
// subscription gets `resync` (changes may have been missed meanwhile).
//
// Rules: the cursor moves only with an answer, so a poll cancelled because the topic
// union changed is re-issued with the same cursor and no change is lost. A subscriber
// reads what it covers after subscribing, then re-reads what the changes name: changes
// are ids and kinds, never data. No subscription, no poll in flight. close() cancels the
// poll in flight and leaves no timer behind (the process can exit).
//
// What the poll waits on, and what narrows its waking (interest summaries, quiet reports):
// ./topic-union.ts. When a subscription starts holding an id the summary in flight lacks,
// the poll is re-issued within `interestRepollMs` (held() below).
//
// A handshake (a poll without a cursor) is answered at once with where "now" is and
// delivers nothing, so it is not cancelled when the union changes: the poll after it asks
// with every topic from that cursor, which is no later than the subscription. A daemon's
// start subscribes two or three times while its handshake is out; each cancel was a call
// and a stream reset on both sides, 0.5 per daemon in a cold start of 7,000.
import { status } from '@grpc/grpc-js';
import { MAX_WAIT_MS } from '@sfdb/proto/topics';
import type { FeedCalls, WaitForChangesAnswer, WaitForChangesInput } from './api/changes.js';
import { systemClock } from '@sfdb/proto/runtime/clock';
import type { Clock } from '@sfdb/proto/runtime/clock';
import { feedMetrics } from './metrics.js';
import type { FeedMetrics, FeedMode, FeedModeSource } from './metrics.js';
import { jitteredDelay } from './retry.js';
import type { MoveReason } from './avoidance.js';
import type { Sub, ChangeBatch, Host, SubscribeOptions, Subscription } from './subscription.js';
import { TopicUnion } from './topic-union.js';

export type { FeedMode };
export type { ChangeBatch, SubscribeOptions, Subscription } from './subscription.js';

export interface ChangeWaiterOptions {
  /** Where time and sleeps come from; tests pass a fake clock. */
  clock?: Clock;
  /** Timeout of each long-poll (1..30000 ms). Default 30000 (MAX_WAIT_MS). */
  waitTimeoutMs?: number;
  /** Consecutive failed polls before falling back to polling. Default 3. */
  errorsBeforeFallback?: number;
  /** In fallback, how often the feed is tried again (ms). Default 30000. */
  retryFeedMs?: number;
  /** Where it reports; default the process-wide client metrics (`clientRegistry`). */
  metrics?: FeedMetrics;
  /** Told of every failed poll and every error a listener throws (the loop carries on). */
  onError?: (err: unknown) => void;
  /** How soon a poll is re-issued after a subscription starts holding an id its summary lacks (ms). Default 50: well inside the 0.1 s eviction bound, and a sweep reading objects one after another is one re-poll. */
  interestRepollMs?: number;
}

/** Backoff between failed polls before the fallback (full jitter). */
const BACKOFF_BASE_MS = 250;
const BACKOFF_CAP_MS = 5_000;

function positiveInt(name: string, value: number, max = Number.MAX_SAFE_INTEGER): number {
  if (!Number.isSafeInteger(value) || value < 1 || value > max) throw new Error(`${name}: ${value} is not an integer in 1..${max}`);
  return value;
}

/** The grpc status name of a failed call ('UNAVAILABLE', ...), 'UNKNOWN' when it has none. */
function codeName(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? ((status as unknown as Record<number, string | undefined>)[code] ?? String(code)) : 'UNKNOWN';
}

export class ChangeWaiter implements FeedModeSource {
  private readonly clock: Clock;
  private readonly waitTimeoutMs: number;
  private readonly errorsBeforeFallback: number;
  private readonly retryFeedMs: number;
  private readonly metrics: FeedMetrics;
  private current: FeedMode = 'starting';
  private cursor = '';
  /** The subscriptions and the union of their topics. */
  private readonly union = new TopicUnion();
  private loop: Promise<void> | undefined;
  private stopped = false;
  private readonly stop = new AbortController();
  /** Aborts the poll in flight (the union changed, or close). */
  private poll: AbortController | undefined;
  /** The poll in flight is a handshake (no cursor): answered at once, never re-issued. */
  private handshaking = false;
  /** The union changed since the last poll was sent: let the rest of the burst join first. */
  private unsettled = true;
  /** Wakes the loop while it waits for a first subscription. */
  private idle: (() => void) | undefined;
  /** In fallback: when the feed is tried next (clock time). */
  private retryAt = 0;
  private readonly readyWaiters: ((mode: FeedMode) => void)[] = [];
  private readonly closeHooks = new Set<() => void>();
  private waits = 0;
  private errors = 0;
  private readonly host: Host;
  private readonly interestRepollMs: number;
  /** Ids held since the summary in flight was built that it lacks; a re-poll is scheduled. */
  private readonly unsent = new Set<string>();
  private repolls = 0;
  /** Polls moved off a replica others saw stop answering (moveLongPoll). */
  private moves = 0;
  /** Polls cancelled and sent again because the topic union, a summary's narrowing or the quiet topics changed. */
  private reissues = 0;

  constructor(
    private readonly calls: FeedCalls,
    private readonly options: ChangeWaiterOptions = {},
  ) {
    this.clock = options.clock ?? systemClock;
    this.waitTimeoutMs = positiveInt('waitTimeoutMs', options.waitTimeoutMs ?? MAX_WAIT_MS, MAX_WAIT_MS);
    this.errorsBeforeFallback = positiveInt('errorsBeforeFallback', options.errorsBeforeFallback ?? 3);
    this.retryFeedMs = positiveInt('retryFeedMs', options.retryFeedMs ?? 30_000);
    this.metrics = options.metrics ?? feedMetrics();
    this.interestRepollMs = positiveInt('interestRepollMs', options.interestRepollMs ?? 50, MAX_WAIT_MS);
    this.host = {
      clock: this.clock,
      unsubscribe: (sub) => this.unsubscribe(sub),
      reportError: (err) => this.reportError(err),
      held: (id) => this.held(id),
    };
    this.metrics.track(this);
  }

  get mode(): FeedMode {
    return this.current;
  }

  /** True once close() was called. */
  get closed(): boolean {
    return this.stopped;
  }

  /** The mode gauge's view: undefined once closed. */
  feedMode(): FeedMode | undefined {
    return this.stopped ? undefined : this.current;
  }

  /**
   * A subscription to `topics` (1..64 distinct topics in the union of all of them; more
   * throws). The first one starts the loop. With `listener`, batches are pushed to it (in
   * the loop: it must return quickly) instead of being buffered for take(). With
   * `options.held`, its topics are narrowed by what it holds (see ./topic-union.ts).
   */
  subscribe(topics: readonly string[], listener?: (batch: ChangeBatch) => void, options: SubscribeOptions = {}): Subscription {
    if (this.stopped) throw new Error('ChangeWaiter.subscribe: the waiter is closed');
    const { sub, reissue } = this.union.add(this.host, topics, listener, options);
    if (reissue) this.reissue();
    this.loop ??= this.run();
    this.idle?.();
    return sub;
  }

  /** Resolves with the mode once the first answer arrived (feed) or fallback was decided (or on close). */
  ready(): Promise<FeedMode> {
    if (this.current !== 'starting' || this.stopped) return Promise.resolve(this.current);
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  /** Calls `hook` when the waiter closes (at once when it is closed). Answers a function that removes it. */
  onClose(hook: () => void): () => void {
    if (this.stopped) {
      hook();
      return () => {};
    }
    this.closeHooks.add(hook);
    return () => this.closeHooks.delete(hook);
  }

  /** Ends the loop, cancels the poll in flight, closes every subscription. Idempotent. */
  close(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.stop.abort();
    this.poll?.abort();
    this.idle?.();
    for (const sub of [...this.union.subs]) sub.close();
    this.flushReady();
    for (const hook of [...this.closeHooks]) {
      try {
        hook();
      } catch (err) {
        this.reportError(err);
      }
    }
    this.closeHooks.clear();
  }

  /**
   * The poll in flight is sent again with the same cursor: the replica holding it stopped
   * answering, and the balancer now picks around it, or the replica watch was just placed
   * beside it (client/replica-watch.ts). No change is lost: the cursor moves only with an
   * answer. A handshake is answered at once and left alone.
   */
  moveLongPoll(reason: MoveReason): void {
    if (this.stopped || this.poll === undefined || this.handshaking) return;
    this.moves += 1;
    this.metrics.moved(reason);
    this.poll.abort();
  }

  snapshot(): { mode: FeedMode; cursor: string; topics: number; subscriptions: number; waits: number; errors: number; repolls: number; reissues: number; moves: number } {
    return {
      moves: this.moves,
      mode: this.current,
      cursor: this.cursor,
      topics: this.union.size,
      subscriptions: this.union.subs.size,
      waits: this.waits,
      errors: this.errors,
      repolls: this.repolls,
      reissues: this.reissues,
    };
  }

  /** A subscription with `held` holds `id` now: re-issue the poll when its summary lacks it. */
  private held(id: string): void {
    const sent = this.union.summary;
    if (this.stopped || this.poll === undefined || sent === undefined || sent.has(id)) return;
    const first = this.unsent.size === 0;
    this.unsent.add(id);
    if (!first) return;
    void this.clock.sleep(this.interestRepollMs, this.stop.signal).then(() => {
      const lacking = [...this.unsent].some((u) => this.union.summary?.has(u) === false);
      this.unsent.clear();
      if (this.stopped || !lacking || this.poll === undefined || this.handshaking) return;
      this.repolls += 1;
      this.metrics.repolled();
      this.poll.abort();
    });
  }

  /** The next poll: the union of topics, from the cursor, with what narrows its waking. */
  private request(): WaitForChangesInput {
    return { cursor: this.cursor, timeoutMs: this.waitTimeoutMs, ...this.union.poll() };
  }

  private unsubscribe(sub: Sub): void {
    if (this.union.remove(sub)) this.reissue();
  }

  /**
   * The union changed: the poll in flight is sent again (with the same cursor), unless it
   * is a handshake that still has a topic to ask for.
   */
  private reissue(): void {
    this.unsettled = true;
    if (this.poll === undefined || (this.handshaking && this.union.size > 0)) return;
    this.reissues += 1;
    this.poll.abort();
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.stopped) {
      if (this.union.size === 0) {
        await new Promise<void>((resolve) => (this.idle = resolve));
        this.idle = undefined;
        continue;
      }
      if (this.current === 'fallback') {
        const wait = this.retryAt - this.clock.now();
        if (wait > 0) {
          await this.clock.sleep(wait, this.stop.signal);
          continue;
        }
      }
      if (this.unsettled) {
        // Subscriptions come in bursts (a daemon's start: its cache's, then its own): one
        // turn of the event loop lets the burst join one poll, not one sent and cancelled
        // (a stream reset) per subscription.
        this.unsettled = false;
        await new Promise<void>((resolve) => setImmediate(resolve));
        continue;
      }
      const poll = new AbortController();
      this.poll = poll;
      try {
        const request = this.request();
        this.handshaking = request.cursor === '';
        const answer = await this.calls.waitForChanges(request, { signal: poll.signal });
        if (this.stopped) break;
        // Cancelled after its answer had arrived (a subscription joined in between): that
        // answer asked for the old union, and its cursor would skip the newcomer's changes
        // up to it. Dropped; asked again from the same cursor.
        if (poll.signal.aborted) continue;
        failures = 0;
        this.answered(answer);
        // The next poll after the I/O already read: in a process with many clients (a
        // simulator, an agent hosting several daemons) the other answers of the same wake-up
        // are delivered before each is asked again.
        await new Promise<void>((resolve) => setImmediate(resolve));
      } catch (err) {
        if (this.stopped) break;
        if (poll.signal.aborted) continue; // the union changed: again, same cursor
        failures += 1;
        this.errors += 1;
        this.metrics.failed(codeName(err));
        this.reportError(err);
        if (this.current === 'fallback') {
          this.retryAt = this.clock.now() + this.retryFeedMs;
        } else if (codeName(err) === 'UNIMPLEMENTED' || failures >= this.errorsBeforeFallback) {
          failures = 0;
          this.fallBack();
        } else {
          await this.clock.sleep(jitteredDelay(failures - 1, BACKOFF_BASE_MS, BACKOFF_CAP_MS), this.stop.signal);
        }
      } finally {
        if (this.poll === poll) {
          this.poll = undefined;
          this.handshaking = false;
        }
      }
    }
  }

  private answered(answer: WaitForChangesAnswer): void {
    this.waits += 1;
    this.metrics.answered(answer.changes.length);
    this.cursor = answer.cursor;
    const was = this.current;
    if (was !== 'feed') this.setMode('feed');
    if (was === 'starting') return; // the handshake: where "now" is, nothing to deliver
    // Back from a fallback: whatever changed meanwhile was not heard.
    const resync = answer.resync || was === 'fallback';
    if (resync) this.metrics.resynced();
    this.union.dispatch(answer.changes, resync);
  }

  private fallBack(): void {
    this.metrics.fellBack();
    this.cursor = '';
    this.retryAt = this.clock.now() + this.retryFeedMs;
    this.setMode('fallback');
  }

  private setMode(mode: FeedMode): void {
    if (mode === this.current) return;
    this.current = mode;
    for (const sub of this.union.subs) sub.wake();
    if (mode !== 'starting') this.flushReady();
  }

  private flushReady(): void {
    for (const resolve of this.readyWaiters.splice(0)) resolve(this.current);
  }

  private reportError(err: unknown): void {
    try {
      this.options.onError?.(err);
    } catch {
      // An error reporter that throws is not the loop's problem.
    }
  }
}
