// Writes name real targets (docs/contract.md): a write that names a
// node or an object (an IPAM, a blob, an owner, either end of a reference, the object of
// an event…) that does not exist answers NOT_FOUND naming the request field, and writes
// nothing.
//
// The one pattern, race-safe against a concurrent delete: in the transaction of the write,
// the target's row is read by its primary key under a shared lock (LOCK IN SHARE MODE).
// A delete takes the row exclusively, so either the write waits for the delete to commit
// and finds nothing, or the delete waits for the write to commit and then removes (or
// refuses over) what the write added: no row outlives its target. Two shapes:
// - one statement (the hot paths): the locked read is the source of the write's own
//   INSERT ... SELECT, which then writes a row only for a target that is there and says
//   by its rows (RETURNING, or none) which calls named a missing one;
// - a read first (writes that name several targets): lockTargets below, one statement for
//   all of them, then the write.
// The named ids always drive the read (STRAIGHT_JOIN from the JSON_TABLE of ids, or a
// primary-key constant) and the target is joined by its primary key alone. Under READ
// COMMITTED a locking read drops the lock of a row it reads and then rejects; a plan that
// scanned the target table and matched it to the ids would so release locks of targets it
// had matched (measured: test/integration/target-locks.test.ts).
//
// On Galera a shared lock is local to the node that took it: a write through one node and
// a delete of its target through another are not serialised by it (docs/replicas.md).
import { NotFoundError } from '../errors.js';
import type { Sql } from '../db/sql.js';

/** A target a write names: the request field, the object_type column value ('node' for a node), its uuid. */
export interface Target {
  readonly field: string;
  readonly type: string;
  readonly uuid: string;
}

/** The answer for a write naming `target` when it does not exist. */
export function missing(target: Target): NotFoundError {
  return new NotFoundError(target.field, `${target.type.replace(/_/g, ' ')} ${target.uuid} does not exist`);
}

/**
 * Which of `targets` exist (their indexes): a node in nodes, any other type in
 * object_values, each by primary key — under a shared lock until the transaction ends
 * when `lock`. One statement whatever the number of targets.
 */
export async function existingTargets(sql: Sql, targets: readonly Target[], lock: boolean): Promise<Set<number>> {
  if (targets.length === 0) return new Set();
  // [node uuid or null, object type or null, object uuid or null]: each row looks up one
  // table by its primary key, never the other (a NULL key looks nothing up).
  const ids = targets.map((t) => (t.type === 'node' ? [t.uuid, null, null] : [null, t.type, t.uuid]));
  const rows = await sql.rows<{ i: number | string }>(
    `SELECT STRAIGHT_JOIN x.i
     FROM JSON_TABLE(?, '$[*]' COLUMNS (i FOR ORDINALITY, n CHAR(36) PATH '$[0]', t VARCHAR(32) PATH '$[1]', u CHAR(36) PATH '$[2]')) AS x
     LEFT JOIN nodes AS n ON n.uuid = x.n
     LEFT JOIN object_values AS o ON o.object_type = x.t AND o.uuid = x.u
     WHERE n.uuid IS NOT NULL OR o.uuid IS NOT NULL${lock ? '\n     LOCK IN SHARE MODE' : ''}`,
    [JSON.stringify(ids)],
  );
  return new Set(rows.map((r) => Number(r.i) - 1));
}

/**
 * Every target, read by primary key under a shared lock until the transaction ends; the
 * first that is missing is NOT_FOUND. Call it inside the write's transaction, before the write.
 */
export async function lockTargets(tx: Sql, targets: readonly Target[]): Promise<void> {
  const found = await existingTargets(tx, targets, true);
  const absent = targets.find((_, i) => !found.has(i));
  if (absent) throw missing(absent);
}
