// The mysql2 pool and the one way the tier talks to MariaDB: `Sql`, bound to a query
// source so every statement is counted under database_queries_total{source}.
import { performance } from 'node:perf_hooks';
import mysql from 'mysql2/promise';
import type { Pool, PoolConnection, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import { UnavailableError } from '../errors.js';
import type { Metrics, QuerySource } from '../metrics.js';
import { isConnectionError, isRetryableTransactionError } from './retryable.js';

export type Param = string | number | bigint | boolean | null | Buffer;

export interface WriteResult {
  affectedRows: number;
  /** A string: 64-bit ids never pass through a JS number. */
  insertId: string;
  /** MariaDB's "Rows matched / Changed" info for UPDATE. */
  changedRows: number;
}

/** Statements bound to one query source. Every handler and job gets one of these. */
export interface Sql {
  rows<T extends object>(sql: string, params?: readonly Param[]): Promise<T[]>;
  run(sql: string, params?: readonly Param[]): Promise<WriteResult>;
  /** A statement that cannot be prepared (DDL in migrations), sent as text. */
  unprepared(sql: string): Promise<void>;
  /** Runs `fn` in a transaction; deadlocks and lock wait timeouts rerun it (up to 3 times). */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
}

export interface PoolOptions {
  url: string;
  connectionLimit: number;
}

export function createPool(options: PoolOptions): Pool {
  const pool = mysql.createPool({
    uri: options.url,
    connectionLimit: options.connectionLimit,
    maxIdle: options.connectionLimit,
    waitForConnections: true,
    queueLimit: 0,
    connectTimeout: 5_000,
    enableKeepAlive: true,
    supportBigNumbers: true,
    bigNumberStrings: true,
    dateStrings: true,
    // JSON columns travel as text, exactly as the client wrote them.
    jsonStrings: true,
    timezone: 'Z',
    charset: 'utf8mb4',
    decimalNumbers: false,
    // mysql2 would capture the caller's stack on every statement (Error.captureStackTrace
    // on the hot path, whether or not it fails); BoundSql adds the caller's stack to an
    // error instead, on the error path only (withCallerStack).
    trace: false,
  });
  // READ COMMITTED: a dequeue's locking scan (FOR UPDATE SKIP LOCKED) then takes no gap
  // locks, so enqueues and other dequeuers never wait behind it. Sent once per new
  // connection, ahead of its first statement.
  pool.pool.on('connection', (conn) => {
    conn.query('SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED');
  });
  return pool;
}

/**
 * Appends the (async) stack of the statement's caller to a mysql2 error, whose own stack
 * ends in the driver (the pool runs with `trace: false`). Called in a catch block of
 * BoundSql, so the frames are rows/run ← the query function ← its handler.
 */
function withCallerStack(err: unknown): unknown {
  if (err instanceof Error) {
    // Without the header line and this function's own frame.
    const caller = (new Error().stack ?? '').split('\n').slice(2).join('\n');
    err.stack = `${err.stack ?? String(err)}\n    --- statement issued:\n${caller}`;
  }
  return err;
}

function toUnavailable(err: unknown): never {
  if (isConnectionError(err)) {
    throw new UnavailableError(`database unavailable: ${(err as Error).message || (err as { code?: string }).code}`, { cause: err });
  }
  throw err;
}

function writeResult(header: ResultSetHeader): WriteResult {
  return {
    affectedRows: header.affectedRows,
    insertId: String(header.insertId),
    changedRows: header.changedRows ?? 0,
  };
}

type Executor = Pick<Pool | PoolConnection, 'execute' | 'query'>;

class BoundSql implements Sql {
  constructor(
    private readonly pool: Pool,
    private readonly executor: Executor,
    private readonly source: QuerySource,
    private readonly metrics: Metrics,
    private readonly inTransaction: boolean,
  ) {}

  async rows<T extends object>(sql: string, params: readonly Param[] = []): Promise<T[]> {
    const started = performance.now();
    try {
      const [rows] = await this.executor.execute<RowDataPacket[]>(sql, params as Param[]);
      return rows as unknown as T[];
    } catch (err) {
      return toUnavailable(withCallerStack(err));
    } finally {
      this.metrics.observeQuery(this.source, (performance.now() - started) / 1000);
    }
  }

  async run(sql: string, params: readonly Param[] = []): Promise<WriteResult> {
    const started = performance.now();
    try {
      const [header] = await this.executor.execute<ResultSetHeader>(sql, params as Param[]);
      return writeResult(header);
    } catch (err) {
      return toUnavailable(withCallerStack(err));
    } finally {
      this.metrics.observeQuery(this.source, (performance.now() - started) / 1000);
    }
  }

  async unprepared(sql: string): Promise<void> {
    const started = performance.now();
    try {
      await this.executor.query(sql);
    } catch (err) {
      toUnavailable(withCallerStack(err));
    } finally {
      this.metrics.observeQuery(this.source, (performance.now() - started) / 1000);
    }
  }

  async transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
    if (this.inTransaction) return fn(this);
    for (let attempt = 1; ; attempt++) {
      let conn: PoolConnection;
      try {
        conn = await this.pool.getConnection();
      } catch (err) {
        return toUnavailable(err);
      }
      const tx = new BoundSql(this.pool, conn, this.source, this.metrics, true);
      let broken = false;
      try {
        await this.plain(conn, 'BEGIN');
        const result = await fn(tx);
        await this.plain(conn, 'COMMIT');
        return result;
      } catch (err) {
        try {
          await this.plain(conn, 'ROLLBACK');
        } catch {
          broken = true;
        }
        if (attempt < 3 && isRetryableTransactionError(err)) continue;
        if (isConnectionError(err)) broken = true;
        return toUnavailable(err);
      } finally {
        if (broken) conn.destroy();
        else conn.release();
      }
    }
  }

  /** BEGIN / COMMIT / ROLLBACK go through the text protocol (they cannot be prepared). */
  private async plain(conn: PoolConnection, statement: string): Promise<void> {
    const started = performance.now();
    try {
      await conn.query(statement);
    } catch (err) {
      throw withCallerStack(err);
    } finally {
      this.metrics.observeQuery(this.source, (performance.now() - started) / 1000);
    }
  }
}

/** The tier's database handle: one pool, statements bound to a source on demand. */
export class Database {
  private readonly bound = new Map<QuerySource, Sql>();

  constructor(
    readonly pool: Pool,
    private readonly metrics: Metrics,
  ) {}

  sql(source: QuerySource): Sql {
    let s = this.bound.get(source);
    if (!s) {
      s = new BoundSql(this.pool, this.pool, source, this.metrics, false);
      this.bound.set(source, s);
    }
    return s;
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
