// The one way the tier talks to MariaDB, as types: `Sql` (statements bound to a query
// source) and what it takes and answers. Implemented by server/db/pool.ts; on its own so
// that the pool's helpers (the read coalescer) import it downward.

import type { StatementOwner } from './owner.js';

export type Param = string | number | bigint | boolean | null | Buffer;

/**
 * A piece of a statement and the parameters of its `?`, in order. A statement that takes
 * it splices both at one place: `sql` into its text, `...params` into its parameters
 * where that text stands.
 */
export interface Fragment {
  readonly sql: string;
  readonly params: readonly Param[];
}

export interface WriteResult {
  affectedRows: number;
  /** A string: 64-bit ids never pass through a JS number. */
  insertId: string;
  /** MariaDB's "Rows matched / Changed" info for UPDATE. */
  changedRows: number;
  /** MariaDB's info text ("Records: 3  Duplicates: 1  Warnings: 0" for a multi-row INSERT). */
  info: string;
}

/** Statements bound to one query source. Every handler and job gets one of these. */
export interface Sql {
  rows<T extends object>(sql: string, params?: readonly Param[]): Promise<T[]>;
  run(sql: string, params?: readonly Param[]): Promise<WriteResult>;
  /** A statement that cannot be prepared (DDL in migrations), sent as text. */
  unprepared(sql: string): Promise<void>;
  /** Runs `fn` in a transaction; deadlocks and lock wait timeouts rerun it (up to 3 times). */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
  /**
   * The same statements, each stopped if it still runs at `deadlineAt` (a call's deadline,
   * ms since the epoch; see StatementWatchdog). Shared reads stay unbounded: another call
   * may be waiting on the same statement.
   */
  bounded(deadlineAt: number): Sql;
  /**
   * The same statements, never rerun after a deadlock or lock wait timeout: the contention
   * fails the statement at once (UnavailableError, the MariaDB error as its cause), for a
   * caller that learns something from it (the feed's gap closing).
   */
  withoutReruns(): Sql;
  /**
   * The same statements, charged to `owner` (db/owner.ts): a call's, so its MariaDB
   * seconds count under its operation and caller, and its statements name it to MariaDB.
   */
  owned(owner: StatementOwner): Sql;
}
