// Typed domain errors. Handlers throw these; each answers the status its row of the
// contract's error table names (proto/errors.ts), and grpc/error-status.ts turns it into
// that answer in exactly one place.
import { cutText } from '@sfdb/proto/errors';
import type { ErrorParts, TierStatus } from '@sfdb/proto/errors';

/**
 * A value the caller sent, quoted in a refusal: JSON-quoted, cut to `max` characters
 * with its length said when longer (`"abcd…" (70000 characters)`). Every refusal that
 * repeats a caller's value words it with this; the whole text is bounded again where it
 * is sent (proto/errors.ts errorStatus).
 */
export function echo(value: string, max = 64): string {
  if (value.length <= max) return JSON.stringify(value);
  return `${JSON.stringify(cutText(value, max)).slice(0, -1)}…" (${value.length} characters)`;
}

/** An error the tier answers with a status of its own, and the parts its row sends in trailers. */
export abstract class TierError extends Error {
  abstract get status(): TierStatus;
  get parts(): ErrorParts {
    return {};
  }
}

/** Bad input: INVALID_ARGUMENT naming the field. Thrown before anything is written. */
export class InvalidArgumentError extends TierError {
  override name = 'InvalidArgumentError';
  constructor(
    readonly field: string,
    reason: string,
  ) {
    super(`${field}: ${reason}`);
  }
  get status(): TierStatus {
    return 'INVALID_ARGUMENT';
  }
  override get parts(): ErrorParts {
    return { field: this.field };
  }
}

/**
 * A write aimed at something that does not exist (point reads answer found=false
 * instead): NOT_FOUND naming the request field that names it, nothing written. The rule
 * and its table: docs/contract.md, "Writes name real targets".
 */
export class NotFoundError extends TierError {
  override name = 'NotFoundError';
  constructor(
    readonly field: string,
    what: string,
  ) {
    super(`${field}: ${what}`);
  }
  get status(): TierStatus {
    return 'NOT_FOUND';
  }
  override get parts(): ErrorParts {
    return { field: this.field };
  }
}

/** A create that clashes with different existing data, or an expected version that moved on. */
export class ConflictError extends TierError {
  override name = 'ConflictError';
  constructor(
    message: string,
    readonly kind: 'exists' | 'version' = 'exists',
  ) {
    super(message);
  }
  get status(): TierStatus {
    return this.kind === 'version' ? 'ABORTED' : 'ALREADY_EXISTS';
  }
}

/**
 * A write that presents a stale epoch or fencing token, or a daemon held stopped by an
 * operator recording RUNNING or IDLE: FAILED_PRECONDITION, nothing written.
 */
export class FencedError extends TierError {
  override name = 'FencedError';
  get status(): TierStatus {
    return 'FAILED_PRECONDITION';
  }
}

/**
 * A write refused because other rows still need its target (DeleteNode of a node that
 * objects are placed on): FAILED_PRECONDITION, nothing written.
 */
export class FailedPreconditionError extends TierError {
  override name = 'FailedPreconditionError';
  get status(): TierStatus {
    return 'FAILED_PRECONDITION';
  }
}

/** MariaDB cannot be reached or answered with a transient failure: UNAVAILABLE. */
export class UnavailableError extends TierError {
  override name = 'UnavailableError';
  /**
   * MariaDB rolled back what failed: contention (a deadlock, a lock wait timeout, a Galera
   * certification failure) that outlived its reruns. Like a refusal that ran nothing, the
   * call took no effect unless its other writes did, which its ledger knows.
   */
  readonly rolledBack: boolean;
  constructor(message: string, options?: { cause?: unknown; rolledBack?: boolean }) {
    super(message, options);
    this.rolledBack = options?.rolledBack ?? false;
  }
  get status(): TierStatus {
    return 'UNAVAILABLE';
  }
}

/**
 * The call's deadline passed before its statement could start (it waited for a pool
 * connection past it, or came with a deadline already spent), or its statement was stopped
 * at it: DEADLINE_EXCEEDED, as grpc-js answers when its own timer fires first. The
 * caller's own bound, not an outage: never answered UNAVAILABLE, never retried.
 */
export class DeadlineExceededError extends TierError {
  override name = 'DeadlineExceededError';
  get status(): TierStatus {
    return 'DEADLINE_EXCEEDED';
  }
}

/** An answer that would be too large for one message: OUT_OF_RANGE; the caller pages instead. */
export class TooLargeError extends TierError {
  override name = 'TooLargeError';
  get status(): TierStatus {
    return 'OUT_OF_RANGE';
  }
}

/** The replica is at a cap (waiters): RESOURCE_EXHAUSTED with its pushback. */
export class ResourceExhaustedError extends TierError {
  override name = 'ResourceExhaustedError';
  constructor(
    message: string,
    readonly pushbackMs: number,
    /**
     * The refusal itself ran nothing (a rate limit, the waiter cap, the full pool refusing a
     * statement before it was sent): the call took no effect unless its own writes ran
     * before or are in flight, which the call's ledger knows (db/call-ledger.ts).
     */
    readonly ranNothing = false,
  ) {
    super(message);
  }
  get status(): TierStatus {
    return 'RESOURCE_EXHAUSTED';
  }
  override get parts(): ErrorParts {
    return { pushbackMs: this.pushbackMs };
  }
}

/** The caller may not do this (a poke from something that is not a live replica): PERMISSION_DENIED. */
export class PermissionDeniedError extends TierError {
  override name = 'PermissionDeniedError';
  get status(): TierStatus {
    return 'PERMISSION_DENIED';
  }
}
