// Typed errors of the client, one class for each row of the contract's error table
// (proto/errors.ts). An outage is DatabaseUnavailable — never "not found": point reads
// answer undefined only when the tier said found=false.
import { status } from '@grpc/grpc-js';
import type { ServiceError } from '@grpc/grpc-js';
import { errorField, errorRow } from '@sfdb/proto/errors';
import type { ClientErrorName, Trailers } from '@sfdb/proto/errors';

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

/** The trailers of the gRPC error a DatabaseError was made from (its cause). */
function trailersOf(err: DatabaseError): Trailers | undefined {
  return (err.cause as { metadata?: Trailers } | undefined)?.metadata;
}

/** Bad input; `field` names it (from the refusal's trailers). Nothing was written. */
export class InvalidArgument extends DatabaseError {
  override name = 'InvalidArgument';
  get field(): string {
    return errorField(trailersOf(this));
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
    return errorField(trailersOf(this));
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

type ErrorClass = new (message: string, code: status, operation: string, options?: { cause?: unknown }) => DatabaseError;

/**
 * The class of each name the table gives, and whether its message is the details alone:
 * the tier's refusals of a request name what they refuse (`node_uuid: …`); the others say
 * which operation failed first.
 */
const CLASSES: Record<ClientErrorName, { readonly cls: ErrorClass; readonly detailsAlone: boolean }> = {
  InvalidArgument: { cls: InvalidArgument, detailsAlone: true },
  NotFound: { cls: NotFound, detailsAlone: true },
  Conflict: { cls: Conflict, detailsAlone: true },
  Fenced: { cls: Fenced, detailsAlone: true },
  OutOfRange: { cls: OutOfRange, detailsAlone: true },
  PermissionDenied: { cls: PermissionDenied, detailsAlone: false },
  DatabaseUnavailable: { cls: DatabaseUnavailable, detailsAlone: false },
  Unimplemented: { cls: Unimplemented, detailsAlone: false },
  Internal: { cls: Internal, detailsAlone: false },
};

/** The typed error of a status: the class its row of the error table names. */
export function fromServiceError(err: ServiceError, operation: string): DatabaseError {
  const details = err.details || err.message;
  const row = errorRow(err.code);
  const { cls, detailsAlone } = row ? CLASSES[row.client] : { cls: DatabaseError, detailsAlone: false };
  return new cls(detailsAlone ? details : `${operation}: ${details}`, err.code, operation, { cause: err });
}
