// The counter floor (migrations/0007_counter_floor.sql). A counter a client holds and
// presents back — a lease token, a claim epoch, a version — starts, on a new row, at least
// at the floor. It is 0 until a restore from a backup raises it past everything the
// cluster before the restore can have issued (server/backup/restore.ts): a lease, work
// item or object created after the backup was taken is not in the restored database, and
// were it created again from 1 it would hand out a token, epoch or version that a holder
// from before the restore may still have. Rows that exist grow from where the restore put
// them (at the floor), so only the statements that create a counter read it: one
// primary-key read inside the INSERT.

/** SQL expression: the floor (0 until a restore raised it). */
export const COUNTER_FLOOR = '(SELECT COALESCE(MAX(floor_value), 0) FROM counter_floor)';

/** SQL expression: the first value of a counter that starts at 1 (a lease token, a version). */
export const FIRST_COUNT = `GREATEST(1, ${COUNTER_FLOOR})`;
