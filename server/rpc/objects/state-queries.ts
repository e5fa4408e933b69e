// Objects: mutable state (object_states), one row per (object_type, uuid).
import type { Sql } from '../../db/sql.js';

export interface StateRow {
  object_type: string;
  uuid: string;
  node_uuid: string;
  state: string;
  message: string;
  updated_at: string;
}

/** A state row with the namespace of its object ('' for none, and for a node): where it is placed. */
export interface PlacedStateRow extends StateRow {
  namespace: string;
}

const COLUMNS = 'object_type, uuid, node_uuid, state, message, updated_at';

/**
 * The object's namespace, read in the statement that writes its state (object_states
 * has no namespace column): one primary-key lookup of object_values. A node has no row
 * there, so its namespace is ''.
 */
const NAMESPACE = `COALESCE((SELECT o.namespace FROM object_values o
       WHERE o.object_type = object_states.object_type AND o.uuid = object_states.uuid), '') AS namespace`;

const UPSERT_TAIL = `ON DUPLICATE KEY UPDATE node_uuid = VALUES(node_uuid), state = VALUES(state),
       message = VALUES(message), updated_at = VALUES(updated_at)
     RETURNING ${COLUMNS}, ${NAMESPACE}`;

/**
 * Upserts the state, copying node_uuid from the object's static values in the same
 * statement (a node is placed on itself), and answers it with the object's namespace.
 * No row back means the object does not exist, and nothing was written. The object's row
 * is read under a shared lock (server/rpc/targets.ts): its delete, which takes the state
 * with it, waits for this write or is waited for.
 */
export async function upsertState(
  sql: Sql,
  a: { type: string; uuid: string; state: string; message: string },
): Promise<PlacedStateRow | undefined> {
  const rows =
    a.type === 'node'
      ? await sql.rows<PlacedStateRow>(
          `INSERT INTO object_states (object_type, uuid, node_uuid, state, message, updated_at)
           SELECT 'node', n.uuid, n.uuid, ?, ?, UTC_TIMESTAMP(6) FROM nodes n WHERE n.uuid = ?
           LOCK IN SHARE MODE
           ${UPSERT_TAIL}`,
          [a.state, a.message, a.uuid],
        )
      : await sql.rows<PlacedStateRow>(
          `INSERT INTO object_states (object_type, uuid, node_uuid, state, message, updated_at)
           SELECT v.object_type, v.uuid, v.node_uuid, ?, ?, UTC_TIMESTAMP(6) FROM object_values v
           WHERE v.object_type = ? AND v.uuid = ?
           LOCK IN SHARE MODE
           ${UPSERT_TAIL}`,
          [a.state, a.message, a.type, a.uuid],
        );
  return rows[0];
}

export async function selectState(sql: Sql, type: string, uuid: string): Promise<StateRow | undefined> {
  const rows = await sql.rows<StateRow>(`SELECT ${COLUMNS} FROM object_states WHERE object_type = ? AND uuid = ?`, [type, uuid]);
  return rows[0];
}

/**
 * Deletes the state; answers where it was placed (its node_uuid and its object's
 * namespace, '' for none), undefined when there was no state.
 */
export async function deleteStateReturning(
  sql: Sql,
  type: string,
  uuid: string,
): Promise<{ node_uuid: string; namespace: string } | undefined> {
  const rows = await sql.rows<{ node_uuid: string; namespace: string }>(
    `DELETE FROM object_states WHERE object_type = ? AND uuid = ? RETURNING node_uuid, ${NAMESPACE}`,
    [type, uuid],
  );
  return rows[0];
}

export async function deleteState(sql: Sql, type: string, uuid: string): Promise<number> {
  const r = await sql.run('DELETE FROM object_states WHERE object_type = ? AND uuid = ?', [type, uuid]);
  return r.affectedRows;
}

/**
 * Keyset page by uuid of the objects of a type in a state: object_states_state
 * (object_type, state, uuid), or object_states_node_state (object_type, node_uuid,
 * state, uuid) with a node scope. Equalities on the prefix, so a plain `uuid > ?` seek.
 * The index is forced: with a common state the optimizer may otherwise walk the primary
 * key of the whole type, and the plan of a periodic listing must not hang on statistics.
 */
export async function listByState(
  sql: Sql,
  s: { type: string; state: string; nodeUuid: string; after: string | undefined; limit: number },
): Promise<StateRow[]> {
  const index = s.nodeUuid === '' ? 'object_states_state' : 'object_states_node_state';
  const where = ['object_type = ?'];
  const params: string[] = [s.type];
  if (s.nodeUuid !== '') {
    where.push('node_uuid = ?');
    params.push(s.nodeUuid);
  }
  where.push('state = ?');
  params.push(s.state);
  if (s.after !== undefined) {
    where.push('uuid > ?');
    params.push(s.after);
  }
  return sql.rows<StateRow>(`SELECT ${COLUMNS} FROM object_states FORCE INDEX (${index}) WHERE ${where.join(' AND ')} ORDER BY uuid LIMIT ?`, [
    ...params,
    s.limit,
  ]);
}
