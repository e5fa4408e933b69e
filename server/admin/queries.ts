// The admin view's own statements (source `admin`), beside the ones it borrows from the
// RPC families (replica and node status, leases). Ages are by database time
// (TIMESTAMPDIFF against UTC_TIMESTAMP(6)), never by this host's clock.
import type { Sql } from '../db/sql.js';

export interface DaemonRow {
  node_uuid: string;
  daemon: string;
  state: string;
  message: string;
  /** 1 while an operator stop holds the daemon (sf-ctl stop-daemon until start-daemon). */
  operator_hold: number;
  updated_at: string;
  /** Microseconds since updated_at (BIGINT: a string). */
  age_us: string;
}

const DAEMON_COLUMNS = 'node_uuid, daemon, state, message, operator_hold, updated_at, TIMESTAMPDIFF(MICROSECOND, updated_at, UTC_TIMESTAMP(6)) AS age_us';

/** Most rows one admin statement answers. */
export const ADMIN_ROW_LIMIT = 20_000;

/** Every node's daemon states, in one statement (the primary key's order). */
export async function selectAllDaemonStates(sql: Sql): Promise<DaemonRow[]> {
  return sql.rows<DaemonRow>(`SELECT ${DAEMON_COLUMNS} FROM node_daemon_states ORDER BY node_uuid, daemon LIMIT ?`, [ADMIN_ROW_LIMIT]);
}

function placeholders(n: number): string {
  return Array.from({ length: n }, () => '?').join(', ');
}

/** The daemon states of some nodes (those whose states changed), in one statement. */
export async function selectDaemonStatesOf(sql: Sql, nodeUuids: readonly string[]): Promise<DaemonRow[]> {
  if (nodeUuids.length === 0) return [];
  return sql.rows<DaemonRow>(
    `SELECT ${DAEMON_COLUMNS} FROM node_daemon_states WHERE node_uuid IN (${placeholders(nodeUuids.length)}) ORDER BY node_uuid, daemon LIMIT ?`,
    [...nodeUuids, ADMIN_ROW_LIMIT],
  );
}

export interface StuckRow {
  id: string;
  node_uuid: string;
  queue: string;
  epoch: string;
  attempts: number;
  claim_holder: string;
  claim_expires_at: string;
  /** Microseconds since the claim's lease ran out. */
  stuck_us: string;
}

/** Claims whose lease ran out, oldest first (index work_items_claims, as ListStuckClaims). */
export async function selectStuckClaims(sql: Sql, limit: number): Promise<StuckRow[]> {
  return sql.rows<StuckRow>(
    `SELECT id, node_uuid, queue, epoch, attempts, claim_holder, claim_expires_at,
       TIMESTAMPDIFF(MICROSECOND, claim_expires_at, UTC_TIMESTAMP(6)) AS stuck_us
     FROM work_items WHERE state = 'CLAIMED' AND claim_expires_at < UTC_TIMESTAMP(6)
     ORDER BY claim_expires_at LIMIT ?`,
    [limit],
  );
}

export interface ObjectListRow {
  uuid: string;
  node_uuid: string;
  version: string;
  static_values: string;
  secret_fields: string;
  updated_at: string;
  /** NULL: no state recorded. */
  state: string | null;
}

const OBJECT_COLUMNS = 'v.uuid, v.node_uuid, v.version, v.static_values, v.secret_fields, v.updated_at, s.state';
const STATE_JOIN = 'LEFT JOIN object_states s ON s.object_type = v.object_type AND s.uuid = v.uuid';

/**
 * A keyset page of a namespace's objects of one type, with their states: the seek runs on
 * object_values_namespace (object_type, namespace, uuid), forced as ListInstances does;
 * each state is a primary-key lookup.
 */
export async function selectNamespacePage(sql: Sql, a: { type: string; namespace: string; after: string; limit: number }): Promise<ObjectListRow[]> {
  return sql.rows<ObjectListRow>(
    `SELECT ${OBJECT_COLUMNS} FROM object_values v FORCE INDEX (object_values_namespace) ${STATE_JOIN}
     WHERE v.object_type = ? AND v.namespace = ? AND v.uuid > ? ORDER BY v.uuid LIMIT ?`,
    [a.type, a.namespace, a.after, a.limit],
  );
}

/** Some objects of a namespace (the changed rows of a page), by primary key, in one statement. */
export async function selectNamespaceObjects(sql: Sql, a: { type: string; namespace: string; uuids: readonly string[] }): Promise<ObjectListRow[]> {
  if (a.uuids.length === 0) return [];
  return sql.rows<ObjectListRow>(
    `SELECT ${OBJECT_COLUMNS} FROM object_values v ${STATE_JOIN}
     WHERE v.object_type = ? AND v.uuid IN (${placeholders(a.uuids.length)}) AND v.namespace = ? ORDER BY v.uuid`,
    [a.type, ...a.uuids, a.namespace],
  );
}
