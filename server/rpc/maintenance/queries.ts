// Maintenance jobs: each runs inside a transaction that first holds the caller's lease
// (../fence.ts).
import type { Sql } from '../../db/sql.js';

export interface ExpiredClaim {
  seq: string;
  id: string;
  node_uuid: string;
  queue: string;
}

/**
 * Claims whose lease ran out (by database time), oldest first, locked for the sweep's
 * transaction. On the (state, claim_expires_at) index: its cost is the expired
 * candidates, never history.
 */
export const EXPIRED_CLAIMS_SQL = `SELECT seq, id, node_uuid, queue FROM work_items FORCE INDEX (work_items_claims)
     WHERE state = 'CLAIMED' AND claim_expires_at < UTC_TIMESTAMP(6)
     ORDER BY claim_expires_at
     LIMIT ?
     FOR UPDATE`;

export async function lockExpiredClaims(sql: Sql, limit: number): Promise<ExpiredClaim[]> {
  return sql.rows<ExpiredClaim>(EXPIRED_CLAIMS_SQL, [limit]);
}

/**
 * Puts the locked expired claims back in their queue, bumping the epoch so the old
 * holder's late writes are fenced. By primary key; the state check keeps it exact.
 */
export async function requeueClaims(sql: Sql, seqs: readonly string[]): Promise<number> {
  if (seqs.length === 0) return 0;
  const r = await sql.run(
    `UPDATE work_items
     SET state = 'QUEUED', epoch = epoch + 1, claim_holder = '', claim_expires_at = NULL,
         not_before = UTC_TIMESTAMP(6), message = 'claim lease expired', updated_at = UTC_TIMESTAMP(6)
     WHERE seq IN (${seqs.map(() => '?').join(', ')}) AND state = 'CLAIMED'`,
    [...seqs],
  );
  return r.affectedRows;
}

/** Removes replica rows whose heartbeat is older than `olderThanMs` (database time). */
export async function deleteStaleReplicas(sql: Sql, olderThanMs: number): Promise<string[]> {
  const rows = await sql.rows<{ replica_id: string }>(
    `DELETE FROM tier_replicas WHERE heartbeat_at < UTC_TIMESTAMP(6) - INTERVAL ? MICROSECOND RETURNING replica_id`,
    [olderThanMs * 1000],
  );
  return rows.map((r) => r.replica_id);
}
