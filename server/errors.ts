// Typed domain errors. Handlers throw these; grpc/unary.ts maps them to a status in
// exactly one place.

/** Bad input: INVALID_ARGUMENT naming the field. Thrown before anything is written. */
export class InvalidArgumentError extends Error {
  override name = 'InvalidArgumentError';
  constructor(
    readonly field: string,
    reason: string,
  ) {
    super(`${field}: ${reason}`);
  }
}

/**
 * A write aimed at something that does not exist (point reads answer found=false
 * instead): NOT_FOUND naming the request field that names it, nothing written. The rule
 * and its table: README, "Writes name real targets".
 */
export class NotFoundError extends Error {
  override name = 'NotFoundError';
  constructor(
    readonly field: string,
    what: string,
  ) {
    super(`${field}: ${what}`);
  }
}

/** A create that clashes with different existing data, or an expected version that moved on. */
export class ConflictError extends Error {
  override name = 'ConflictError';
  constructor(
    message: string,
    readonly kind: 'exists' | 'version' = 'exists',
  ) {
    super(message);
  }
}

/**
 * A write that presents a stale epoch or fencing token, or a daemon held stopped by an
 * operator recording RUNNING or IDLE: FAILED_PRECONDITION, nothing written.
 */
export class FencedError extends Error {
  override name = 'FencedError';
}

/**
 * A write refused because other rows still need its target (DeleteNode of a node that
 * objects are placed on): FAILED_PRECONDITION, nothing written.
 */
export class FailedPreconditionError extends Error {
  override name = 'FailedPreconditionError';
}

/** MariaDB cannot be reached or answered with a transient failure: UNAVAILABLE. */
export class UnavailableError extends Error {
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
}

/** An answer that would be too large for one message: OUT_OF_RANGE; the caller pages instead. */
export class TooLargeError extends Error {
  override name = 'TooLargeError';
}

/** The replica is at a cap (waiters): RESOURCE_EXHAUSTED with grpc-retry-pushback-ms. */
export class ResourceExhaustedError extends Error {
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
}

/** The caller may not do this (a poke from something that is not a live replica): PERMISSION_DENIED. */
export class PermissionDeniedError extends Error {
  override name = 'PermissionDeniedError';
}
