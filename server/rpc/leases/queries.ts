// Leases: a row per name. `token` is the fencing token: it grows on every change of
// holder and is never reset (a released lease keeps its row). Liveness is database time.
import type { Sql } from '../../db/sql.js';
import { firstCount } from '../counter-floor.js';

export interface LeaseRow {
  name: string;
  holder: string;
  token: string;
  expires_at: string;
  /** Milliseconds left by database time, floored at 0 (BIGINT: a string). */
  remaining_ms: string;
  /** 1 while expires_at is in the future by database time. */
  live: string | number;
}

const COLUMNS = `name, holder, token, expires_at,
  GREATEST(0, TIMESTAMPDIFF(MICROSECOND, UTC_TIMESTAMP(6), expires_at) DIV 1000) AS remaining_ms,
  expires_at > UTC_TIMESTAMP(6) AS live`;

export function isLive(row: LeaseRow): boolean {
  return String(row.live) === '1';
}

/** Creates the lease held by `holder` with token 1 (or the restore floor); false when the name exists already. */
export async function insertLease(sql: Sql, a: { name: string; holder: string; ttlMs: number }): Promise<boolean> {
  const first = firstCount();
  const r = await sql.run(
    `INSERT IGNORE INTO leases (name, holder, token, expires_at, acquired_at, renewed_at)
     VALUES (?, ?, ${first.sql}, UTC_TIMESTAMP(6) + INTERVAL ? MICROSECOND, UTC_TIMESTAMP(6), UTC_TIMESTAMP(6))`,
    [a.name, a.holder, ...first.params, a.ttlMs * 1000],
  );
  return r.affectedRows > 0;
}

/** The leases of `names` (the expiry watcher's look: the names standbys wait for). */
export async function selectLeases(sql: Sql, names: readonly string[]): Promise<LeaseRow[]> {
  if (names.length === 0) return [];
  return sql.rows<LeaseRow>(`SELECT ${COLUMNS} FROM leases WHERE name IN (${names.map(() => '?').join(', ')})`, [...names]);
}

export async function selectLease(sql: Sql, name: string): Promise<LeaseRow | undefined> {
  const rows = await sql.rows<LeaseRow>(`SELECT ${COLUMNS} FROM leases WHERE name = ?`, [name]);
  return rows[0];
}

/** The lease row locked for this transaction (concurrent acquirers queue up behind it). */
export async function lockLease(sql: Sql, name: string): Promise<LeaseRow | undefined> {
  const rows = await sql.rows<LeaseRow>(`SELECT ${COLUMNS} FROM leases WHERE name = ? FOR UPDATE`, [name]);
  return rows[0];
}

/**
 * A new holder takes a free (released or expired) lease, as locked at `token`: the token
 * grows. 0 rows when the row moved past `token` under the lock (see AcquireLease).
 */
export async function takeLease(sql: Sql, a: { name: string; holder: string; ttlMs: number; token: string }): Promise<number> {
  const r = await sql.run(
    `UPDATE leases SET holder = ?, token = token + 1, expires_at = UTC_TIMESTAMP(6) + INTERVAL ? MICROSECOND,
       acquired_at = UTC_TIMESTAMP(6), renewed_at = UTC_TIMESTAMP(6)
     WHERE name = ? AND token = ?`,
    [a.holder, a.ttlMs * 1000, a.name, a.token],
  );
  return r.affectedRows;
}

/** Extends a live lease held by `holder` (at `token` when given); 0 rows when it is not. */
export async function extendLease(
  sql: Sql,
  a: { name: string; holder: string; token: string; ttlMs: number },
): Promise<number> {
  const r = await sql.run(
    `UPDATE leases SET expires_at = UTC_TIMESTAMP(6) + INTERVAL ? MICROSECOND, renewed_at = UTC_TIMESTAMP(6)
     WHERE name = ? AND holder = ? AND token = ? AND expires_at > UTC_TIMESTAMP(6)`,
    [a.ttlMs * 1000, a.name, a.holder, a.token],
  );
  return r.affectedRows;
}

/**
 * Claims the announcement of the unrenewed end of `name` at `token` (migration 0010): 1 for
 * the first replica to claim it, 0 for any later one, and 0 once the lease was taken again,
 * renewed or released.
 */
export async function claimEndAnnouncement(sql: Sql, a: { name: string; token: string }): Promise<number> {
  const r = await sql.run(
    `UPDATE leases SET end_announced_token = token
     WHERE name = ? AND token = ? AND holder <> '' AND expires_at <= UTC_TIMESTAMP(6) AND end_announced_token <> token`,
    [a.name, a.token],
  );
  return r.affectedRows;
}

/** Gives the lease up: no holder, expired now; the row and its token stay. */
export async function releaseLease(sql: Sql, a: { name: string; holder: string; token: string }): Promise<number> {
  const r = await sql.run(
    `UPDATE leases SET holder = '', expires_at = UTC_TIMESTAMP(6), renewed_at = UTC_TIMESTAMP(6)
     WHERE name = ? AND holder = ? AND token = ?`,
    [a.name, a.holder, a.token],
  );
  return r.affectedRows;
}

/** Keyset page by name (the primary key); `pattern` is a LIKE prefix escaped with '!'. */
export async function listLeases(sql: Sql, a: { pattern: string; after: string | undefined; limit: number }): Promise<LeaseRow[]> {
  if (a.after === undefined) {
    return sql.rows<LeaseRow>(
      `SELECT ${COLUMNS} FROM leases WHERE name LIKE CONCAT(?, '%') ESCAPE '!' ORDER BY name LIMIT ?`,
      [a.pattern, a.limit],
    );
  }
  return sql.rows<LeaseRow>(
    `SELECT ${COLUMNS} FROM leases WHERE name LIKE CONCAT(?, '%') ESCAPE '!' AND name > ? ORDER BY name LIMIT ?`,
    [a.pattern, a.after, a.limit],
  );
}
