// Lease fences on writes, written once for every family: a write presented with a
// LeaseFence happens only while the fence's holder holds the live lease at its token. The
// check is a statement of the write's own transaction that share-locks the lease row, so
// the lease cannot change hands (AcquireLease takes the row exclusively) between the check
// and COMMIT: a deposed holder's write is refused (FAILED_PRECONDITION, Fenced) and writes
// nothing. Maintenance jobs require a fence; the application writes of docs/contract.md
// ("Fenced writes") take one optionally, and without one run exactly today's statements.
import type { LeaseFence__Output } from '@sfdb/proto/gen/sfdb/v1/LeaseFence';
import type { Sql } from '../db/sql.js';
import { FencedError } from '../errors.js';
import * as v from '../validate.js';

/** A validated fence: the lease `name` held by `holder` at `token` (a decimal string). */
export interface Fence {
  readonly name: string;
  readonly holder: string;
  readonly token: string;
}

/** The request's `fence` field, required (maintenance jobs); INVALID_ARGUMENT names the field at fault. */
export function requiredFence(f: LeaseFence__Output | null): Fence {
  if (!f) throw new v.InvalidArgumentError('fence', 'required');
  return {
    name: v.leaseName('fence.name', f.name),
    holder: v.holder('fence.holder', f.holder, { required: true }),
    token: v.int64String('fence.token', f.token, { min: 1n }),
  };
}

/** The request's `fence` field when given (validated as requiredFence), else undefined. */
export function optionalFence(f: LeaseFence__Output | null): Fence | undefined {
  return f ? requiredFence(f) : undefined;
}

/**
 * Inside a transaction: holds the fence's lease until that transaction ends (the row
 * share-locked), or throws FencedError when it is not held — the caller's transaction then
 * rolls back, nothing written. No fence: nothing (no statement).
 */
export async function holdFence(tx: Sql, f: Fence | undefined): Promise<void> {
  if (!f) return;
  const rows = await tx.rows<{ token: string }>(
    `SELECT token FROM leases WHERE name = ? AND holder = ? AND token = ? AND expires_at > UTC_TIMESTAMP(6)
     LOCK IN SHARE MODE`,
    [f.name, f.holder, f.token],
  );
  if (rows.length !== 1) throw new FencedError(`fence: lease ${f.name} is not held by ${f.holder} at token ${f.token}`);
}

/**
 * A write that is one auto-commit statement (or its own transaction) when unfenced: run
 * as is without a fence (today's statements, nothing added), or, fenced, inside one
 * transaction that holds the lease first (BEGIN, the lease's row, the write, COMMIT).
 */
export function fencedWrite<T>(sql: Sql, f: Fence | undefined, write: (sql: Sql) => Promise<T>): Promise<T> {
  if (!f) return write(sql);
  return sql.transaction(async (tx) => {
    await holdFence(tx, f);
    return write(tx);
  });
}
