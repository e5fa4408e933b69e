// A handler's error as the status the tier answers, in exactly one place: a TierError
// answers its row of the contract's error table (proto/errors.ts), with the parts its row
// sends in trailers; anything else is INTERNAL, its details generic, the log has the rest.
import type * as grpc from '@grpc/grpc-js';
import type { Logger } from 'pino';
import { errorStatus } from '@sfdb/proto/errors';
import { TierError, UnavailableError } from '../errors.js';

/** `noEffect`: nothing of the call took effect (CallLedger); said in a refusal's trailers. */
export function toServiceError(err: unknown, operation: string, log: Logger, noEffect = false): Partial<grpc.StatusObject> {
  if (err instanceof UnavailableError) {
    // MariaDB's own words stay in the log.
    log.warn({ operation, err: err.message }, 'database unavailable');
    if (!err.rolledBack) return errorStatus('UNAVAILABLE', 'database unavailable');
    // Contention that outlived the tier's reruns, rolled back: the client retries it after
    // its backoff, even a call that must not run twice when nothing of it took effect.
    return errorStatus('UNAVAILABLE', 'database contention: rolled back', { noEffect });
  }
  if (err instanceof TierError) return errorStatus(err.status, err.message, { ...err.parts, noEffect });
  log.error({ operation, err }, 'unexpected error in handler');
  return errorStatus('INTERNAL', 'internal error');
}
