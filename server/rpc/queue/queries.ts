// Work items: one small function per statement. Every periodic statement is scoped by an
// index over active rows only: work_items_dequeue (node_uuid, queue, state, seq) for
// dequeue and queue length, work_items_claims (state, claim_expires_at) for stuck claims.
// Finished items stay as history and are never scanned by these.
import type { Sql } from '../../db/sql.js';
import { firstEpoch } from '../counter-floor.js';

export interface WorkItemRow {
  seq: string;
  id: string;
  node_uuid: string;
  queue: string;
  payload: string;
  state: string;
  epoch: string;
  attempts: number;
  claim_holder: string;
  claim_expires_at: string | null;
  not_before: string;
  result: string | null;
  message: string;
  created_at: string;
  updated_at: string;
}

/** Every column of a work item (read back whole: GetWorkItem, ListWorkItems and every answer carrying a WorkItem). */
export const COLUMNS =
  'seq, id, node_uuid, queue, payload, state, epoch, attempts, claim_holder, claim_expires_at, not_before, result, message, created_at, updated_at';

/** `?, ?, ?` for an IN list of `n` values (n ≤ the dequeue limit). Values stay parameters. */
function placeholders(n: number): string {
  return Array.from({ length: n }, () => '?').join(', ');
}

/**
 * Inserts a QUEUED item due `delayMs` from now (database time), at epoch 0 (or the restore
 * floor, or the last epoch of a deleted item of the same id: its first claim is above
 * it); ER_DUP_ENTRY when the id exists. Only for a node
 * that exists, its row read under a shared lock (server/rpc/targets.ts): no row back means
 * no such node, nothing written.
 */
export async function insertWorkItem(
  sql: Sql,
  a: { id: string; nodeUuid: string; queue: string; payload: string; delayMs: number },
): Promise<WorkItemRow | undefined> {
  const epoch = firstEpoch(a.id);
  const rows = await sql.rows<WorkItemRow>(
    `INSERT INTO work_items (id, node_uuid, queue, payload, state, epoch, attempts, not_before, created_at, updated_at)
     SELECT ?, n.uuid, ?, ?, 'QUEUED', ${epoch.sql}, 0, UTC_TIMESTAMP(6) + INTERVAL ? MICROSECOND, UTC_TIMESTAMP(6), UTC_TIMESTAMP(6)
     FROM nodes AS n WHERE n.uuid = ?
     LOCK IN SHARE MODE
     RETURNING ${COLUMNS}`,
    [a.id, a.queue, a.payload, ...epoch.params, a.delayMs * 1000, a.nodeUuid],
  );
  return rows[0];
}

export async function selectWorkItem(sql: Sql, id: string): Promise<WorkItemRow | undefined> {
  const rows = await sql.rows<WorkItemRow>(`SELECT ${COLUMNS} FROM work_items WHERE id = ?`, [id]);
  return rows[0];
}

/**
 * The oldest due QUEUED items of one (node, queue), locked for this transaction; rows
 * another dequeuer holds are skipped, never waited for. The index is forced: on a small
 * or freshly created table the optimizer may prefer a primary-key scan for ORDER BY seq,
 * and a locking scan of the primary key would lock (and so hide) other nodes' items.
 * The same statement answers, in one more row (seq NULL), how long until the earliest
 * delayed item of that queue is due (NULL when none): a MIN over work_items_due, one
 * index dive, no lock; and whether the node exists (Dequeue of a node that does not is
 * NOT_FOUND): one primary-key read of nodes.
 */
export const DUE_ITEMS_SQL = `(SELECT seq, NULL AS due_in_us, NULL AS node_known FROM work_items FORCE INDEX (work_items_dequeue)
     WHERE node_uuid = ? AND queue = ? AND state = 'QUEUED' AND not_before <= UTC_TIMESTAMP(6)
     ORDER BY seq LIMIT ?
     FOR UPDATE SKIP LOCKED)
   UNION ALL
   (SELECT NULL, TIMESTAMPDIFF(MICROSECOND, UTC_TIMESTAMP(6), MIN(not_before)), (SELECT COUNT(*) FROM nodes WHERE uuid = ?)
     FROM work_items FORCE INDEX (work_items_due)
     WHERE node_uuid = ? AND queue = ? AND state = 'QUEUED' AND not_before > UTC_TIMESTAMP(6))`;

/** The parameters of DUE_ITEMS_SQL. */
export function dueItemsParams(nodeUuid: string, queue: string, limit: number): (string | number)[] {
  return [nodeUuid, queue, limit, nodeUuid, nodeUuid, queue];
}

export async function lockDueItems(
  sql: Sql,
  nodeUuid: string,
  queue: string,
  limit: number,
): Promise<{ seqs: string[]; dueInUs: number | undefined; nodeKnown: boolean }> {
  const rows = await sql.rows<{ seq: string | null; due_in_us: string | number | null; node_known: string | number | null }>(
    DUE_ITEMS_SQL,
    dueItemsParams(nodeUuid, queue, limit),
  );
  const seqs: string[] = [];
  let dueInUs: number | undefined;
  let nodeKnown = false;
  for (const r of rows) {
    if (r.seq !== null) seqs.push(String(r.seq));
    else {
      if (r.due_in_us !== null) dueInUs = Number(r.due_in_us);
      nodeKnown = Number(r.node_known) > 0;
    }
  }
  return { seqs, dueInUs, nodeKnown };
}

/** Claims the locked items: a new epoch (the fencing token), one more attempt, a lease. */
export async function claimItems(sql: Sql, seqs: readonly string[], a: { holder: string; leaseMs: number }): Promise<number> {
  const r = await sql.run(
    `UPDATE work_items
     SET state = 'CLAIMED', epoch = epoch + 1, attempts = attempts + 1, claim_holder = ?,
         claim_expires_at = UTC_TIMESTAMP(6) + INTERVAL ? MICROSECOND, updated_at = UTC_TIMESTAMP(6)
     WHERE seq IN (${placeholders(seqs.length)}) AND state = 'QUEUED'`,
    [a.holder, a.leaseMs * 1000, ...seqs],
  );
  return r.affectedRows;
}

/** Reads items back by primary key (MariaDB has no UPDATE ... RETURNING). */
export async function selectItemsBySeq(sql: Sql, seqs: readonly string[]): Promise<WorkItemRow[]> {
  return sql.rows<WorkItemRow>(`SELECT ${COLUMNS} FROM work_items WHERE seq IN (${placeholders(seqs.length)})`, [...seqs]);
}

/** Extends a claim held at `epoch`; 0 rows when the epoch is stale or the item is not claimed. */
export async function renewClaim(sql: Sql, a: { id: string; epoch: string; leaseMs: number }): Promise<number> {
  const r = await sql.run(
    `UPDATE work_items SET claim_expires_at = UTC_TIMESTAMP(6) + INTERVAL ? MICROSECOND, updated_at = UTC_TIMESTAMP(6)
     WHERE id = ? AND epoch = ? AND state = 'CLAIMED'`,
    [a.leaseMs * 1000, a.id, a.epoch],
  );
  return r.affectedRows;
}

/** Finishes a claim held at `epoch` as SUCCEEDED or FAILED; 0 rows when fenced. */
export async function resolveItem(
  sql: Sql,
  a: { id: string; epoch: string; outcome: string; result: string | null },
): Promise<number> {
  const r = await sql.run(
    `UPDATE work_items SET state = ?, result = ?, claim_holder = '', claim_expires_at = NULL, updated_at = UTC_TIMESTAMP(6)
     WHERE id = ? AND epoch = ? AND state = 'CLAIMED'`,
    [a.outcome, a.result, a.id, a.epoch],
  );
  return r.affectedRows;
}

/** Gives a claim held at `epoch` back to its queue, due `delayMs` from now; 0 rows when fenced. */
export async function releaseItem(
  sql: Sql,
  a: { id: string; epoch: string; delayMs: number; message: string },
): Promise<number> {
  const r = await sql.run(
    `UPDATE work_items
     SET state = 'QUEUED', not_before = UTC_TIMESTAMP(6) + INTERVAL ? MICROSECOND, message = ?,
         claim_holder = '', claim_expires_at = NULL, updated_at = UTC_TIMESTAMP(6)
     WHERE id = ? AND epoch = ? AND state = 'CLAIMED'`,
    [a.delayMs * 1000, a.message, a.id, a.epoch],
  );
  return r.affectedRows;
}

/**
 * The item, locked until the transaction ends (Release reads its claim, node and queue
 * first: MariaDB has no UPDATE ... RETURNING). By the unique id.
 */
export async function lockWorkItem(sql: Sql, id: string): Promise<WorkItemRow | undefined> {
  const rows = await sql.rows<WorkItemRow>(`SELECT ${COLUMNS} FROM work_items WHERE id = ? FOR UPDATE`, [id]);
  return rows[0];
}

/** QUEUED (due or not) and CLAIMED counts of one (node, queue). Index work_items_dequeue. */
export async function countActive(sql: Sql, nodeUuid: string, queue: string): Promise<{ state: string; n: string }[]> {
  return sql.rows<{ state: string; n: string }>(
    `SELECT state, COUNT(*) AS n FROM work_items
     WHERE node_uuid = ? AND queue = ? AND state IN ('QUEUED', 'CLAIMED')
     GROUP BY state`,
    [nodeUuid, queue],
  );
}

/** Claims whose lease has run out by database time, oldest first. Index work_items_claims. */
export const STUCK_CLAIMS_SQL = `SELECT ${COLUMNS} FROM work_items
     WHERE state = 'CLAIMED' AND claim_expires_at < UTC_TIMESTAMP(6)
     ORDER BY claim_expires_at LIMIT ?`;

export async function selectStuckClaims(sql: Sql, limit: number): Promise<WorkItemRow[]> {
  return sql.rows<WorkItemRow>(STUCK_CLAIMS_SQL, [limit]);
}
