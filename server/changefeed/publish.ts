// The write/publish contract of the change feed, on its own so that the feed (which
// implements it) and the RPC context (which hands it to handlers) both import it downward.
import type { Sql } from '../db/sql.js';
import type { QuerySource } from '../metrics.js';
import type { ChangeRow } from './queries.js';

/**
 * What one publish call's rows were stored as: each row's seq, known once the transaction
 * has appended them (after the writer's function returned; read it after the write).
 */
export interface Published {
  /** The seq of the row this call published on `topic`; undefined before the append, or when it published none there. */
  seqOn(topic: string): string | undefined;
}

/** Records changes to append to the transaction's change rows (ids and kinds only). */
export type Publish = (...changes: ChangeRow[]) => Published;

/**
 * A write that publishes: `fn` runs in a transaction; what it publishes is appended as
 * the transaction's last statement (so a change is visible exactly when the write is)
 * and announced to waiters after COMMIT. A rerun (deadlock) publishes afresh.
 */
export type Write = <T>(fn: (tx: Sql, publish: Publish) => Promise<T>, source?: QuerySource) => Promise<T>;
