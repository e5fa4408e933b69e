// The WaitForChanges long-polls a replica holds, and answering them (docs/change-feed.md). The feed
// (feed.ts) decides whether a poll is answered at once; one that has nothing to hear is
// held here until a change on its topics wakes it, its timeout, a drain or its caller's
// cancel. Holding costs an entry in the topic index and a timer; waking is in memory,
// never a statement: the answer is read from the feed's window.
import { MAX_WAIT_MS } from '@sfdb/proto/topics';
import { ResourceExhaustedError } from '../errors.js';
import type { Metrics } from '../metrics.js';
import { encodeCursor } from './cursor.js';
import type { Cursor } from './cursor.js';
import { WaiterSet, wokenBy } from './waiters.js';
import type { Interest, Waiter } from './waiters.js';
import { answerOf } from './window.js';
import type { FeedAnswer, QueryResult, WindowEntry } from './window.js';

/** Suggested wait before retrying when the waiter cap is reached. */
const CAP_PUSHBACK_MS = 1000;

/**
 * Waiters answered per turn of the event loop when one change wakes many. HTTP/2 sends what
 * a turn wrote only after the turn, and an answer costs the replica about 0.1 ms: 3,500
 * waiters answered in one turn held every other call of the replica for 0.4 s and sent the
 * first answer with the last. 256 is about 25 ms a turn.
 */
const WAKE_PER_TURN = 256;

/** What a held poll's answer is read from: the window past `cursor` on `topics`. */
export type ReadPast = (cursor: Cursor, topics: ReadonlySet<string>) => QueryResult;

export class LongPolls {
  private readonly waiters = new WaiterSet();

  constructor(
    private readonly metrics: Metrics,
    /** The most held at once (SFDB_CHANGEFEED_MAX_WAITERS). */
    private readonly cap: number,
    private readonly readPast: ReadPast,
  ) {
    metrics.feedWaiterLimit.set(cap);
  }

  get size(): number {
    return this.waiters.size;
  }

  /**
   * Holds a poll on `topics` from `cursor` (nothing past it wakes it yet) until a change
   * wakes it, `timeoutMs` (at most MAX_WAIT_MS) passes, a drain, or `signal` aborts
   * (answered empty at `cursor`). At the cap: RESOURCE_EXHAUSTED with a pushback, nothing held.
   */
  hold(topics: ReadonlySet<string>, cursor: Cursor, timeoutMs: number, signal: AbortSignal, interest: Interest | undefined): Promise<FeedAnswer> {
    if (this.waiters.size >= this.cap) {
      this.metrics.countWait('refused');
      throw new ResourceExhaustedError(`this replica holds ${this.waiters.size} waiters, its cap; retry later or on another replica`, CAP_PUSHBACK_MS, true);
    }
    const empty = (): FeedAnswer => ({ changes: [], cursor: encodeCursor(cursor), resync: false, more: false });
    return new Promise<FeedAnswer>((resolve) => {
      if (signal.aborted) {
        this.metrics.countWait('cancelled');
        resolve(empty());
        return;
      }
      // Out of the index once, by whichever comes first; its timer and cancel listener go with it.
      const release = (): boolean => {
        if (!this.waiters.remove(waiter)) return false;
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.metrics.feedWaiters.set(this.waiters.size);
        return true;
      };
      const waiter: Waiter = {
        topics,
        interest,
        cursor,
        answer: (why) => {
          if (!release()) return;
          const r = this.readPast(cursor, topics);
          this.metrics.countWait(r.resync ? 'resync' : why === 'changes' && r.changes.length === 0 ? 'timeout' : why);
          resolve(answerOf(r));
        },
      };
      const onAbort = (): void => {
        if (!release()) return;
        this.metrics.countWait('cancelled');
        resolve(empty());
      };
      this.waiters.add(waiter);
      this.metrics.feedWaiters.set(this.waiters.size);
      signal.addEventListener('abort', onAbort, { once: true });
      const timer = setTimeout(() => waiter.answer('timeout'), Math.min(timeoutMs, MAX_WAIT_MS));
    });
  }

  /** Answers every held poll one of `entries` wakes (waiters.ts wokenBy), WAKE_PER_TURN per turn. */
  wake(entries: readonly WindowEntry[]): void {
    if (entries.length === 0) return;
    const { woken, kept } = wokenBy(this.waiters, entries);
    if (kept > 0) this.metrics.feedInterestKept.inc(kept);
    this.answerInTurns([...woken], 0);
  }

  /** True when a poll here waits on one of `topics`. */
  waitsOn(topics: readonly string[]): boolean {
    return this.waiters.of(topics).size > 0;
  }

  /** The topics starting with `prefix` a held poll waits on (a scan of the topics held). */
  topicsStartingWith(prefix: string): string[] {
    return this.waiters.topicsStartingWith(prefix);
  }

  /** Answers every held poll at once, empty past nothing new (a drain: its caller asks another replica). */
  drain(): void {
    for (const w of this.waiters.all()) w.answer('drain');
  }

  /**
   * Answers `woken` from `from` on, WAKE_PER_TURN in each turn of the event loop. A waiter
   * cancelled, timed out or answered by a later change meanwhile is skipped (answer() is
   * once); one answered in a later turn carries whatever is past its cursor then.
   */
  private answerInTurns(woken: readonly Waiter[], from: number): void {
    const end = Math.min(woken.length, from + WAKE_PER_TURN);
    for (let i = from; i < end; i++) woken[i]?.answer('changes');
    if (end < woken.length) setImmediate(() => this.answerInTurns(woken, end));
  }
}
