// Nodes: one small function per statement.
import type { Sql } from '../../db/pool.js';
import { FIRST_COUNT } from '../counter-floor.js';

export interface NodeRow {
  uuid: string;
  fqdn: string;
  ip_address: string;
  version: string;
  created_at: string;
  updated_at: string;
}

const COLUMNS = 'uuid, fqdn, ip_address, version, created_at, updated_at';

export async function insertNode(sql: Sql, a: { uuid: string; fqdn: string; ipAddress: string }): Promise<void> {
  await sql.run(
    `INSERT INTO nodes (uuid, fqdn, ip_address, version, created_at, updated_at)
     VALUES (?, ?, ?, ${FIRST_COUNT}, UTC_TIMESTAMP(6), UTC_TIMESTAMP(6))`,
    [a.uuid, a.fqdn, a.ipAddress],
  );
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

export async function deleteNode(sql: Sql, uuid: string): Promise<number> {
  const r = await sql.run('DELETE FROM nodes WHERE uuid = ?', [uuid]);
  return r.affectedRows;
}

export async function deleteNodeHeartbeat(sql: Sql, nodeUuid: string): Promise<void> {
  await sql.run('DELETE FROM node_heartbeats WHERE node_uuid = ?', [nodeUuid]);
}

export async function deleteNodeDaemonStates(sql: Sql, nodeUuid: string): Promise<void> {
  await sql.run('DELETE FROM node_daemon_states WHERE node_uuid = ?', [nodeUuid]);
}

/** A node is also an object: its generic state and attributes go with it. */
export async function deleteNodeObjectRows(sql: Sql, nodeUuid: string): Promise<void> {
  await sql.run("DELETE FROM object_states WHERE object_type = 'node' AND uuid = ?", [nodeUuid]);
  await sql.run("DELETE FROM object_attributes WHERE object_type = 'node' AND uuid = ?", [nodeUuid]);
}

/** Records a heartbeat at database time and answers that time. */
export async function upsertHeartbeat(sql: Sql, nodeUuid: string, stats: string): Promise<string> {
  const rows = await sql.rows<{ heartbeat_at: string }>(
    `REPLACE INTO node_heartbeats (node_uuid, heartbeat_at, stats) VALUES (?, UTC_TIMESTAMP(6), ?)
     RETURNING heartbeat_at`,
    [nodeUuid, stats],
  );
  return rows[0]?.heartbeat_at ?? '';
}

/**
 * Group commit (see server/db/group-commit.ts): the heartbeats of many nodes in one
 * statement, all at one database time; answers each node's recorded time. A node named
 * twice keeps its last stats (the calls were concurrent).
 */
export async function upsertHeartbeats(sql: Sql, beats: readonly { nodeUuid: string; stats: string }[]): Promise<Map<string, string>> {
  const rows = await sql.rows<{ node_uuid: string; heartbeat_at: string }>(
    `INSERT INTO node_heartbeats (node_uuid, heartbeat_at, stats)
     SELECT j.n, UTC_TIMESTAMP(6), j.s
     FROM JSON_TABLE(?, '$[*]' COLUMNS (n CHAR(36) PATH '$[0]', s LONGTEXT PATH '$[1]')) AS j
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
