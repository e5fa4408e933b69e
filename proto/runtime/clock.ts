// Monotonic time and abortable waiting, injectable so that time-dependent logic (lease
// deadlines, backoff, poll intervals, the tier's loops) is tested with a fake clock
// (test/helpers/fake-clock.ts). One clock for the client, the daemons and the tier.

export interface Clock {
  /** Monotonic milliseconds (never jumps with the wall clock). */
  now(): number;
  /** Resolves after `ms`, or at once when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => performance.now(),
  sleep: (ms, signal) =>
    new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      const timer = setTimeout(done, Math.max(0, ms));
      function done(): void {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      }
      signal?.addEventListener('abort', done, { once: true });
    }),
};
