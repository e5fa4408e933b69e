// Change rows: one small function per statement. Appends run inside the writer's
// transaction (source `rpc`, or the writer's); the tailer's reads and the pruning run as
// source `changefeed`. Every read is by primary key (seq) or by changes_created.
import type { Sql } from '../db/sql.js';
import { ER_DUP_ENTRY, RerunTransactionError, sqlErrno } from '../db/retryable.js';
import type { ChangeKindName } from '@sfdb/proto/topics';

/** A change as a handler publishes it. */
export interface ChangeRow {
  topic: string;
  /** The object type's column name, or daemon_state, work_item, blob_transfer, ipam_reservation, reference, cluster_config. */
  objectType: string;
  objectId: string;
  kind: ChangeKindName;
}

/**
 * The kind of a tombstone row: the feed wrote it to take a seq that no change will ever
 * carry (closeGaps). It fills the gap in every replica's window and is never delivered.
 */
export const CLOSED_GAP_KIND = 'gap';

/** A change as stored: with its sequence number (a decimal string: 64-bit). */
export interface StoredChange extends Omit<ChangeRow, 'kind'> {
  seq: string;
  kind: ChangeKindName | typeof CLOSED_GAP_KIND;
}

/** A change this replica committed: never a tombstone. */
export interface CommittedChange extends ChangeRow {
  seq: string;
}

interface Row {
  seq: string;
  topic: string;
  object_type: string;
  object_id: string;
  kind: string;
}

function stored(r: Row): StoredChange {
  return { seq: String(r.seq), topic: r.topic, objectType: r.object_type, objectId: r.object_id, kind: r.kind as StoredChange['kind'] };
}

/**
 * Appends `changes` (one statement) and answers them with their sequence numbers. A seq
 * the feed closed between its allocation and this row's insert (the tombstone won: a
 * duplicate key on PRIMARY) reruns the writer's transaction, which allocates anew.
 */
export async function appendChanges(tx: Sql, changes: readonly ChangeRow[]): Promise<CommittedChange[]> {
  if (changes.length === 0) return [];
  const values = changes.map(() => '(?, ?, ?, ?, UTC_TIMESTAMP(6))').join(', ');
  const params = changes.flatMap((c) => [c.topic, c.objectType, c.objectId, c.kind]);
  let rows: { seq: string }[];
  try {
    rows = await tx.rows<{ seq: string }>(`INSERT INTO changes (topic, object_type, object_id, kind, created_at) VALUES ${values} RETURNING seq`, params);
  } catch (err) {
    if (sqlErrno(err) === ER_DUP_ENTRY) throw new RerunTransactionError('a change seq was closed by the feed before its row was written', { cause: err });
    throw err;
  }
  return changes.map((c, i) => ({ ...c, seq: String((rows[i] as { seq: string }).seq) }));
}

/**
 * Closes gaps: writes a tombstone row for each seq that has none (INSERT IGNORE), and
 * answers the seqs it took. A seq it did not take has a row by now (committed, read by
 * the caller). A seq whose row a transaction of this node still holds makes the statement
 * fail at once (lock wait timeout 0: error 1205) — the caller narrows the batch. On
 * Galera a transaction of another node holding the seq loses to the tombstone at
 * certification (error 1213 there, and the tier reruns it with a new seq).
 */
export async function closeGaps(sql: Sql, seqs: readonly string[]): Promise<string[]> {
  if (seqs.length === 0) return [];
  const values = seqs.map(() => `(?, '', '', '', '${CLOSED_GAP_KIND}', UTC_TIMESTAMP(6))`).join(', ');
  const rows = await sql.rows<{ seq: string }>(
    `SET STATEMENT innodb_lock_wait_timeout = 0 FOR INSERT IGNORE INTO changes (seq, topic, object_type, object_id, kind, created_at) VALUES ${values} RETURNING seq`,
    [...seqs],
  );
  return rows.map((r) => String(r.seq));
}

const COLUMNS = 'seq, topic, object_type, object_id, kind';

/** Committed rows past `afterSeq`, in seq order (the tailer's periodic read). */
export async function selectAfter(sql: Sql, afterSeq: string, limit: number): Promise<StoredChange[]> {
  const rows = await sql.rows<Row>(`SELECT ${COLUMNS} FROM changes WHERE seq > ? ORDER BY seq LIMIT ?`, [afterSeq, limit]);
  return rows.map(stored);
}

/** The rows of `seqs` that have committed by now (open gaps the tailer waits on). */
export async function selectSeqs(sql: Sql, seqs: readonly string[]): Promise<StoredChange[]> {
  if (seqs.length === 0) return [];
  const rows = await sql.rows<Row>(`SELECT ${COLUMNS} FROM changes WHERE seq IN (${seqs.map(() => '?').join(', ')})`, [...seqs]);
  return rows.map(stored);
}

/**
 * Deletes up to `limit` rows older than the retention, oldest first; answers how many.
 * The row of the highest seq always stays, however old: a replica that starts loads its
 * high mark from it (selectSeqBounds), and a cursor above a replica's high mark answers
 * resync — with the table emptied by a quiet spell, a replica started afterwards would
 * send every reader to resync, and readers passing between it and an older replica would
 * resync back and forth. MAX(seq) is one primary-key dive; `seq + 0` keeps the optimizer
 * on changes_created (a range on the primary key would read every row and sort them: a
 * single-table DELETE takes no index hint), so a batch reads `limit` rows.
 */
export async function pruneOlderThan(sql: Sql, retentionMs: number, limit: number): Promise<number> {
  const r = await sql.run(
    `DELETE FROM changes WHERE created_at < UTC_TIMESTAMP(6) - INTERVAL ? MICROSECOND
       AND seq + 0 < (SELECT MAX(seq) FROM changes)
     ORDER BY created_at LIMIT ?`,
    [retentionMs * 1000, limit],
  );
  return r.affectedRows;
}

/** The lowest and highest seq present, '0' when the table is empty (a replica's window at start). */
export async function selectSeqBounds(sql: Sql): Promise<{ lo: string; hi: string; increment: number }> {
  // @@auto_increment_increment: 1 on one MariaDB; the cluster size on Galera, where each
  // node allocates its own residue class (ChangeWindow's `increment`).
  const rows = await sql.rows<{ lo: string | null; hi: string | null; inc: string | number }>(
    'SELECT MIN(seq) AS lo, MAX(seq) AS hi, @@auto_increment_increment AS inc FROM changes',
  );
  const r = rows[0];
  return { lo: r?.lo == null ? '0' : String(r.lo), hi: r?.hi == null ? '0' : String(r.hi), increment: Number(r?.inc ?? 1) || 1 };
}
