// A hedged call: the same idempotent call sent a second time when the first has not
// answered within `hedgeAfterMs`, the first answer taken and the other cancelled. Its use is a replica that stops answering without closing its connection
// (frozen, blackholed): the first call waits there, and the second, picked by p2c with the
// first still in flight on that replica (client/p2c.ts counts calls in flight), goes to
// another. A call that answers in time costs nothing more; one slower than the hedge costs
// one more call. Only for calls whose repetition is harmless: a read, or a write of the
// same value (a daemon's STOPPED).
import { systemClock } from '@sfdb/proto/runtime/clock';
import type { Clock } from '@sfdb/proto/runtime/clock';
import type { CallOptions } from './transport.js';

/** A healthy point read answers in milliseconds; one not answered in this long is hedged. */
export const HEDGE_AFTER_MS = 250;

export interface HedgeOptions {
  /** When the second call goes out if the first has not answered (default HEDGE_AFTER_MS). */
  hedgeAfterMs?: number;
  /** Each call's deadline (default: the client's). */
  deadlineMs?: number;
  /** Cancels both calls; the hedge then rejects with the signal's reason. */
  signal?: AbortSignal;
  clock?: Clock;
  /** Told when the second call goes out (to count hedges). */
  onHedge?(): void;
}

/**
 * Calls `call` once, and once more when it has not answered after `hedgeAfterMs`, each with
 * its own cancellation; resolves with the first answer, rejects with the last error once no
 * call is left running. A call that fails before the hedge is due is not hedged: the
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
      if (controllers.length === 1) options.onHedge?.();
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
          if (settled || running > 0) return; // the other call may still answer
          finish();
          reject(err);
        },
      );
    };
    if (outer?.aborted) return onAbort();
    outer?.addEventListener('abort', onAbort, { once: true });
    launch();
    void clock.sleep(options.hedgeAfterMs ?? HEDGE_AFTER_MS, timer.signal).then(() => {
      if (!settled && controllers.length < 2) launch();
    });
  });
}
