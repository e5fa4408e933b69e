// Maintenance jobs: each runs inside a transaction that first holds the caller's lease.
import type { Sql } from '../../db/pool.js';

/**
 * True when `holder` holds the live lease `name` at `token`. The row stays share-locked
 * until the job's transaction ends, so the lease cannot change hands mid-job.
 */
export async function holdFence(sql: Sql, f: { name: string; holder: string; token: string }): Promise<boolean> {
  const rows = await sql.rows<{ token: string }>(
    `SELECT token FROM leases WHERE name = ? AND holder = ? AND token = ? AND expires_at > UTC_TIMESTAMP(6)
     LOCK IN SHARE MODE`,
    [f.name, f.holder, f.token],
  );
  return rows.length === 1;
}

/**
 * Puts claims whose lease ran out (by database time) back in their queue, bumping the
 * epoch so the old holder's late writes are fenced. One statement on the
 * (state, claim_expires_at) index: its cost is the expired candidates, never history.
 */
export async function requeueExpiredClaims(sql: Sql, limit: number): Promise<number> {
  const r = await sql.run(
    `UPDATE work_items
     SET state = 'QUEUED', epoch = epoch + 1, claim_holder = '', claim_expires_at = NULL,
         not_before = UTC_TIMESTAMP(6), message = 'claim lease expired', updated_at = UTC_TIMESTAMP(6)
     WHERE state = 'CLAIMED' AND claim_expires_at < UTC_TIMESTAMP(6)
     ORDER BY claim_expires_at
     LIMIT ?`,
    [limit],
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
