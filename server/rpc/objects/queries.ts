// Objects: static values (object_values). One small function per statement; `type` is
// the object_type column value from the fixed table in types.ts, never client text.
import type { Sql } from '../../db/sql.js';
import { firstVersion, lockFloor, retireCounters } from '../counter-floor.js';
import type { CounterKind } from '../counter-floor.js';

export interface ObjectRow {
  object_type: string;
  uuid: string;
  namespace: string;
  node_uuid: string;
  version: string;
  static_values: string;
  /** JSON array of the static values' secret keys. */
  secret_fields: string;
  created_at: string;
  updated_at: string;
}

const COLUMNS = 'object_type, uuid, namespace, node_uuid, version, static_values, secret_fields, created_at, updated_at';

export interface NewObject {
  type: string;
  uuid: string;
  namespace: string;
  nodeUuid: string;
  staticValues: string;
  /** JSON array text. */
  secretFields: string;
}

/**
 * Inserts at version 1 (or above the restore floor and any deleted object of the same type and uuid) and answers the stored row; a taken uuid is ER_DUP_ENTRY. An
 * object placed on a node is inserted only when the node exists, its row read under a
 * shared lock (server/rpc/targets.ts): no row back means no such node, nothing written.
 */
export async function insertObject(sql: Sql, a: NewObject): Promise<ObjectRow | undefined> {
  const version = firstVersion(counterKind(a.type), a.uuid);
  const values = [a.type, a.uuid, a.namespace, a.nodeUuid, ...version.params, a.staticValues, a.secretFields];
  const rows =
    a.nodeUuid === ''
      ? await sql.rows<ObjectRow>(
          `INSERT INTO object_values (object_type, uuid, namespace, node_uuid, version, static_values, secret_fields, created_at, updated_at)
           VALUES (?, ?, ?, ?, ${version.sql}, ?, ?, UTC_TIMESTAMP(6), UTC_TIMESTAMP(6))
           RETURNING ${COLUMNS}`,
          values,
        )
      : await sql.rows<ObjectRow>(
          `INSERT INTO object_values (object_type, uuid, namespace, node_uuid, version, static_values, secret_fields, created_at, updated_at)
           SELECT ?, ?, ?, ?, ${version.sql}, ?, ?, UTC_TIMESTAMP(6), UTC_TIMESTAMP(6) FROM nodes AS n WHERE n.uuid = ?
           LOCK IN SHARE MODE
           RETURNING ${COLUMNS}`,
          [...values, a.nodeUuid],
        );
  return rows[0];
}

export async function selectObject(sql: Sql, type: string, uuid: string): Promise<ObjectRow | undefined> {
  const rows = await sql.rows<ObjectRow>(`SELECT ${COLUMNS} FROM object_values WHERE object_type = ? AND uuid = ?`, [type, uuid]);
  return rows[0];
}

export interface ListScope {
  type: string;
  /** '' = any namespace. */
  namespace: string;
  /** '' = any node. */
  nodeUuid: string;
  /** The last uuid of the previous page. */
  after: string | undefined;
  limit: number;
}

/**
 * Keyset page by uuid within a scope. Every scope column is an equality, so the seek is
 * a plain `uuid > ?` on the index that begins (object_type, scope...): the primary key
 * for the whole type, object_values_namespace / object_values_node for one scope (forced:
 * the plan of a listing must not hang on table statistics). With both scopes the
 * optimizer picks one of the two and filters on the other.
 */
export async function listObjects(sql: Sql, s: ListScope): Promise<ObjectRow[]> {
  let index = '';
  if (s.namespace !== '' && s.nodeUuid === '') index = 'FORCE INDEX (object_values_namespace)';
  if (s.namespace === '' && s.nodeUuid !== '') index = 'FORCE INDEX (object_values_node)';
  const where = ['object_type = ?'];
  const params: string[] = [s.type];
  if (s.namespace !== '') {
    where.push('namespace = ?');
    params.push(s.namespace);
  }
  if (s.nodeUuid !== '') {
    where.push('node_uuid = ?');
    params.push(s.nodeUuid);
  }
  if (s.after !== undefined) {
    where.push('uuid > ?');
    params.push(s.after);
  }
  return sql.rows<ObjectRow>(`SELECT ${COLUMNS} FROM object_values ${index} WHERE ${where.join(' AND ')} ORDER BY uuid LIMIT ?`, [
    ...params,
    s.limit,
  ]);
}

/** New static values and version + 1; only at `expectedVersion` unless it is '0'. Answers rows changed. */
export async function updateObject(
  sql: Sql,
  a: { type: string; uuid: string; staticValues: string; secretFields: string; expectedVersion: string },
): Promise<number> {
  const r = await sql.run(
    `UPDATE object_values SET static_values = ?, secret_fields = ?, version = version + 1, updated_at = UTC_TIMESTAMP(6)
     WHERE object_type = ? AND uuid = ? AND (? = '0' OR version = ?)`,
    [a.staticValues, a.secretFields, a.type, a.uuid, a.expectedVersion, a.expectedVersion],
  );
  return r.affectedRows;
}

/** The retired-counter kind of an object type's versions. */
function counterKind(type: string): CounterKind {
  return `object_values/${type}`;
}

/**
 * Deletes the object and retires its version (one created again with its uuid starts
 * above it); answers where it was placed, undefined when there was no such object.
 */
export async function deleteObjectReturning(sql: Sql, type: string, uuid: string): Promise<{ namespace: string; node_uuid: string } | undefined> {
  // The counter floor first (counter-floor.ts lockFloor), then the row.
  await lockFloor(sql);
  const rows = await sql.rows<{ namespace: string; node_uuid: string; version: string }>(
    'DELETE FROM object_values WHERE object_type = ? AND uuid = ? RETURNING namespace, node_uuid, version',
    [type, uuid],
  );
  const row = rows[0];
  if (!row) return undefined;
  await retireCounters(sql, counterKind(type), [{ id: uuid, last: String(row.version) }]);
  return { namespace: row.namespace, node_uuid: row.node_uuid };
}
