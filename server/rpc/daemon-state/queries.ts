// Node daemon states: one row per (node, daemon).
//
// The operator hold (operator_hold): set by an operator stop, released by an operator
// start, left as it is by every other write. While it is set, a write of RUNNING or IDLE
// that does not release it changes nothing (the row answered is the held one; the handler
// turns that into FAILED_PRECONDITION). The conditions read operator_hold before its own
// assignment, which comes last: ON DUPLICATE KEY UPDATE assigns left to right. Columns
// are named with their table: the writes select from nodes, which has an updated_at too.
import type { Sql } from '../../db/sql.js';

export interface DaemonStateRow {
  node_uuid: string;
  daemon: string;
  state: string;
  message: string;
  operator_hold: number;
  updated_at: string;
}

/** What a write does to the hold: set it, release it, or (undefined) leave it as it is. */
export type HoldChange = 'set' | 'release' | undefined;

/** The states a held daemon may not record: the ones that say it works. */
export const REFUSED_WHILE_HELD: readonly string[] = ['RUNNING', 'IDLE'];

const COLUMNS = 'node_uuid, daemon, state, message, operator_hold, updated_at';

/** True when `row`, as answered to a write of `state`, is a held row that write left alone. */
export function refusedByHold(row: DaemonStateRow, state: string, hold: HoldChange): boolean {
  return Number(row.operator_hold) === 1 && hold !== 'release' && REFUSED_WHILE_HELD.includes(state);
}

/** A held row that a write leaves alone (see the header); a release is never kept out. */
const KEPT = `(node_daemon_states.operator_hold = 1 AND VALUES(state) IN ('RUNNING', 'IDLE'))`;

function upsertOne(kept: string): string {
  // The node's row, read by primary key under a shared lock, is the source: a missing node
  // writes nothing (server/rpc/targets.ts).
  return `INSERT INTO node_daemon_states (node_uuid, daemon, state, message, operator_hold, updated_at)
     SELECT n.uuid, ?, ?, ?, COALESCE(?, 0), UTC_TIMESTAMP(6) FROM nodes AS n WHERE n.uuid = ?
     LOCK IN SHARE MODE
     ON DUPLICATE KEY UPDATE
       state = IF(${kept}, node_daemon_states.state, VALUES(state)),
       message = IF(${kept}, node_daemon_states.message, VALUES(message)),
       updated_at = IF(${kept}, node_daemon_states.updated_at, VALUES(updated_at)),
       operator_hold = COALESCE(?, node_daemon_states.operator_hold)
     RETURNING ${COLUMNS}`;
}

const UPSERT = upsertOne(KEPT);
const UPSERT_RELEASING = upsertOne('FALSE');

/**
 * Upserts the state and answers it as written; undefined when the node does not exist
 * (nothing written). The node's row is read under a shared lock (server/rpc/targets.ts).
 */
export async function upsertDaemonState(
  sql: Sql,
  a: { nodeUuid: string; daemon: string; state: string; message: string; hold?: HoldChange },
): Promise<DaemonStateRow | undefined> {
  // NULL leaves the hold as it is (a new row starts without one).
  const hold = a.hold === 'set' ? 1 : a.hold === 'release' ? 0 : null;
  const rows = await sql.rows<DaemonStateRow>(a.hold === 'release' ? UPSERT_RELEASING : UPSERT, [a.daemon, a.state, a.message, hold, a.nodeUuid, hold]);
  return rows[0];
}

/**
 * Group commit: many daemon states in one statement; answers the rows as written, keyed
 * `node_uuid/daemon`. A (node, daemon) named twice keeps its last state. Only states of
 * nodes that exist are written, each node read under a shared lock
 * (server/rpc/targets.ts): a key missing from the answer named a missing node. Only writes
 * that leave the hold as it is come here (an operator's stop or start runs alone); a held
 * row keeps its state against RUNNING and IDLE, and is answered as it stands.
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
     ON DUPLICATE KEY UPDATE
       state = IF(${KEPT}, node_daemon_states.state, VALUES(state)),
       message = IF(${KEPT}, node_daemon_states.message, VALUES(message)),
       updated_at = IF(${KEPT}, node_daemon_states.updated_at, VALUES(updated_at))
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
