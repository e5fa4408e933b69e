// A hedged call: the same idempotent call sent again when no call has answered yet — a
// second after `hedgeAfterMs`, a third after three times that (250 ms and 750 ms by
// default) — the first answer taken and the others cancelled. Its use is a replica that stops
// answering without closing its connection (frozen, blackholed), or one call left hanging
// on a live one: each new call, picked by p2c while the others are still in flight on their
// replicas (client/p2c.ts counts calls in flight), goes to the least busy replica — another
// one while one is live. A call that answers in time costs nothing more; one slower than
// the hedge costs one more call, and only one hanging past 750 ms costs two. Only for calls
// whose repetition is harmless: a read, or a write of the same value (a daemon's STOPPED).
import { systemClock } from '@sfdb/proto/runtime/clock';
import type { Clock } from '@sfdb/proto/runtime/clock';
import type { CallOptions } from './transport.js';

/** A healthy point read answers in milliseconds; one not answered in this long is hedged. */
export const HEDGE_AFTER_MS = 250;
/** The most calls one hedge sends: the first, and two hedges. */
export const HEDGE_MAX_CALLS = 3;

export interface HedgeOptions {
  /** When the second call goes out if the first has not answered (default HEDGE_AFTER_MS); the k-th hedge goes out at (2^k − 1) times this. */
  hedgeAfterMs?: number;
  /** The most calls sent in all (default HEDGE_MAX_CALLS; 1 sends no hedge). */
  maxCalls?: number;
  /** Each call's deadline (default: the client's). */
  deadlineMs?: number;
  /** Cancels both calls; the hedge then rejects with the signal's reason. */
  signal?: AbortSignal;
  clock?: Clock;
  /** Told when each hedge goes out (to count hedges). */
  onHedge?(): void;
}

/**
 * Calls `call` once, and again while none has answered — after `hedgeAfterMs`, then after
 * three times that — up to `maxCalls` calls, each with its own cancellation; resolves with
 * the first answer, rejects with the last error once no call is left running (a hedge not
 * yet due is then not sent). A call that fails before the hedge is due is not hedged: the
 * transport has already retried what it could (a refused connection goes to another replica
 * there), and the caller's backoff decides what comes next.
 */
export function hedged<T>(call: (opts: CallOptions) => Promise<T>, options: HedgeOptions = {}): Promise<T> {
  const clock = options.clock ?? systemClock;
  const outer = options.signal;
  const controllers: AbortController[] = [];
  const timer = new AbortController();
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    let running = 0;
    const finish = (): void => {
      settled = true;
      timer.abort();
      outer?.removeEventListener('abort', onAbort);
      for (const c of controllers) c.abort();
    };
    const onAbort = (): void => {
      if (settled) return;
      finish();
      reject(outer?.reason ?? new DOMException('This operation was aborted', 'AbortError'));
    };
    const launch = (): void => {
      if (controllers.length >= 1) options.onHedge?.();
      const controller = new AbortController();
      controllers.push(controller);
      running += 1;
      const opts: CallOptions = { signal: controller.signal, ...(options.deadlineMs !== undefined ? { deadlineMs: options.deadlineMs } : {}) };
      call(opts).then(
        (value) => {
          running -= 1;
          if (settled) return;
          finish();
          resolve(value);
        },
        (err: unknown) => {
          running -= 1;
          if (settled || running > 0) return; // another call may still answer
          finish();
          reject(err);
        },
      );
    };
    if (outer?.aborted) return onAbort();
    outer?.addEventListener('abort', onAbort, { once: true });
    launch();
    const after = options.hedgeAfterMs ?? HEDGE_AFTER_MS;
    const maxCalls = options.maxCalls ?? HEDGE_MAX_CALLS;
    // The k-th hedge at after·(2^k − 1): each waits twice as long as the one before.
    const hedgeLater = (k: number): void => {
      if (k >= maxCalls) return;
      void clock.sleep(after * 2 ** (k - 1), timer.signal).then(() => {
        if (settled || timer.signal.aborted) return;
        launch();
        hedgeLater(k + 1);
      });
    };
    hedgeLater(1);
  });
}
