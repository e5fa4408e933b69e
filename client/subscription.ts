// A subscription of a ChangeWaiter (./changes.ts): the topics it covers, the changes on
// them buffered for take()/wait() or pushed to a listener, and what it says it holds (the
// interest summary). The waiter owns the long-poll; a subscription costs no RPC.
import type { FeedChange } from './api/changes.js';
import type { Clock } from '@sfdb/proto/runtime/clock';

/** What a subscription is handed: the changes on its topics; `resync`: re-read all it covers. */
export interface ChangeBatch {
  changes: FeedChange[];
  resync: boolean;
}

export interface SubscribeOptions {
  /**
   * The ids this subscriber holds on its topics (called when a poll is issued). With it,
   * its topics that no subscription without `held` shares wake the poll only for changes
   * of those ids (and a summary's false positives); call `hold(id)` when it starts holding one.
   */
  held?: () => Iterable<string>;
  /**
   * Topics of this subscription on which a report (kind 'reported': a daemon's record of
   * its own state) need not wake the poll — a daemon on its own state topic knows what it
   * reported. A topic stays quiet only while every subscription of it says so; a report
   * still arrives with the next answer.
   */
  quietReports?: readonly string[];
}

export interface Subscription {
  readonly topics: readonly string[];
  /** Something arrived that take() has not taken yet (always false with a listener). */
  readonly pending: boolean;
  /** Takes what arrived since the last take (changes deduplicated per (topic, id), latest kind wins). */
  take(): ChangeBatch;
  /**
   * Resolves when something is pending, the waiter's mode changes, `ms` passes, or `signal`
   * aborts (another wait() of the same subscription's `signal` ends it too). No RPC.
   */
  wait(ms: number, signal?: AbortSignal): Promise<void>;
  /** Ends the subscription (its topics leave the long-poll unless another has them). Idempotent. */
  close(): void;
  /** The subscriber (one with `held`) now holds `id`: a change of it must wake this process. No RPC unless the summary in flight lacks it. */
  hold(id: string): void;
}

/** What a subscription needs of its waiter. */
export interface Host {
  readonly clock: Clock;
  unsubscribe(sub: Sub): void;
  reportError(err: unknown): void;
  held(id: string): void;
}

export class Sub implements Subscription {
  private readonly buffer = new Map<string, FeedChange>();
  private resync = false;
  /**
   * Ends every wait() in progress when aborted (wake()); shared by them, and made anew by
   * the next wait once spent. A daemon idles on its subscription once per period, and a
   * controller per idle was a good share of what 7,000 simulated daemons in one process
   * promoted to the old generation of its heap.
   */
  private waker: AbortController | undefined;
  private closed = false;

  constructor(
    private readonly host: Host,
    readonly topics: readonly string[],
    private readonly listener: ((batch: ChangeBatch) => void) | undefined,
    readonly held: (() => Iterable<string>) | undefined,
    readonly quietReports: ReadonlySet<string> = new Set(),
  ) {}

  hold(id: string): void {
    if (!this.closed && this.held !== undefined) this.host.held(id);
  }

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
    const waker = (this.waker ??= new AbortController());
    // The caller's signal ends the shared wait: another wait() of this subscription in
    // progress then ends too, early, and its owner looks again.
    const onAbort = (): void => this.wake();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      await this.host.clock.sleep(ms, waker.signal);
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /** Resolves every wait() in progress. */
  wake(): void {
    this.waker?.abort();
    this.waker = undefined;
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
