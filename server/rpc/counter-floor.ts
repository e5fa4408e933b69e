// The counter floor (migrations/0007_counter_floor.sql). A counter a client holds and
// presents back — a lease token, a claim epoch, a version — starts, on a new row, at least
// at the floor. It only rises: past the retired counters folded into it (below), and on a
// restore from a backup past everything the cluster before the restore can have issued
// (server/backup/restore.ts): a lease, work item or object created after the backup was
// taken is not in the restored database, and were it created again from 1 it would hand
// out a token, epoch or version that a holder from before the restore may still have.
// Rows that exist grow from where the restore put them (at the floor), so only the
// statements that create a counter read it: one primary-key read inside the INSERT.

import type { Fragment, Sql } from '../db/sql.js';

/** SQL expression: the floor (0 until a restore raised it). */
const COUNTER_FLOOR = '(SELECT COALESCE(MAX(floor_value), 0) FROM counter_floor)';

/** The first value of a counter that starts at 1 (a lease token, a version). */
export function firstCount(): Fragment {
  return { sql: `GREATEST(1, ${COUNTER_FLOOR})`, params: [] };
}

// Retired counters (migrations/0008_retired_counters.sql): a row deleted and created again
// with the same id must not hand out a counter the deleted row issued, or a holder of the
// deleted row's version or claim epoch would match the new row. Deleting such a row
// records its last counter (one statement in the delete's transaction); creating one reads
// it back by primary key inside the INSERT.

/** Which counter a retired row kept: its table, and for objects its type. */
export type CounterKind = 'nodes' | 'work_items' | `object_values/${string}`;

/**
 * `expression` read in the floor row `f`, where RETIRED is the retired counter of (kind,
 * id) (0 when none); the fragment's parameters are RETIRED's. The retired counter is read
 * by a subquery that names the floor row, so MariaDB reads it only once it holds that row
 * (an INSERT's subquery reads under a shared lock): a delete that holds the floor row
 * exclusively (retireCounters) has committed its retired counter by then. An uncorrelated
 * subquery would be read first, before any wait, and could miss it.
 */
function fromFloor(expression: string, kind: CounterKind, id: string): Fragment {
  return { sql: `(SELECT ${expression} FROM counter_floor AS f WHERE f.id = 1)`, params: [kind, id] };
}
const RETIRED = '(SELECT COALESCE(MAX(r.last_value), 0) FROM retired_counters AS r WHERE r.counter_kind = ? AND r.counter_id = ? AND f.id = 1)';

/**
 * The first version of a row that starts at 1, above the floor and above whatever a
 * deleted row of the same kind and id reached.
 */
export function firstVersion(kind: CounterKind, id: string): Fragment {
  return fromFloor(`GREATEST(1, f.floor_value, ${RETIRED} + 1)`, kind, id);
}

/**
 * The epoch a new work item starts at (its first claim is one above): the floor, or the
 * last epoch a deleted item of the same id reached.
 */
export function firstEpoch(id: string): Fragment {
  return fromFloor(`GREATEST(f.floor_value, ${RETIRED})`, 'work_items', id);
}

/**
 * Takes the floor row exclusively for the rest of the transaction: a delete that will
 * retire counters takes it before it deletes, so a create of the same id either ran
 * before (the row was still there: a duplicate) or waits and reads what this retires.
 */
export async function lockFloor(sql: Sql): Promise<void> {
  await sql.rows('SELECT floor_value FROM counter_floor WHERE id = 1 FOR UPDATE');
}

/** Rows per statement when many counters retire at once (a node's work items). */
const RETIRE_BATCH = 500;

/** Records the last counters of deleted rows, in the delete's transaction, which took the floor row before it deleted them (lockFloor). */
export async function retireCounters(sql: Sql, kind: CounterKind, rows: readonly { id: string; last: string }[]): Promise<void> {
  for (let i = 0; i < rows.length; i += RETIRE_BATCH) {
    const batch = rows.slice(i, i + RETIRE_BATCH);
    await sql.run(
      `INSERT INTO retired_counters (counter_kind, counter_id, last_value, retired_at)
       VALUES ${batch.map(() => '(?, ?, ?, UTC_TIMESTAMP(6))').join(', ')}
       ON DUPLICATE KEY UPDATE last_value = GREATEST(last_value, VALUES(last_value)), retired_at = VALUES(retired_at)`,
      batch.flatMap((r) => [kind, r.id, r.last]),
    );
  }
}

/** Retired counters folded per transaction: a bounded batch, so the floor row is held briefly. */
const FOLD_BATCH = 1000;

/**
 * Folds retired counters retired more than `olderThanMs` ago into the floor, at most `limit`
 * rows, in batches: the floor rises to at least the largest folded value + 1, and their rows
 * go. A row created again with a folded id then starts at the floor — still above whatever
 * the deleted row issued (a version starts at the floor, a claim epoch one above it) — like
 * every other new row, so the table keeps one retention's deletes, not all of them. Each
 * batch holds the floor row exclusively (lockFloor), as a delete that retires counters does,
 * so a create of a folded id reads either its retired row or the raised floor. Answers the
 * rows folded, and whether older ones remain.
 */
export async function foldRetiredCounters(sql: Sql, olderThanMs: number, limit: number): Promise<{ folded: number; more: boolean }> {
  const old = 'retired_at < UTC_TIMESTAMP(6) - INTERVAL ? MICROSECOND';
  const micros = olderThanMs * 1000;
  let folded = 0;
  while (folded < limit) {
    // By index and unlocked: the usual answer, none old enough, costs one read and no lock.
    if ((await sql.rows(`SELECT 1 FROM retired_counters WHERE ${old} LIMIT 1`, [micros])).length === 0) return { folded, more: false };
    const batch = Math.min(FOLD_BATCH, limit - folded);
    const n = await sql.transaction(async (tx) => {
      await lockFloor(tx);
      const rows = await tx.rows<{ counter_kind: string; counter_id: string; last_value: string | number }>(
        `SELECT counter_kind, counter_id, last_value FROM retired_counters WHERE ${old} ORDER BY retired_at LIMIT ? FOR UPDATE`,
        [micros, batch],
      );
      if (rows.length === 0) return 0;
      const top = rows.reduce((max, r) => (BigInt(r.last_value) > max ? BigInt(r.last_value) : max), 0n);
      await tx.run('UPDATE counter_floor SET floor_value = GREATEST(floor_value, ?) WHERE id = 1', [(top + 1n).toString()]);
      const byKind = new Map<string, string[]>();
      for (const r of rows) byKind.set(r.counter_kind, [...(byKind.get(r.counter_kind) ?? []), r.counter_id]);
      for (const [kind, ids] of byKind) {
        await tx.run(`DELETE FROM retired_counters WHERE counter_kind = ? AND counter_id IN (${ids.map(() => '?').join(', ')})`, [kind, ...ids]);
      }
      return rows.length;
    });
    folded += n;
    if (n < batch) return { folded, more: false };
  }
  return { folded, more: true };
}
