// The tier replica registry: a row per replica id, owned by the token of the process
// that holds it. Every statement that touches a row names its owner token, so a stalled
// replica can neither refresh nor delete the row of the replica that took its id.
import type { Sql } from '../db/sql.js';

/**
 * The liveness rule, by database time: a tier_replicas or node_heartbeats row is live while
 * its heartbeat is younger than the live window (the tier's replicaLiveMs, nodeLiveMs).
 * Its parameter is the window in microseconds: liveWindow(ms).
 */
const LIVE = 'heartbeat_at > UTC_TIMESTAMP(6) - INTERVAL ? MICROSECOND';
const liveWindow = (ms: number): number => ms * 1000;

export interface ReplicaRow {
  replica_id: string;
  owner_token: string;
  address: string;
  /** Heartbeat age by database time, in microseconds (BIGINT: a string). */
  age_us: string;
}

export async function lockReplica(sql: Sql, replicaId: string): Promise<ReplicaRow | undefined> {
  const rows = await sql.rows<ReplicaRow>(
    `SELECT replica_id, owner_token, address, TIMESTAMPDIFF(MICROSECOND, heartbeat_at, UTC_TIMESTAMP(6)) AS age_us
     FROM tier_replicas WHERE replica_id = ? FOR UPDATE`,
    [replicaId],
  );
  return rows[0];
}

/** False when the id exists already (another replica raced us to it). */
export interface ReplicaClaim {
  replicaId: string;
  ownerToken: string;
  address: string;
  metricsAddress: string;
}

export async function insertReplica(sql: Sql, a: ReplicaClaim): Promise<boolean> {
  const r = await sql.run(
    `INSERT IGNORE INTO tier_replicas (replica_id, owner_token, address, metrics_address, started_at, heartbeat_at)
     VALUES (?, ?, ?, ?, UTC_TIMESTAMP(6), UTC_TIMESTAMP(6))`,
    [a.replicaId, a.ownerToken, a.address, a.metricsAddress],
  );
  return r.affectedRows === 1;
}

/** Takes over the row of a dead replica: a new owner token, a fresh start. */
export async function takeOverReplica(sql: Sql, a: ReplicaClaim): Promise<void> {
  await sql.run(
    `UPDATE tier_replicas SET owner_token = ?, address = ?, metrics_address = ?, started_at = UTC_TIMESTAMP(6), heartbeat_at = UTC_TIMESTAMP(6)
     WHERE replica_id = ?`,
    [a.ownerToken, a.address, a.metricsAddress, a.replicaId],
  );
}

/** Refreshes our own row; 0 when it is gone or owned by someone else now. */
export async function heartbeat(sql: Sql, replicaId: string, ownerToken: string): Promise<number> {
  const r = await sql.run('UPDATE tier_replicas SET heartbeat_at = UTC_TIMESTAMP(6) WHERE replica_id = ? AND owner_token = ?', [
    replicaId,
    ownerToken,
  ]);
  return r.affectedRows;
}

export async function deleteOwnReplica(sql: Sql, replicaId: string, ownerToken: string): Promise<number> {
  const r = await sql.run('DELETE FROM tier_replicas WHERE replica_id = ? AND owner_token = ?', [replicaId, ownerToken]);
  return r.affectedRows;
}

export interface ClusterSummaryRow {
  live_replicas: string;
  live_nodes: string;
}

/** Live replicas and nodes by database time (for /healthz, on demand). */
export async function clusterSummary(sql: Sql, replicaLiveMs: number, nodeLiveMs: number): Promise<ClusterSummaryRow | undefined> {
  const rows = await sql.rows<ClusterSummaryRow>(
    `SELECT
       (SELECT COUNT(*) FROM tier_replicas WHERE ${LIVE}) AS live_replicas,
       (SELECT COUNT(*) FROM node_heartbeats WHERE ${LIVE}) AS live_nodes`,
    [liveWindow(replicaLiveMs), liveWindow(nodeLiveMs)],
  );
  return rows[0];
}

export interface ClusterSizeRow {
  replicas_live: string;
  nodes_live: string;
  nodes_all: string;
  instances: string;
}

/**
 * The load model's inputs by database time: live replicas, live and registered nodes, and
 * standing instances (instance objects whose state is not DELETED). Counts over indexes;
 * the instance count grows with retained history, which is why it is read at most once
 * per SFDB_CLUSTER_SIZE_MS and only when /metrics is scraped.
 */
export async function clusterSize(sql: Sql, replicaLiveMs: number, nodeLiveMs: number): Promise<ClusterSizeRow | undefined> {
  const rows = await sql.rows<ClusterSizeRow>(
    `SELECT
       (SELECT COUNT(*) FROM tier_replicas WHERE ${LIVE}) AS replicas_live,
       (SELECT COUNT(*) FROM node_heartbeats WHERE ${LIVE}) AS nodes_live,
       (SELECT COUNT(*) FROM nodes) AS nodes_all,
       (SELECT COUNT(*) FROM object_values v
          LEFT JOIN object_states s ON s.object_type = v.object_type AND s.uuid = v.uuid
         WHERE v.object_type = 'instance' AND (s.state IS NULL OR s.state <> 'DELETED')) AS instances`,
    [liveWindow(replicaLiveMs), liveWindow(nodeLiveMs)],
  );
  return rows[0];
}

export interface LiveReplicaRow {
  replica_id: string;
  owner_token: string;
  address: string;
}

/**
 * The live replicas by database time: the change feed's peers (server/changefeed/peers.ts),
 * re-read every replicaLiveMs (periodic task registry_peers), and when a new replica
 * announces itself or an unknown one pokes, at most once a second.
 */
export async function selectLiveReplicas(sql: Sql, replicaLiveMs: number): Promise<LiveReplicaRow[]> {
  return sql.rows<LiveReplicaRow>(`SELECT replica_id, owner_token, address FROM tier_replicas WHERE ${LIVE}`, [liveWindow(replicaLiveMs)]);
}
