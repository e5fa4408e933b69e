// Node daemon states: one row per (node, daemon).
import type { Sql } from '../../db/pool.js';

export interface DaemonStateRow {
  node_uuid: string;
  daemon: string;
  state: string;
  message: string;
  updated_at: string;
}

const COLUMNS = 'node_uuid, daemon, state, message, updated_at';

/**
 * Upserts the state and answers it as written; undefined when the node does not exist
 * (nothing written). The node's row is read under a shared lock (server/rpc/targets.ts).
 */
export async function upsertDaemonState(
  sql: Sql,
  a: { nodeUuid: string; daemon: string; state: string; message: string },
): Promise<DaemonStateRow | undefined> {
  const rows = await sql.rows<DaemonStateRow>(
    `INSERT INTO node_daemon_states (node_uuid, daemon, state, message, updated_at)
     SELECT n.uuid, ?, ?, ?, UTC_TIMESTAMP(6) FROM nodes AS n WHERE n.uuid = ?
     LOCK IN SHARE MODE
     ON DUPLICATE KEY UPDATE state = VALUES(state), message = VALUES(message), updated_at = VALUES(updated_at)
     RETURNING ${COLUMNS}`,
    [a.daemon, a.state, a.message, a.nodeUuid],
  );
  return rows[0];
}

/**
 * Group commit: many daemon states in one statement; answers the rows as written, keyed
 * `node_uuid/daemon`. A (node, daemon) named twice keeps its last state. Only states of
 * nodes that exist are written, each node read under a shared lock
 * (server/rpc/targets.ts): a key missing from the answer named a missing node.
 */
export async function upsertDaemonStates(
  sql: Sql,
  states: readonly { nodeUuid: string; daemon: string; state: string; message: string }[],
): Promise<Map<string, DaemonStateRow>> {
  const rows = await sql.rows<DaemonStateRow>(
    `INSERT INTO node_daemon_states (node_uuid, daemon, state, message, updated_at)
     SELECT STRAIGHT_JOIN j.n, j.d, j.s, j.m, UTC_TIMESTAMP(6)
     FROM JSON_TABLE(?, '$[*]' COLUMNS (n CHAR(36) PATH '$[0]', d VARCHAR(64) PATH '$[1]', s VARCHAR(16) PATH '$[2]', m VARCHAR(1024) PATH '$[3]')) AS j
     JOIN nodes AS n ON n.uuid = j.n
     LOCK IN SHARE MODE
     ON DUPLICATE KEY UPDATE state = VALUES(state), message = VALUES(message), updated_at = VALUES(updated_at)
     RETURNING ${COLUMNS}`,
    [JSON.stringify(states.map((a) => [a.nodeUuid, a.daemon, a.state, a.message]))],
  );
  return new Map(rows.map((r) => [`${r.node_uuid}/${r.daemon}`, r]));
}

export async function selectDaemonState(sql: Sql, nodeUuid: string, daemon: string): Promise<DaemonStateRow | undefined> {
  const rows = await sql.rows<DaemonStateRow>(
    `SELECT ${COLUMNS} FROM node_daemon_states WHERE node_uuid = ? AND daemon = ?`,
    [nodeUuid, daemon],
  );
  return rows[0];
}

export async function selectDaemonStates(sql: Sql, nodeUuid: string): Promise<DaemonStateRow[]> {
  return sql.rows<DaemonStateRow>(
    `SELECT ${COLUMNS} FROM node_daemon_states WHERE node_uuid = ? ORDER BY daemon LIMIT 1000`,
    [nodeUuid],
  );
}
