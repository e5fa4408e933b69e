// Change rows: one small function per statement. Appends run inside the writer's
// transaction (source `rpc`, or the writer's); the tailer's reads and the pruning run as
// source `changefeed`. Every read is by primary key (seq) or by changes_created.
import type { Sql } from '../db/pool.js';
import type { ChangeKindName } from '../../proto/topics.js';

/** A change as a handler publishes it. */
export interface ChangeRow {
  topic: string;
  /** The object type's column name, or daemon_state, work_item, blob_transfer, ipam_reservation, reference, cluster_config. */
  objectType: string;
  objectId: string;
  kind: ChangeKindName;
}

/** A change as stored: with its sequence number (a decimal string: 64-bit). */
export interface StoredChange extends ChangeRow {
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
  return { seq: String(r.seq), topic: r.topic, objectType: r.object_type, objectId: r.object_id, kind: r.kind as ChangeKindName };
}

/** Appends `changes` (one statement) and answers them with their sequence numbers. */
export async function appendChanges(tx: Sql, changes: readonly ChangeRow[]): Promise<StoredChange[]> {
  if (changes.length === 0) return [];
  const values = changes.map(() => '(?, ?, ?, ?, UTC_TIMESTAMP(6))').join(', ');
  const params = changes.flatMap((c) => [c.topic, c.objectType, c.objectId, c.kind]);
  const rows = await tx.rows<{ seq: string }>(
    `INSERT INTO changes (topic, object_type, object_id, kind, created_at) VALUES ${values} RETURNING seq`,
    params,
  );
  return changes.map((c, i) => ({ ...c, seq: String((rows[i] as { seq: string }).seq) }));
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

/** Deletes up to `limit` rows older than the retention, oldest first; answers how many. */
export async function pruneOlderThan(sql: Sql, retentionMs: number, limit: number): Promise<number> {
  const r = await sql.run(
    'DELETE FROM changes WHERE created_at < UTC_TIMESTAMP(6) - INTERVAL ? MICROSECOND ORDER BY created_at LIMIT ?',
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
