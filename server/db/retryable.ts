// The one table of MariaDB errors the tier tells apart: those worth rerunning (at once:
// the tier waits on no backoff; the client's and the daemons' jittered backoff is
// client/retry.ts), a lost connection, and a duplicate key.

/** Deadlock, lock wait timeout: the transaction was rolled back and can run again. */
export const RETRYABLE_TRANSACTION_ERRNOS: ReadonlySet<number> = new Set([1213, 1205]);

/** A duplicate key: the row (a uuid, a unique name, a change seq) exists already. */
export const ER_DUP_ENTRY = 1062;

/**
 * Server gone / lost / shutting down / too many connections, or a Galera node outside the
 * primary component (1047, "WSREP has not yet prepared node for application use"): the
 * database is unavailable, never a bad request.
 */
export const CONNECTION_ERRNOS: ReadonlySet<number> = new Set([1040, 1047, 1053, 1927, 2002, 2003, 2006, 2013]);

export const CONNECTION_ERROR_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND',
  'PROTOCOL_CONNECTION_LOST', 'PROTOCOL_SEQUENCE_TIMEOUT', 'PROTOCOL_ENQUEUE_AFTER_FATAL_ERROR',
  'PROTOCOL_ENQUEUE_AFTER_QUIT', 'ER_SERVER_SHUTDOWN', 'ER_CON_COUNT_ERROR', 'ER_CONNECTION_KILLED',
]);

interface SqlErrorLike {
  errno?: number;
  code?: string;
  fatal?: boolean;
}

export function isConnectionError(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as SqlErrorLike;
  if (e.errno !== undefined && CONNECTION_ERRNOS.has(e.errno)) return true;
  if (e.code !== undefined && CONNECTION_ERROR_CODES.has(e.code)) return true;
  if (err instanceof AggregateError) return err.errors.some(isConnectionError);
  return e.fatal === true;
}

/** Thrown inside a transaction to have transaction() rerun it, as after a deadlock. */
export class RerunTransactionError extends Error {
  override readonly name = 'RerunTransactionError';
}

export function isRetryableTransactionError(err: unknown): boolean {
  if (err instanceof RerunTransactionError) return true;
  return typeof err === 'object' && err !== null && RETRYABLE_TRANSACTION_ERRNOS.has((err as SqlErrorLike).errno ?? 0);
}

export function sqlErrno(err: unknown): number | undefined {
  return typeof err === 'object' && err !== null ? (err as SqlErrorLike).errno : undefined;
}
