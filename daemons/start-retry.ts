// A daemon's start calls (the node read, RUNNING recorded, onStart), retried while the
// database is unavailable or sheds load (a whole cluster starting at once): a daemon does
// not give up its start while the tier is there.
import type { Logger } from 'pino';
import { DatabaseUnavailable, jitteredDelay } from '@sfdb/client';
import type { Clock } from '@sfdb/client';

/** The longest wait between two tries of a start call the database could not answer. */
export const START_RETRY_CAP_MS = 5_000;

/**
 * Calls `call` until it is answered: on DatabaseUnavailable it waits with jittered backoff
 * (0.1 s doubling to START_RETRY_CAP_MS, spread so the retries of many daemons do not
 * arrive together) and tries again, until `signal` aborts (then it throws that last
 * error). Any other error is thrown at once: keep `call` safe to repeat.
 */
export async function untilAnswered<T>(what: string, call: () => Promise<T>, o: { clock: Clock; log: Logger; signal: AbortSignal }): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (err) {
      if (!(err instanceof DatabaseUnavailable) || o.signal.aborted) throw err;
      const delay = jitteredDelay(attempt, 100, START_RETRY_CAP_MS);
      if (attempt === 0 || attempt % 10 === 0) o.log.warn({ err: err.message, attempt, delayMs: delay }, `${what} at start: database unavailable, retrying`);
      await o.clock.sleep(delay, o.signal);
      if (o.signal.aborted) throw err;
    }
  }
}
