// The counter floor (migrations/0007_counter_floor.sql). A counter a client holds and
// presents back — a lease token, a claim epoch, a version — starts, on a new row, at least
// at the floor. It is 0 until a restore from a backup raises it past everything the
// cluster before the restore can have issued (server/backup/restore.ts): a lease, work
// item or object created after the backup was taken is not in the restored database, and
// were it created again from 1 it would hand out a token, epoch or version that a holder
// from before the restore may still have. Rows that exist grow from where the restore put
// them (at the floor), so only the statements that create a counter read it: one
// primary-key read inside the INSERT.

import type { Sql } from '../db/sql.js';

/** SQL expression: the floor (0 until a restore raised it). */
export const COUNTER_FLOOR = '(SELECT COALESCE(MAX(floor_value), 0) FROM counter_floor)';

/** SQL expression: the first value of a counter that starts at 1 (a lease token, a version). */
export const FIRST_COUNT = `GREATEST(1, ${COUNTER_FLOOR})`;

// Retired counters (migrations/0008_retired_counters.sql): a row deleted and created again
// with the same id must not hand out a counter the deleted row issued, or a holder of the
// deleted row's version or claim epoch would match the new row. Deleting such a row
// records its last counter (one statement in the delete's transaction); creating one reads
// it back by primary key inside the INSERT.

/** Which counter a retired row kept: its table, and for objects its type. */
export type CounterKind = 'nodes' | 'work_items' | `object_values/${string}`;

/** The retired counter of (kind, id): 0 when none. Two parameters: the kind, the id. */
const RETIRED = '(SELECT COALESCE(MAX(last_value), 0) FROM retired_counters WHERE counter_kind = ? AND counter_id = ?)';

/**
 * SQL expression: the first version of a row that starts at 1, above the floor and above
 * whatever a deleted row of the same id reached. Its parameters: the kind, the id.
 */
export const FIRST_VERSION = `GREATEST(1, ${COUNTER_FLOOR}, ${RETIRED} + 1)`;

/**
 * SQL expression: the epoch a new work item starts at (its first claim is one above):
 * the floor, or the last epoch a deleted item of the same id reached. Its parameters: the
 * kind ('work_items'), the id.
 */
export const FIRST_EPOCH = `GREATEST(${COUNTER_FLOOR}, ${RETIRED})`;

/** Rows per statement when many counters retire at once (a node's work items). */
const RETIRE_BATCH = 500;

/** Records the last counters of deleted rows (in the delete's transaction). */
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
