// Typed errors of the client. An outage is DatabaseUnavailable — never "not found":
// point reads answer undefined only when the tier said found=false.
import { status } from '@grpc/grpc-js';
import type { ServiceError } from '@grpc/grpc-js';

export class DatabaseError extends Error {
  override name = 'DatabaseError';
  constructor(
    message: string,
    readonly code: status,
    readonly operation: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The tier or MariaDB could not be reached within the call's deadline and retries. */
export class DatabaseUnavailable extends DatabaseError {
  override name = 'DatabaseUnavailable';
}

/** A stale epoch or fencing token: someone else owns this now. Nothing was written. */
export class Fenced extends DatabaseError {
  override name = 'Fenced';
}

/** Bad input; `field` names it. Nothing was written. */
export class InvalidArgument extends DatabaseError {
  override name = 'InvalidArgument';
  get field(): string {
    const i = this.message.indexOf(':');
    return i > 0 ? this.message.slice(0, i) : '';
  }
}

/** A create that clashes with different existing data, or an expected version that moved. */
export class Conflict extends DatabaseError {
  override name = 'Conflict';
}

/** A write aimed at something that does not exist. */
export class NotFound extends DatabaseError {
  override name = 'NotFound';
}

export function fromServiceError(err: ServiceError, operation: string): DatabaseError {
  const details = err.details || err.message;
  const options = { cause: err };
  switch (err.code) {
    case status.UNAVAILABLE:
    case status.DEADLINE_EXCEEDED:
    case status.RESOURCE_EXHAUSTED:
    case status.CANCELLED:
      return new DatabaseUnavailable(`${operation}: ${details}`, err.code, operation, options);
    case status.FAILED_PRECONDITION:
      return new Fenced(details, err.code, operation, options);
    case status.INVALID_ARGUMENT:
      return new InvalidArgument(details, err.code, operation, options);
    case status.ALREADY_EXISTS:
    case status.ABORTED:
      return new Conflict(details, err.code, operation, options);
    case status.NOT_FOUND:
      return new NotFound(details, err.code, operation, options);
    default:
      return new DatabaseError(`${operation}: ${details}`, err.code, operation, options);
  }
}
