// Blob transfers: one row per client-chosen id. A node's active transfers are found
// through blob_transfers_node (node_uuid, state, created_at), so finished history of a
// node is never read by the periodic "what do I have to do" query.
import type { Sql } from '../../db/sql.js';

export interface TransferRow {
  id: string;
  blob_uuid: string;
  node_uuid: string;
  source_node_uuid: string;
  state: string;
  bytes_done: string;
  bytes_total: string;
  message: string;
  created_at: string;
  updated_at: string;
}

const COLUMNS = 'id, blob_uuid, node_uuid, source_node_uuid, state, bytes_done, bytes_total, message, created_at, updated_at';

/** The row when this call created it; undefined when the id already existed. */
export async function insertTransfer(
  sql: Sql,
  a: { id: string; blobUuid: string; nodeUuid: string; sourceNodeUuid: string; bytesTotal: string; state: string },
): Promise<TransferRow | undefined> {
  const rows = await sql.rows<TransferRow>(
    `INSERT IGNORE INTO blob_transfers
       (id, blob_uuid, node_uuid, source_node_uuid, state, bytes_done, bytes_total, message, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, 0, ?, '', UTC_TIMESTAMP(6), UTC_TIMESTAMP(6))
     RETURNING ${COLUMNS}`,
    [a.id, a.blobUuid, a.nodeUuid, a.sourceNodeUuid, a.state, a.bytesTotal],
  );
  return rows[0];
}

export async function selectTransfer(sql: Sql, id: string): Promise<TransferRow | undefined> {
  const rows = await sql.rows<TransferRow>(`SELECT ${COLUMNS} FROM blob_transfers WHERE id = ?`, [id]);
  return rows[0];
}

/** Locks the row until the transaction ends. */
export async function selectTransferForUpdate(sql: Sql, id: string): Promise<TransferRow | undefined> {
  const rows = await sql.rows<TransferRow>(`SELECT ${COLUMNS} FROM blob_transfers WHERE id = ? FOR UPDATE`, [id]);
  return rows[0];
}

/**
 * One node's transfers in the given states (1..4 distinct), grouped by state and oldest
 * first within a state: the order of blob_transfers_node itself, so there is no sort and
 * `limit` ends the scan. One state is an equality seek ordered by (created_at, id)
 * (MariaDB sorts `state = ? ORDER BY state, ...`); several are a range over the padded
 * `IN (?, ?, ?, ?)` (repeating one keeps it a single static statement).
 */
export async function selectTransfersForNode(
  sql: Sql,
  nodeUuid: string,
  states: readonly string[],
  limit: number,
): Promise<TransferRow[]> {
  const [first, second, third, fourth] = states;
  if (first === undefined) return [];
  if (second === undefined) {
    return sql.rows<TransferRow>(
      `SELECT ${COLUMNS} FROM blob_transfers WHERE node_uuid = ? AND state = ? ORDER BY created_at, id LIMIT ?`,
      [nodeUuid, first, limit],
    );
  }
  return sql.rows<TransferRow>(
    `SELECT ${COLUMNS} FROM blob_transfers
     WHERE node_uuid = ? AND state IN (?, ?, ?, ?)
     ORDER BY state, created_at, id LIMIT ?`,
    [nodeUuid, first, second, third ?? second, fourth ?? second, limit],
  );
}

export async function updateTransfer(
  sql: Sql,
  a: { id: string; state: string; bytesDone: string; message: string },
): Promise<void> {
  await sql.run(
    `UPDATE blob_transfers SET state = ?, bytes_done = ?, message = ?, updated_at = UTC_TIMESTAMP(6) WHERE id = ?`,
    [a.state, a.bytesDone, a.message, a.id],
  );
}
