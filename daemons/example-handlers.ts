// Job handlers the reference queues daemon runs out of the box (sf-daemon --daemon
// queues): enough to try the queue end to end. A real daemon registers its own.
import type { JobHandler } from './queues.js';

export const exampleHandlers: Record<string, JobHandler> = {
  /** Answers its payload. */
  echo: async (payload) => payload,
  /** Waits payload.ms milliseconds (stopping early when the claim is lost or the daemon stops). */
  sleep: async (payload, ctx) => {
    const ms = typeof payload === 'object' && payload !== null && 'ms' in payload ? Number((payload as { ms: unknown }).ms) : 0;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, Math.max(0, Math.min(ms, 3_600_000)));
      ctx.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    return { slept: ms };
  },
  /** Always fails: released with backoff, then FAILED after the attempts run out. */
  fail: async () => {
    throw new Error('this job always fails');
  },
};
