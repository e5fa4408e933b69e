// What MariaDB's and mysql2's failures mean to the tier: the one mapping from a driver
// error to the tier's errors (unavailable, pool full, deadline exceeded), and the caller's
// stack added to a driver error on the error path only.
import { DeadlineExceededError, ResourceExhaustedError, UnavailableError } from '../errors.js';
import { DeadlinePassedError, ER_QUERY_INTERRUPTED } from './watchdog.js';
import { isConnectionError, isRetryableTransactionError } from './retryable.js';

/** mysql2's refusal when its connection queue is full (it carries no code). */
export const QUEUE_FULL = 'Queue limit reached.';
/** How long a caller refused by a full pool waits before it tries again. */
export const POOL_FULL_PUSHBACK_MS = 200;

/**
 * Appends the (async) stack of the statement's caller to a mysql2 error, whose own stack
 * ends in the driver (the pool runs with `trace: false`). Called in a catch block of
 * BoundSql, so the frames are rows/run ← the query function ← its handler.
 */
export function withCallerStack(err: unknown): unknown {
  if (err instanceof Error) {
    // Without the header line and this function's own frame.
    const caller = (new Error().stack ?? '').split('\n').slice(2).join('\n');
    err.stack = `${err.stack ?? String(err)}\n    --- statement issued:\n${caller}`;
  }
  return err;
}

/**
 * Maps what MariaDB's failures mean to the tier's errors. `final`: contention (deadlock,
 * lock wait timeout) will not be rerun — false for a statement inside a transaction, whose
 * transaction() reruns the whole of it on the raw error.
 */
export function toUnavailable(err: unknown, final = true): never {
  // A full queue fails the call now rather than at its deadline. This statement was never
  // sent (the refusal ran nothing); whether anything else of the call was, its ledger says
  // (db/call-ledger.ts).
  if (err instanceof Error && err.message === QUEUE_FULL) {
    throw new ResourceExhaustedError('database connection pool is full: too many statements waiting for a MariaDB connection', POOL_FULL_PUSHBACK_MS, true);
  }
  // Contention that outlived its reruns: the database is too busy for this call now, which
  // is unavailability (retried by the client when safe), never a handler's fault.
  // Not started after its call's deadline, or stopped at it: the caller's own bound (the
  // caller has gone), never an outage.
  if (err instanceof DeadlinePassedError) throw new DeadlineExceededError(`deadline exceeded: ${err.message}`, { cause: err });
  if ((err as { errno?: number } | null)?.errno === ER_QUERY_INTERRUPTED) {
    throw new DeadlineExceededError(`deadline exceeded: the statement was stopped at its call's deadline`, { cause: err });
  }
  if (final && isRetryableTransactionError(err)) {
    throw new UnavailableError(`database contention: ${(err as Error).message}`, { cause: err, rolledBack: true });
  }
  if (isConnectionError(err)) {
    throw new UnavailableError(`database unavailable: ${(err as Error).message || (err as { code?: string }).code}`, { cause: err });
  }
  throw err;
}
