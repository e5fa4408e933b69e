// Monotonic time and abortable waiting, injectable so that time-dependent logic (lease
// deadlines, backoff, poll intervals, the tier's loops) is tested with a fake clock
// (test/helpers/fake-clock.ts). One clock for the client, the daemons and the tier.

export interface Clock {
  /** Monotonic milliseconds (never jumps with the wall clock). */
  now(): number;
  /** Resolves after `ms`, or at once when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/**
 * The one shape of an abortable sleep, for every clock: `schedule` arms a timer that calls
 * its argument when due and returns what cancels it; the promise resolves when the timer
 * fires or when `signal` aborts (the timer then cancelled), whichever comes first.
 */
export function abortableSleep(schedule: (fire: () => void) => () => void, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    // Held apart: a timer that fires within schedule() calls done before it returns.
    const timer: { cancel?: () => void } = {};
    const done = (): void => {
      timer.cancel?.();
      signal?.removeEventListener('abort', done);
      resolve();
    };
    timer.cancel = schedule(done);
    signal?.addEventListener('abort', done, { once: true });
  });
}

export const systemClock: Clock = {
  now: () => performance.now(),
  sleep: (ms, signal) =>
    abortableSleep((fire) => {
      const timer = setTimeout(fire, Math.max(0, ms));
      return () => clearTimeout(timer);
    }, signal),
};
