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
import { status } from '@grpc/grpc-js';
import { MAX_TOPIC_CHARS, MAX_TOPICS_PER_WAIT, MAX_WAIT_MS, TOPIC_PATTERN } from '../proto/topics.js';
import type { FeedCalls, FeedChange, WaitForChangesAnswer } from './api/changes.js';
import { systemClock } from './clock.js';
import type { Clock } from './clock.js';
import { feedMetrics } from './metrics.js';
import type { FeedMetrics, FeedMode, FeedModeSource } from './metrics.js';
import { jitteredDelay } from './retry.js';

export type { FeedMode };

/** What a subscription is handed: the changes on its topics; `resync`: re-read all it covers. */
export interface ChangeBatch {
  changes: FeedChange[];
  resync: boolean;
}

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
}

export interface Subscription {
  readonly topics: readonly string[];
  /** Something arrived that take() has not taken yet (always false with a listener). */
  readonly pending: boolean;
  /** Takes what arrived since the last take (changes deduplicated per (topic, id), latest kind wins). */
  take(): ChangeBatch;
  /** Resolves when something is pending, the waiter's mode changes, `ms` passes, or `signal` aborts. No RPC. */
  wait(ms: number, signal?: AbortSignal): Promise<void>;
  /** Ends the subscription (its topics leave the long-poll unless another has them). Idempotent. */
  close(): void;
}

/** Backoff between failed polls before the fallback (full jitter). */
const BACKOFF_BASE_MS = 250;
const BACKOFF_CAP_MS = 5_000;

/** What a subscription needs of its waiter. */
interface Host {
  readonly clock: Clock;
  unsubscribe(sub: Sub): void;
  reportError(err: unknown): void;
}

class Sub implements Subscription {
  private readonly buffer = new Map<string, FeedChange>();
  private resync = false;
  private readonly wakers = new Set<AbortController>();
  private closed = false;

  constructor(
    private readonly host: Host,
    readonly topics: readonly string[],
    private readonly listener: ((batch: ChangeBatch) => void) | undefined,
  ) {}

  get pending(): boolean {
    return this.buffer.size > 0 || this.resync;
  }

  deliver(changes: FeedChange[], resync: boolean): void {
    if (this.closed || (changes.length === 0 && !resync)) return;
    if (this.listener) {
      try {
        this.listener({ changes, resync });
      } catch (err) {
        this.host.reportError(err);
      }
      return;
    }
    for (const c of changes) {
      const key = `${c.topic}\n${c.id}`;
      this.buffer.delete(key); // the latest goes last
      this.buffer.set(key, c);
    }
    if (resync) this.resync = true;
    this.wake();
  }

  take(): ChangeBatch {
    const batch = { changes: [...this.buffer.values()], resync: this.resync };
    this.buffer.clear();
    this.resync = false;
    return batch;
  }

  async wait(ms: number, signal?: AbortSignal): Promise<void> {
    if (this.pending || this.closed || signal?.aborted) return;
    const waker = new AbortController();
    const onAbort = (): void => waker.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    this.wakers.add(waker);
    try {
      await this.host.clock.sleep(ms, waker.signal);
    } finally {
      this.wakers.delete(waker);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /** Resolves every wait() in progress. */
  wake(): void {
    for (const waker of this.wakers) waker.abort();
    this.wakers.clear();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.buffer.clear();
    this.resync = false;
    this.wake();
    this.host.unsubscribe(this);
  }
}

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
  private readonly subs = new Set<Sub>();
  /** The union of topics, each with the subscriptions that have it. */
  private readonly byTopic = new Map<string, Set<Sub>>();
  private loop: Promise<void> | undefined;
  private stopped = false;
  private readonly stop = new AbortController();
  /** Aborts the poll in flight (the union changed, or close). */
  private poll: AbortController | undefined;
  /** Wakes the loop while it waits for a first subscription. */
  private idle: (() => void) | undefined;
  /** In fallback: when the feed is tried next (clock time). */
  private retryAt = 0;
  private readonly readyWaiters: ((mode: FeedMode) => void)[] = [];
  private readonly closeHooks = new Set<() => void>();
  private waits = 0;
  private errors = 0;
  private readonly host: Host;

  constructor(
    private readonly calls: FeedCalls,
    private readonly options: ChangeWaiterOptions = {},
  ) {
    this.clock = options.clock ?? systemClock;
    this.waitTimeoutMs = positiveInt('waitTimeoutMs', options.waitTimeoutMs ?? MAX_WAIT_MS, MAX_WAIT_MS);
    this.errorsBeforeFallback = positiveInt('errorsBeforeFallback', options.errorsBeforeFallback ?? 3);
    this.retryFeedMs = positiveInt('retryFeedMs', options.retryFeedMs ?? 30_000);
    this.metrics = options.metrics ?? feedMetrics();
    this.host = { clock: this.clock, unsubscribe: (sub) => this.unsubscribe(sub), reportError: (err) => this.reportError(err) };
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
   * the loop: it must return quickly) instead of being buffered for take().
   */
  subscribe(topics: readonly string[], listener?: (batch: ChangeBatch) => void): Subscription {
    if (this.stopped) throw new Error('ChangeWaiter.subscribe: the waiter is closed');
    const unique = [...new Set(topics)];
    if (unique.length === 0) throw new Error('ChangeWaiter.subscribe: at least one topic is needed');
    for (const t of unique) {
      if (t.length > MAX_TOPIC_CHARS || !TOPIC_PATTERN.test(t)) throw new Error(`ChangeWaiter.subscribe: "${t}" is not a topic (see proto/topics.ts)`);
    }
    const added = unique.filter((t) => !this.byTopic.has(t)).length;
    if (this.byTopic.size + added > MAX_TOPICS_PER_WAIT) {
      throw new Error(
        `ChangeWaiter.subscribe: ${this.byTopic.size + added} distinct topics; one long-poll waits on at most ${MAX_TOPICS_PER_WAIT} (use broader topics)`,
      );
    }
    const sub = new Sub(this.host, Object.freeze(unique), listener);
    this.subs.add(sub);
    for (const t of unique) {
      let set = this.byTopic.get(t);
      if (!set) this.byTopic.set(t, (set = new Set()));
      set.add(sub);
    }
    if (added > 0) this.poll?.abort();
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
    for (const sub of [...this.subs]) sub.close();
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

  snapshot(): { mode: FeedMode; cursor: string; topics: number; subscriptions: number; waits: number; errors: number } {
    return { mode: this.current, cursor: this.cursor, topics: this.byTopic.size, subscriptions: this.subs.size, waits: this.waits, errors: this.errors };
  }

  private unsubscribe(sub: Sub): void {
    if (!this.subs.delete(sub)) return;
    let removed = false;
    for (const t of sub.topics) {
      const set = this.byTopic.get(t);
      set?.delete(sub);
      if (set?.size === 0) {
        this.byTopic.delete(t);
        removed = true;
      }
    }
    if (removed) this.poll?.abort();
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.stopped) {
      if (this.byTopic.size === 0) {
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
      const poll = new AbortController();
      this.poll = poll;
      try {
        const request = { topics: [...this.byTopic.keys()], cursor: this.cursor, timeoutMs: this.waitTimeoutMs };
        const answer = await this.calls.waitForChanges(request, { signal: poll.signal });
        if (this.stopped) break;
        failures = 0;
        this.answered(answer);
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
        if (this.poll === poll) this.poll = undefined;
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
    this.dispatch(answer.changes, resync);
  }

  private dispatch(changes: FeedChange[], resync: boolean): void {
    const batches = new Map<Sub, FeedChange[]>();
    if (resync) for (const sub of this.subs) batches.set(sub, []);
    for (const c of changes) {
      for (const sub of this.byTopic.get(c.topic) ?? []) {
        let list = batches.get(sub);
        if (!list) batches.set(sub, (list = []));
        list.push(c);
      }
    }
    for (const [sub, list] of batches) sub.deliver(list, resync);
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
    for (const sub of this.subs) sub.wake();
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
