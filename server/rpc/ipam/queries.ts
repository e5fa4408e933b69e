// IPAM reservations: one row per (ipam, address), primary key (ipam_uuid, address).
import type { Sql } from '../../db/sql.js';

export interface ReservationRow {
  ipam_uuid: string;
  address: string;
  owner_type: string;
  owner_uuid: string;
  reserved_at: string;
}

const COLUMNS = 'ipam_uuid, address, owner_type, owner_uuid, reserved_at';

/** Inserts unless the address is taken; answers 1 when this call reserved it, else 0. */
export async function insertReservation(
  sql: Sql,
  a: { ipamUuid: string; address: string; ownerType: string; ownerUuid: string },
): Promise<number> {
  const r = await sql.run(
    `INSERT IGNORE INTO ipam_reservations (ipam_uuid, address, owner_type, owner_uuid, reserved_at)
     VALUES (?, ?, ?, ?, UTC_TIMESTAMP(6))`,
    [a.ipamUuid, a.address, a.ownerType, a.ownerUuid],
  );
  return r.affectedRows;
}

/** A shared-lock read: inside a transaction, the row cannot be released under us. */
export async function selectReservationShared(sql: Sql, ipamUuid: string, address: string): Promise<ReservationRow | undefined> {
  const rows = await sql.rows<ReservationRow>(
    `SELECT ${COLUMNS} FROM ipam_reservations WHERE ipam_uuid = ? AND address = ? LOCK IN SHARE MODE`,
    [ipamUuid, address],
  );
  return rows[0];
}

export async function selectReservation(sql: Sql, ipamUuid: string, address: string): Promise<ReservationRow | undefined> {
  const rows = await sql.rows<ReservationRow>(
    `SELECT ${COLUMNS} FROM ipam_reservations WHERE ipam_uuid = ? AND address = ?`,
    [ipamUuid, address],
  );
  return rows[0];
}

export async function deleteReservation(sql: Sql, ipamUuid: string, address: string): Promise<number> {
  const r = await sql.run('DELETE FROM ipam_reservations WHERE ipam_uuid = ? AND address = ?', [ipamUuid, address]);
  return r.affectedRows;
}

/** Deletes only when `ownerUuid` holds the address. */
export async function deleteOwnedReservation(sql: Sql, ipamUuid: string, address: string, ownerUuid: string): Promise<number> {
  const r = await sql.run(
    'DELETE FROM ipam_reservations WHERE ipam_uuid = ? AND address = ? AND owner_uuid = ?',
    [ipamUuid, address, ownerUuid],
  );
  return r.affectedRows;
}

/** Keyset page of one IPAM's reservations by address (text order), `limit` rows after `after`. */
export async function listReservations(sql: Sql, ipamUuid: string, after: string | undefined, limit: number): Promise<ReservationRow[]> {
  if (after === undefined) {
    return sql.rows<ReservationRow>(
      `SELECT ${COLUMNS} FROM ipam_reservations WHERE ipam_uuid = ? ORDER BY address LIMIT ?`,
      [ipamUuid, limit],
    );
  }
  // FORCE INDEX: without it MariaDB may take a ref scan on ipam_uuid alone, which reads
  // from the IPAM's first address on every page (see the keyset tests).
  return sql.rows<ReservationRow>(
    `SELECT ${COLUMNS} FROM ipam_reservations FORCE INDEX (PRIMARY)
     WHERE ipam_uuid = ? AND address > ? ORDER BY address LIMIT ?`,
    [ipamUuid, after, limit],
  );
}

/** Up to `limit` reserved addresses of one IPAM, from the primary key alone. */
export async function selectAddresses(sql: Sql, ipamUuid: string, limit: number): Promise<string[]> {
  const rows = await sql.rows<{ address: string }>(
    'SELECT address FROM ipam_reservations WHERE ipam_uuid = ? ORDER BY address LIMIT ?',
    [ipamUuid, limit],
  );
  return rows.map((r) => r.address);
}
