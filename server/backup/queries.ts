// The statements of backup and restore (source `migration`: one-off, never periodic): the
// schema version, the highest counter a database has issued, the live replicas registered
// in it, the raise that puts every counter of a restored database above a floor, and the
// swap of the restored tables into place. Tables and columns come from the fixed lists
// here or from information_schema, never from input.
import type { Sql } from '../db/sql.js';
import { CLOSED_GAP_KIND } from '../changefeed/queries.js';
import { ident } from './tools.js';

/**
 * Every counter a client holds and presents back, or sees grow: lease tokens, claim
 * epochs, versions, change sequences (cursors), event ids (page tokens), work item seqs;
 * the last counters of deleted rows; and the floor itself.
 */
const COUNTERS: readonly (readonly [table: string, column: string])[] = [
  ['leases', 'token'],
  ['work_items', 'epoch'],
  ['work_items', 'seq'],
  ['nodes', 'version'],
  ['object_values', 'version'],
  ['cluster_config', 'version'],
  ['changes', 'seq'],
  ['events', 'id'],
  ['retired_counters', 'last_value'],
  ['counter_floor', 'floor_value'],
];

/** Tables whose AUTO_INCREMENT numbers what clients see: the next value was maybe issued and rolled back. */
const SEQUENCE_TABLES = ['changes', 'events', 'work_items'] as const;

async function tablesOf(sql: Sql): Promise<Set<string>> {
  const rows = await sql.rows<{ name: string }>(
    "SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_TYPE = 'BASE TABLE'",
  );
  return new Set(rows.map((r) => r.name));
}

function max(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}

/**
 * The highest value any counter of the connected database has reached (0 without the
 * schema), sequences by their AUTO_INCREMENT as well as their rows: a seq allocated by a
 * transaction that rolled back was handed to no one, but counting it costs nothing.
 */
export async function highestIssued(sql: Sql): Promise<bigint> {
  const present = await tablesOf(sql);
  let highest = 0n;
  for (const [table, column] of COUNTERS) {
    if (!present.has(table)) continue;
    const rows = await sql.rows<{ m: string | number }>(`SELECT COALESCE(MAX(${column}), 0) AS m FROM ${table}`);
    highest = max(highest, BigInt(rows[0]?.m ?? 0));
  }
  const auto = await sql.rows<{ m: string | number | null }>(
    `SELECT MAX(AUTO_INCREMENT) AS m FROM information_schema.TABLES
     WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME IN (${SEQUENCE_TABLES.map(() => '?').join(', ')})`,
    [...SEQUENCE_TABLES],
  );
  const next = auto[0]?.m;
  return next == null ? highest : max(highest, BigInt(next));
}

/** The database clock in microseconds since 1970 (a floor candidate: see restore.ts). */
export async function clockMicros(sql: Sql): Promise<bigint> {
  // UTC arithmetic only: no session time zone (and no hour repeated at a DST change) in it.
  const rows = await sql.rows<{ us: string | number }>("SELECT TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', UTC_TIMESTAMP(6)) AS us");
  return BigInt(rows[0]?.us ?? 0);
}

/** Replicas whose heartbeat is younger than `liveMs` (database time); none without the schema. */
export async function liveReplicas(sql: Sql, liveMs: number): Promise<{ id: string; address: string }[]> {
  if (!(await tablesOf(sql)).has('tier_replicas')) return [];
  const rows = await sql.rows<{ replica_id: string; address: string }>(
    'SELECT replica_id, address FROM tier_replicas WHERE heartbeat_at > UTC_TIMESTAMP(6) - INTERVAL ? MICROSECOND ORDER BY replica_id',
    [liveMs * 1000],
  );
  return rows.map((r) => ({ id: r.replica_id, address: r.address }));
}

/** The schema version a database is at (undefined: no sf-database schema). */
export async function schemaVersion(sql: Sql): Promise<number | undefined> {
  if (!(await tablesOf(sql)).has('schema_migrations')) return undefined;
  const rows = await sql.rows<{ v: number | string | null }>('SELECT MAX(version) AS v FROM schema_migrations');
  return rows[0]?.v == null ? 0 : Number(rows[0].v);
}

/**
 * Raises every counter of the connected (restored, not yet served) database to `floor`,
 * which is above everything the cluster before the restore can have issued:
 * - the floor row, so every counter a new row starts is at least there;
 * - lease tokens, claim epochs and versions of the rows restored; every lease ends now
 *   (its holder from before is fenced anyway) and every claim goes back to its queue;
 * - the change feed: its rows are of the old history and go; one tombstone at floor + 1
 *   leaves the sequence there, so a replica's window starts at the floor and every cursor
 *   from before is below it (resync);
 * - event ids and work item seqs continue above the floor;
 * - the replica registry is emptied: its rows are the backup's (a replica still running
 *   against this database loses its row at its next heartbeat and exits).
 * Statement by statement, no transaction: nothing serves this database yet, and a failed
 * raise is run again by running the restore again.
 */
export async function raiseCounters(sql: Sql, floor: bigint, restoredFrom: string): Promise<void> {
  const f = floor.toString();
  await sql.run('UPDATE counter_floor SET floor_value = ?, restored_at = UTC_TIMESTAMP(6), restored_from = ? WHERE id = 1', [f, restoredFrom]);
  await sql.run(
    `UPDATE leases SET token = ?, holder = '', expires_at = LEAST(expires_at, UTC_TIMESTAMP(6)), renewed_at = UTC_TIMESTAMP(6)`,
    [f],
  );
  await sql.run(
    `UPDATE work_items SET state = 'QUEUED', claim_holder = '', claim_expires_at = NULL, not_before = UTC_TIMESTAMP(6),
       message = 'claim given up by a restore from backup', updated_at = UTC_TIMESTAMP(6)
     WHERE state = 'CLAIMED'`,
  );
  await sql.run('UPDATE work_items SET epoch = ?', [f]);
  await sql.run('UPDATE nodes SET version = ?', [f]);
  await sql.run('UPDATE object_values SET version = ?', [f]);
  await sql.run('UPDATE cluster_config SET version = ?', [f]);
  await sql.run('DELETE FROM tier_replicas');
  await sql.unprepared('TRUNCATE TABLE changes');
  await sql.run(`INSERT INTO changes (seq, topic, object_type, object_id, kind, created_at) VALUES (?, '', '', '', ?, UTC_TIMESTAMP(6))`, [
    (floor + 1n).toString(),
    CLOSED_GAP_KIND,
  ]);
  // DDL takes no parameters: `f` is a bigint's decimal digits.
  await sql.unprepared(`ALTER TABLE events AUTO_INCREMENT = ${f}`);
  await sql.unprepared(`ALTER TABLE work_items AUTO_INCREMENT = ${f}`);
}

/** A migration lease the backup caught held (a migration ran meanwhile) would stall the restore's migrate for its minute. */
export async function freeMigrationLease(sql: Sql): Promise<void> {
  if (!(await tablesOf(sql)).has('schema_migration_lease')) return;
  await sql.run("UPDATE schema_migration_lease SET holder = '', expires_at = UTC_TIMESTAMP(6)");
}

/** Base tables of database `name` (views and sequences stay where they are). */
export async function tablesIn(server: Sql, name: string): Promise<string[]> {
  const rows = await server.rows<{ name: string }>(
    "SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_TYPE = 'BASE TABLE' ORDER BY TABLE_NAME",
    [name],
  );
  return rows.map((r) => r.name);
}

/**
 * Puts the tables of `staging` in place of those of `live`, in one RENAME TABLE: atomic,
 * so a client of `live` sees either every old table or every restored one. The old ones
 * move to `replaced` (an empty database made here).
 */
export async function swapTables(server: Sql, db: { live: string; staging: string; replaced: string }): Promise<void> {
  const old = await tablesIn(server, db.live);
  const restored = await tablesIn(server, db.staging);
  await server.unprepared(`CREATE DATABASE ${ident(db.replaced)}`);
  const moves = [
    ...old.map((t) => `${ident(db.live)}.${ident(t)} TO ${ident(db.replaced)}.${ident(t)}`),
    ...restored.map((t) => `${ident(db.staging)}.${ident(t)} TO ${ident(db.live)}.${ident(t)}`),
  ];
  await server.unprepared(`RENAME TABLE ${moves.join(', ')}`);
}
