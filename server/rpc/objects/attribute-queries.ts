// Objects: attributes (object_attributes), one row per (object_type, uuid, key). Key
// lists and key/value batches travel as one JSON parameter unpacked by JSON_TABLE, so
// each statement is one static, prepared text whatever the number of keys.
import type { Sql } from '../../db/sql.js';

export interface AttributeRow {
  attr_key: string;
  value: string;
}

/** At most this many rows are read for one object (SetObjectAttributes keeps it so). */
export const MAX_ATTRIBUTES_PER_OBJECT = 1000;

const KEYS_TABLE = `JSON_TABLE(?, '$[*]' COLUMNS (k VARCHAR(128) PATH '$')) AS j`;

export async function selectAttributes(sql: Sql, type: string, uuid: string, keys: readonly string[]): Promise<AttributeRow[]> {
  if (keys.length === 0) {
    return sql.rows<AttributeRow>(
      `SELECT attr_key, value FROM object_attributes WHERE object_type = ? AND uuid = ? ORDER BY attr_key LIMIT ${MAX_ATTRIBUTES_PER_OBJECT}`,
      [type, uuid],
    );
  }
  return sql.rows<AttributeRow>(
    `SELECT attr_key, value FROM object_attributes
     WHERE object_type = ? AND uuid = ? AND attr_key IN (SELECT j.k FROM ${KEYS_TABLE})
     ORDER BY attr_key`,
    [type, uuid, JSON.stringify(keys)],
  );
}

/**
 * Upserts every [key, JSON text] pair. The JSON text passes through as a JSON string
 * and is stored byte for byte. A value MariaDB finds invalid fails the JSON CHECK (4025).
 */
export async function upsertAttributes(sql: Sql, type: string, uuid: string, pairs: readonly [string, string][]): Promise<void> {
  await sql.run(
    `INSERT INTO object_attributes (object_type, uuid, attr_key, value, updated_at)
     SELECT ?, ?, j.k, j.v, UTC_TIMESTAMP(6)
     FROM JSON_TABLE(?, '$[*]' COLUMNS (k VARCHAR(128) PATH '$[0]', v LONGTEXT PATH '$[1]')) AS j
     ON DUPLICATE KEY UPDATE value = VALUES(value), updated_at = VALUES(updated_at)`,
    [type, uuid, JSON.stringify(pairs)],
  );
}

/**
 * The object's row as the source of a write: a node's in nodes, any other type's in
 * object_values, by primary key (`p`; the ? of `where` take `params`).
 */
function parentRow(type: string, uuid: string): { from: string; where: string; params: string[] } {
  return type === 'node'
    ? { from: 'nodes AS p', where: 'p.uuid = ?', params: [uuid] }
    : { from: 'object_values AS p', where: 'p.object_type = ? AND p.uuid = ?', params: [type, uuid] };
}

/**
 * The one-statement SetObjectAttributes: upserts every pair when the object exists —
 * its row read under a shared lock (server/rpc/targets.ts), so a concurrent delete (which
 * takes the attributes with it) either waits for this statement or is waited for, and no
 * attribute outlives its object — and the object has room for every key even if all were
 * new. Answers false when it wrote nothing (no such object, or near the bound): the
 * caller then takes the exact, transactional path, which says which.
 */
export async function upsertAttributesIfRoom(sql: Sql, type: string, uuid: string, pairs: readonly [string, string][]): Promise<boolean> {
  const object = parentRow(type, uuid);
  const r = await sql.run(
    `INSERT INTO object_attributes (object_type, uuid, attr_key, value, updated_at)
     SELECT ?, ?, j.k, j.v, UTC_TIMESTAMP(6)
     FROM ${object.from}
     JOIN JSON_TABLE(?, '$[*]' COLUMNS (k VARCHAR(128) PATH '$[0]', v LONGTEXT PATH '$[1]')) AS j
     WHERE ${object.where}
       AND (SELECT COUNT(*) FROM object_attributes AS a WHERE a.object_type = ? AND a.uuid = ?) + ? <= ${MAX_ATTRIBUTES_PER_OBJECT}
     LOCK IN SHARE MODE
     ON DUPLICATE KEY UPDATE value = VALUES(value), updated_at = VALUES(updated_at)`,
    [type, uuid, JSON.stringify(pairs), ...object.params, type, uuid, pairs.length],
  );
  // "Records: n" counts the rows the SELECT gave: every pair, or none.
  const m = /Records:\s*(\d+)/.exec(r.info);
  return m !== null && Number(m[1]) === pairs.length;
}

/** One call's attributes in a group-commit batch (see upsertAttributesOfMany). */
export interface AttributeWrite {
  type: string;
  uuid: string;
  pairs: readonly [string, string][];
}

/** The objects of a batch by primary key: nodes in nodes, the others in object_values. */
const NODES_OF = 'nodes AS p ON p.uuid = j.u';
const OBJECTS_OF = 'object_values AS p ON p.object_type = j.t AND p.uuid = j.u';

/**
 * Group commit of SetObjectAttributes: the writes of many calls (all to nodes, or all to
 * other objects: `nodes`) in one statement, under the rule of upsertAttributesIfRoom for
 * each object — it exists, read under a shared lock so no attribute outlives it, and has
 * room for every key the batch writes to it even if all were new. Answers `type/uuid` of
 * the objects written; a call whose object is not among them wrote nothing (its object is
 * missing, or near its bound).
 */
export async function upsertAttributesOfMany(sql: Sql, nodes: boolean, writes: readonly AttributeWrite[]): Promise<Set<string>> {
  const perObject = new Map<string, number>();
  for (const w of writes) perObject.set(`${w.type}/${w.uuid}`, (perObject.get(`${w.type}/${w.uuid}`) ?? 0) + w.pairs.length);
  const rows = writes.flatMap((w) => w.pairs.map(([k, v]) => [w.type, w.uuid, k, v, perObject.get(`${w.type}/${w.uuid}`)]));
  const written = await sql.rows<{ object_type: string; uuid: string }>(
    `INSERT INTO object_attributes (object_type, uuid, attr_key, value, updated_at)
     SELECT STRAIGHT_JOIN j.t, j.u, j.k, j.v, UTC_TIMESTAMP(6)
     FROM JSON_TABLE(?, '$[*]' COLUMNS (t VARCHAR(32) PATH '$[0]', u CHAR(36) PATH '$[1]', k VARCHAR(128) PATH '$[2]', v LONGTEXT PATH '$[3]', n INT PATH '$[4]')) AS j
     JOIN ${nodes ? NODES_OF : OBJECTS_OF}
     WHERE (SELECT COUNT(*) FROM object_attributes AS a WHERE a.object_type = j.t AND a.uuid = j.u) + j.n <= ${MAX_ATTRIBUTES_PER_OBJECT}
     LOCK IN SHARE MODE
     ON DUPLICATE KEY UPDATE value = VALUES(value), updated_at = VALUES(updated_at)
     RETURNING object_type, uuid`,
    [JSON.stringify(rows)],
  );
  return new Set(written.map((r) => `${r.object_type}/${r.uuid}`));
}

export async function countAttributes(sql: Sql, type: string, uuid: string): Promise<number> {
  const rows = await sql.rows<{ n: string }>('SELECT COUNT(*) AS n FROM object_attributes WHERE object_type = ? AND uuid = ?', [
    type,
    uuid,
  ]);
  return Number(rows[0]?.n ?? 0);
}

/** Deletes the named keys, or every attribute of the object when `keys` is empty. */
export async function deleteAttributes(sql: Sql, type: string, uuid: string, keys: readonly string[]): Promise<number> {
  if (keys.length === 0) {
    const r = await sql.run('DELETE FROM object_attributes WHERE object_type = ? AND uuid = ?', [type, uuid]);
    return r.affectedRows;
  }
  const r = await sql.run(
    `DELETE FROM object_attributes WHERE object_type = ? AND uuid = ? AND attr_key IN (SELECT j.k FROM ${KEYS_TABLE})`,
    [type, uuid, JSON.stringify(keys)],
  );
  return r.affectedRows;
}
