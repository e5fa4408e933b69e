// Object references: one row per (from, to, relation). The primary key begins with the
// "from" side; object_references_to (to_type, to_uuid) serves the reverse lookup.
import type { Sql } from '../../db/sql.js';

export interface ReferenceRow {
  from_type: string;
  from_uuid: string;
  to_type: string;
  to_uuid: string;
  relation: string;
  created_at: string;
}

export interface ReferenceKey {
  fromType: string;
  fromUuid: string;
  toType: string;
  toUuid: string;
  relation: string;
}

const COLUMNS = 'from_type, from_uuid, to_type, to_uuid, relation, created_at';

/** Answers 1 when this call recorded the reference, 0 when it already existed. */
export async function insertReference(sql: Sql, k: ReferenceKey): Promise<number> {
  const r = await sql.run(
    `INSERT IGNORE INTO object_references (from_type, from_uuid, to_type, to_uuid, relation, created_at)
     VALUES (?, ?, ?, ?, ?, UTC_TIMESTAMP(6))`,
    [k.fromType, k.fromUuid, k.toType, k.toUuid, k.relation],
  );
  return r.affectedRows;
}

export async function deleteReference(sql: Sql, k: ReferenceKey): Promise<number> {
  const r = await sql.run(
    `DELETE FROM object_references
     WHERE from_type = ? AND from_uuid = ? AND to_type = ? AND to_uuid = ? AND relation = ?`,
    [k.fromType, k.fromUuid, k.toType, k.toUuid, k.relation],
  );
  return r.affectedRows;
}

/** What one object refers to, in primary-key order. */
export async function selectReferencesFrom(sql: Sql, type: string, uuid: string, limit: number): Promise<ReferenceRow[]> {
  return sql.rows<ReferenceRow>(
    `SELECT ${COLUMNS} FROM object_references WHERE from_type = ? AND from_uuid = ?
     ORDER BY to_type, to_uuid, relation LIMIT ?`,
    [type, uuid, limit],
  );
}

/**
 * What refers to one object. The order is that of object_references_to, whose entries
 * carry the rest of the primary key (from_type, from_uuid, relation): no sort.
 */
export async function selectReferencesTo(sql: Sql, type: string, uuid: string, limit: number): Promise<ReferenceRow[]> {
  return sql.rows<ReferenceRow>(
    `SELECT ${COLUMNS} FROM object_references WHERE to_type = ? AND to_uuid = ?
     ORDER BY from_type, from_uuid, relation LIMIT ?`,
    [type, uuid, limit],
  );
}
