// Nodes: one small function per statement.
import type { Sql } from '../../db/sql.js';
import { firstVersion, lockFloor, retireCounters } from '../counter-floor.js';
import { OBJECT_TYPE_COLUMN } from '../objects/types.js';

/** The object_type of every static type (a fixed table, never client text). */
const STATIC_TYPES = Object.values(OBJECT_TYPE_COLUMN);

export interface NodeRow {
  uuid: string;
  fqdn: string;
  ip_address: string;
  version: string;
  created_at: string;
  updated_at: string;
}

const COLUMNS = 'uuid, fqdn, ip_address, version, created_at, updated_at';

/** Inserts the node and answers the stored row (one statement: a delete right after cannot make it vanish); a taken uuid or fqdn is ER_DUP_ENTRY. */
export async function insertNode(sql: Sql, a: { uuid: string; fqdn: string; ipAddress: string }): Promise<NodeRow> {
  const version = firstVersion('nodes', a.uuid);
  const rows = await sql.rows<NodeRow>(
    `INSERT INTO nodes (uuid, fqdn, ip_address, version, created_at, updated_at)
     VALUES (?, ?, ?, ${version.sql}, UTC_TIMESTAMP(6), UTC_TIMESTAMP(6))
     RETURNING ${COLUMNS}`,
    [a.uuid, a.fqdn, a.ipAddress, ...version.params],
  );
  return rows[0] as NodeRow;
}

export async function selectNode(sql: Sql, uuid: string): Promise<NodeRow | undefined> {
  const rows = await sql.rows<NodeRow>(`SELECT ${COLUMNS} FROM nodes WHERE uuid = ?`, [uuid]);
  return rows[0];
}

export async function selectNodeByFqdn(sql: Sql, fqdn: string): Promise<NodeRow | undefined> {
  const rows = await sql.rows<NodeRow>(`SELECT ${COLUMNS} FROM nodes WHERE fqdn = ?`, [fqdn]);
  return rows[0];
}

/** Keyset page by uuid (the primary key), `limit` rows after `after`. */
export async function listNodes(sql: Sql, after: string | undefined, limit: number): Promise<NodeRow[]> {
  if (after === undefined) {
    return sql.rows<NodeRow>(`SELECT ${COLUMNS} FROM nodes ORDER BY uuid LIMIT ?`, [limit]);
  }
  return sql.rows<NodeRow>(`SELECT ${COLUMNS} FROM nodes WHERE uuid > ? ORDER BY uuid LIMIT ?`, [after, limit]);
}

/** Sets fqdn and ip_address (pass the current value to keep one) and bumps the version. */
export async function updateNode(
  sql: Sql,
  a: { uuid: string; fqdn: string; ipAddress: string; expectedVersion: string },
): Promise<number> {
  const r = await sql.run(
    `UPDATE nodes SET fqdn = ?, ip_address = ?, version = version + 1, updated_at = UTC_TIMESTAMP(6)
     WHERE uuid = ? AND (? = '0' OR version = ?)`,
    [a.fqdn, a.ipAddress, a.uuid, a.expectedVersion, a.expectedVersion],
  );
  return r.affectedRows;
}

/**
 * Deletes the node's row and retires its version (a node created again with its uuid
 * starts above it); 0 when there was none. The counter floor first (counter-floor.ts
 * lockFloor): in a transaction, whose later retirements (deleteNodeRows) it covers too.
 */
export async function deleteNode(sql: Sql, uuid: string): Promise<number> {
  await lockFloor(sql);
  const rows = await sql.rows<{ version: string }>('DELETE FROM nodes WHERE uuid = ? RETURNING version', [uuid]);
  await retireCounters(sql, 'nodes', rows.map((r) => ({ id: uuid, last: String(r.version) })));
  return rows.length;
}

/**
 * One object placed on the node, if any (DeleteNode refuses while there is one). A range
 * of object_values_node (object_type, node_uuid, uuid) per type: no scan of other nodes.
 */
export async function selectPlacedObject(sql: Sql, nodeUuid: string): Promise<{ object_type: string; uuid: string } | undefined> {
  const rows = await sql.rows<{ object_type: string; uuid: string }>(
    `SELECT object_type, uuid FROM object_values FORCE INDEX (object_values_node)
     WHERE object_type IN (${STATIC_TYPES.map(() => '?').join(', ')}) AND node_uuid = ?
     LIMIT 1`,
    [...STATIC_TYPES, nodeUuid],
  );
  return rows[0];
}

/**
 * What hangs off a node, removed with it (DeleteNode): its heartbeat, daemon states, work
 * items (every state: finished ones are its queues' history), the blob transfers it
 * receives, and, a node being an object too, its generic state and attributes. Each by an
 * index that begins with the node's uuid; the work items' epochs are retired. Answers the daemons whose states went (their
 * topics hear it).
 */
export async function deleteNodeRows(sql: Sql, nodeUuid: string): Promise<{ daemons: string[] }> {
  await sql.run('DELETE FROM node_heartbeats WHERE node_uuid = ?', [nodeUuid]);
  const daemons = await sql.rows<{ daemon: string }>('DELETE FROM node_daemon_states WHERE node_uuid = ? RETURNING daemon', [nodeUuid]);
  // A work item's claim epochs retire with it: an item enqueued again with its id starts above them.
  const items = await sql.rows<{ id: string; epoch: string }>('DELETE FROM work_items WHERE node_uuid = ? RETURNING id, epoch', [nodeUuid]);
  await retireCounters(sql, 'work_items', items.filter((i) => String(i.epoch) !== '0').map((i) => ({ id: i.id, last: String(i.epoch) })));
  await sql.run('DELETE FROM blob_transfers WHERE node_uuid = ?', [nodeUuid]);
  await sql.run("DELETE FROM object_states WHERE object_type = 'node' AND uuid = ?", [nodeUuid]);
  await sql.run("DELETE FROM object_attributes WHERE object_type = 'node' AND uuid = ?", [nodeUuid]);
  return { daemons: daemons.map((d) => d.daemon) };
}

/**
 * Records a heartbeat at database time and answers that time; undefined when the node
 * does not exist (nothing written). The node's row is read under a shared lock
 * (server/rpc/targets.ts): a concurrent DeleteNode waits, or is waited for.
 */
export async function upsertHeartbeat(sql: Sql, nodeUuid: string, stats: string): Promise<string | undefined> {
  const rows = await sql.rows<{ heartbeat_at: string }>(
    `INSERT INTO node_heartbeats (node_uuid, heartbeat_at, stats)
     SELECT n.uuid, UTC_TIMESTAMP(6), ? FROM nodes AS n WHERE n.uuid = ?
     LOCK IN SHARE MODE
     ON DUPLICATE KEY UPDATE heartbeat_at = VALUES(heartbeat_at), stats = VALUES(stats)
     RETURNING heartbeat_at`,
    [stats, nodeUuid],
  );
  return rows[0]?.heartbeat_at;
}

/**
 * Group commit (see server/db/group-commit.ts): the heartbeats of many nodes in one
 * statement, all at one database time; answers each written node's recorded time. A node
 * named twice keeps its last stats (the calls were concurrent). Only nodes that exist are
 * written, each read under a shared lock (server/rpc/targets.ts): a node missing from the
 * answer did not exist, and nothing was written for it.
 */
export async function upsertHeartbeats(sql: Sql, beats: readonly { nodeUuid: string; stats: string }[]): Promise<Map<string, string>> {
  const rows = await sql.rows<{ node_uuid: string; heartbeat_at: string }>(
    `INSERT INTO node_heartbeats (node_uuid, heartbeat_at, stats)
     SELECT STRAIGHT_JOIN j.n, UTC_TIMESTAMP(6), j.s
     FROM JSON_TABLE(?, '$[*]' COLUMNS (n CHAR(36) PATH '$[0]', s LONGTEXT PATH '$[1]')) AS j
     JOIN nodes AS n ON n.uuid = j.n
     LOCK IN SHARE MODE
     ON DUPLICATE KEY UPDATE heartbeat_at = VALUES(heartbeat_at), stats = VALUES(stats)
     RETURNING node_uuid, heartbeat_at`,
    [JSON.stringify(beats.map((b) => [b.nodeUuid, b.stats]))],
  );
  return new Map(rows.map((r) => [r.node_uuid, r.heartbeat_at]));
}

export interface ReplicaStatusRow {
  replica_id: string;
  address: string;
  metrics_address: string;
  started_at: string;
  age_us: string;
}

export async function selectReplicaStatus(sql: Sql): Promise<ReplicaStatusRow[]> {
  return sql.rows<ReplicaStatusRow>(
    `SELECT replica_id, address, metrics_address, started_at, TIMESTAMPDIFF(MICROSECOND, heartbeat_at, UTC_TIMESTAMP(6)) AS age_us
     FROM tier_replicas ORDER BY replica_id`,
  );
}

export interface NodeStatusRow {
  uuid: string;
  fqdn: string;
  age_us: string | null;
  stats: string | null;
}

/** Every node with its heartbeat age; a node that never beat has a null age. */
export async function selectNodeStatus(sql: Sql): Promise<NodeStatusRow[]> {
  return sql.rows<NodeStatusRow>(
    `SELECT n.uuid, n.fqdn, TIMESTAMPDIFF(MICROSECOND, h.heartbeat_at, UTC_TIMESTAMP(6)) AS age_us, h.stats
     FROM nodes n LEFT JOIN node_heartbeats h ON h.node_uuid = n.uuid ORDER BY n.uuid`,
  );
}

export async function selectDatabaseTime(sql: Sql): Promise<string> {
  const rows = await sql.rows<{ now: string }>('SELECT UTC_TIMESTAMP(6) AS now');
  return rows[0]?.now ?? '';
}
