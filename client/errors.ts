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

/**
 * FAILED_PRECONDITION: a stale epoch or fencing token (someone else owns this now); a
 * delete refused while other rows still need its target (DeleteNode of a node that
 * objects are placed on); or (SetNodeDaemonState) a daemon held stopped by an operator
 * recording RUNNING or IDLE. Nothing was written.
 */
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

/** A write aimed at something that does not exist; `field` names the request field that names it. Nothing was written. */
export class NotFound extends DatabaseError {
  override name = 'NotFound';
  get field(): string {
    const i = this.message.indexOf(':');
    return i > 0 ? this.message.slice(0, i) : '';
  }
}

/** The caller may not do this (its client certificate does not allow it). */
export class PermissionDenied extends DatabaseError {
  override name = 'PermissionDenied';
}

/** An answer that would be too large for one message (a whole IPAM, say): page instead. */
export class OutOfRange extends DatabaseError {
  override name = 'OutOfRange';
}

/** The tier does not know this RPC: it is older than this client. */
export class Unimplemented extends DatabaseError {
  override name = 'Unimplemented';
}

/** The tier failed in a way it could not name; its details are generic, its log has the rest. */
export class Internal extends DatabaseError {
  override name = 'Internal';
}

/**
 * grpc-js's own words for a stream the HTTP/2 transport ended with INTERNAL_ERROR before
 * any gRPC status arrived: the peer reset the stream ("Received RST_STREAM with code 2
 * (Internal server error)"), or the session was torn down under it ("… triggered by
 * internal client error: Session closed with error code 2", which is what a GOAWAY with
 * INTERNAL_ERROR — nghttp2's answer to a connection over its stream-reset rate — does to
 * every call in flight on that connection). grpc-js reports both as INTERNAL, but no
 * server answered INTERNAL: the connection failed, and the call may or may not have
 * reached a handler — the meaning of UNAVAILABLE. A server's own INTERNAL answer arrives
 * as a status in trailers, with the server's details, and is never matched here.
 */
const UNATTRIBUTED_RESET = /^Received RST_STREAM with code 2\b/;

/**
 * The status the client acts on: an unattributed transport failure (above) becomes
 * UNAVAILABLE, keeping grpc-js's words in the details and its error as `cause`, so it is
 * retried exactly where UNAVAILABLE is (reads and idempotent writes) and otherwise ends as
 * DatabaseUnavailable. Every other error is returned as it is.
 */
export function transportStatus(err: ServiceError): ServiceError {
  if (err.code !== status.INTERNAL || !UNATTRIBUTED_RESET.test(err.details ?? '')) return err;
  const details = `connection failed before an answer: ${err.details}`;
  return Object.assign(new Error(`${status.UNAVAILABLE} UNAVAILABLE: ${details}`, { cause: err }), {
    code: status.UNAVAILABLE,
    details,
    metadata: err.metadata,
  });
}

/** The typed error of a status: one class for each status the tier answers. */
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
    case status.PERMISSION_DENIED:
    case status.UNAUTHENTICATED:
      return new PermissionDenied(`${operation}: ${details}`, err.code, operation, options);
    case status.OUT_OF_RANGE:
      return new OutOfRange(details, err.code, operation, options);
    case status.UNIMPLEMENTED:
      return new Unimplemented(`${operation}: ${details}`, err.code, operation, options);
    case status.INTERNAL:
    case status.UNKNOWN:
    case status.DATA_LOSS:
      return new Internal(`${operation}: ${details}`, err.code, operation, options);
    default:
      return new DatabaseError(`${operation}: ${details}`, err.code, operation, options);
  }
}
