// The mysql2 pool and the one way the tier talks to MariaDB: `Sql`, bound to a query
// source so every statement is counted under database_queries_total{source}.
import { performance } from 'node:perf_hooks';
import mysql from 'mysql2/promise';
import type { Pool, PoolConnection, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import { ResourceExhaustedError, UnavailableError } from '../errors.js';
import type { Metrics, PoolOccupancy, QuerySource } from '../metrics.js';
import { ReadCoalescer, readKey, statementOf } from './coalescer.js';
import { Reachability } from './reachability.js';
import { DeadlinePassedError, ER_QUERY_INTERRUPTED, StatementWatchdog } from './watchdog.js';
import { isConnectionError, isRetryableTransactionError } from './retryable.js';
import type { Param, Sql, WriteResult } from './sql.js';

export type { Param, Sql, WriteResult } from './sql.js';

export interface PoolOptions {
  url: string;
  connectionLimit: number;
  /** Statements that may wait for a connection; beyond, they fail at once (0 = no bound). */
  queueLimit?: number;
  /**
   * A Galera node (see serverTraits): every statement is causal (wsrep_sync_wait = 7:
   * reads, updates, deletes and inserts wait until this node has applied every write the
   * cluster acknowledged before them), so a claim made through one node is resolved, and
   * a write made through one node is read, through any other.
   */
  galera?: boolean;
}

/** What the tier needs to know of its MariaDB before it opens the pool. */
export async function serverTraits(url: string): Promise<{ galera: boolean }> {
  const conn = await mysql.createConnection({ uri: url, connectTimeout: 5_000 });
  try {
    const [rows] = await conn.query<RowDataPacket[]>("SHOW VARIABLES LIKE 'wsrep_on'");
    return { galera: String((rows[0] as { Value?: string } | undefined)?.Value ?? 'OFF').toUpperCase() === 'ON' };
  } finally {
    await conn.end();
  }
}

/** mysql2's refusal when its connection queue is full (it carries no code). */
const QUEUE_FULL = 'Queue limit reached.';
/** How long a caller refused by a full pool waits before it tries again. */
export const POOL_FULL_PUSHBACK_MS = 200;

export function createPool(options: PoolOptions): Pool {
  const pool = mysql.createPool({
    uri: options.url,
    connectionLimit: options.connectionLimit,
    maxIdle: options.connectionLimit,
    waitForConnections: true,
    queueLimit: options.queueLimit ?? 0,
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
    if (options.galera) conn.query('SET SESSION wsrep_sync_wait = 7');
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

/**
 * Maps what MariaDB's failures mean to the tier's errors. `final`: contention (deadlock,
 * lock wait timeout) will not be rerun — false for a statement inside a transaction, whose
 * transaction() reruns the whole of it on the raw error.
 */
function toUnavailable(err: unknown, final = true): never {
  // A full queue fails the call now rather than at its deadline; nothing ran, so the
  // client may retry after the pushback.
  if (err instanceof Error && err.message === QUEUE_FULL) {
    throw new ResourceExhaustedError('database connection pool is full: too many statements waiting for a MariaDB connection', POOL_FULL_PUSHBACK_MS);
  }
  // Contention that outlived its reruns: the database is too busy for this call now, which
  // is unavailability (retried by the client when safe), never a handler's fault.
  // Stopped at (or not started after) its call's deadline: the caller has gone.
  if (err instanceof DeadlinePassedError || (err as { errno?: number } | null)?.errno === ER_QUERY_INTERRUPTED) {
    throw new UnavailableError(`statement stopped: its call's deadline passed`, { cause: err });
  }
  if (final && isRetryableTransactionError(err)) {
    throw new UnavailableError(`database contention: ${(err as Error).message}`, { cause: err });
  }
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
    info: header.info ?? '',
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
    private readonly coalescer: ReadCoalescer | undefined,
    private readonly reach: Reachability,
    private readonly watchdog: StatementWatchdog | undefined,
    private readonly deadlineAt: number | undefined = undefined,
    private readonly reruns = true,
  ) {}

  bounded(deadlineAt: number): Sql {
    if (!this.watchdog || !Number.isFinite(deadlineAt)) return this;
    return new BoundSql(this.pool, this.executor, this.source, this.metrics, this.inTransaction, this.coalescer, this.reach, this.watchdog, deadlineAt, this.reruns);
  }

  withoutReruns(): Sql {
    return new BoundSql(this.pool, this.executor, this.source, this.metrics, this.inTransaction, this.coalescer, this.reach, this.watchdog, this.deadlineAt, false);
  }

  /** One prepared statement, under the call's deadline when there is one (not for a shared read). */
  private execute<R extends RowDataPacket[] | ResultSetHeader>(sql: string, params: readonly Param[], shared: boolean): Promise<R> {
    const deadlineAt = shared ? undefined : this.deadlineAt;
    const watchdog = this.watchdog;
    if (deadlineAt === undefined || !watchdog) return this.statement(async () => (await this.executor.execute<R>(sql, params as Param[]))[0]);
    if (this.inTransaction) {
      const conn = this.executor as PoolConnection;
      return this.statement(async () => (await watchdog.guard(conn.threadId, deadlineAt, () => conn.execute<R>(sql, params as Param[])))[0]);
    }
    // A connection of its own for the statement (what pool.execute does inside), so the
    // watchdog knows the server thread to stop.
    return this.statement(async () => {
      const conn = await this.pool.getConnection();
      try {
        return (await watchdog.guard(conn.threadId, deadlineAt, () => conn.execute<R>(sql, params as Param[])))[0];
      } finally {
        conn.release();
      }
    });
  }

  /** Runs one statement: timed, counted, and telling Reachability whether MariaDB answered. */
  private async timed<T>(exec: () => Promise<T>): Promise<T> {
    const started = performance.now();
    this.reach.started();
    let connectionFailed = false;
    try {
      return await exec();
    } catch (err) {
      connectionFailed = isConnectionError(err);
      throw err;
    } finally {
      this.reach.finished(connectionFailed);
      this.metrics.observeQuery(this.source, (performance.now() - started) / 1000);
    }
  }

  rows<T extends object>(sql: string, params: readonly Param[] = []): Promise<T[]> {
    // Plain reads outside a transaction may share a statement; a transaction's may not.
    if (this.coalescer && !this.inTransaction) {
      const statement = statementOf(sql);
      if (statement.shareable) return this.coalescer.run(readKey(this.source, statement.id, params), () => this.read<T>(sql, params, true));
    }
    return this.read<T>(sql, params, false);
  }

  private async read<T extends object>(sql: string, params: readonly Param[], shared: boolean): Promise<T[]> {
    try {
      const rows = await this.execute<RowDataPacket[]>(sql, params, shared);
      return rows as unknown as T[];
    } catch (err) {
      return toUnavailable(withCallerStack(err), !this.inTransaction);
    }
  }

  async run(sql: string, params: readonly Param[] = []): Promise<WriteResult> {
    try {
      return writeResult(await this.execute<ResultSetHeader>(sql, params, false));
    } catch (err) {
      return toUnavailable(withCallerStack(err), !this.inTransaction);
    }
  }

  /**
   * One statement. Outside a transaction a deadlock or lock wait timeout rolled back that
   * statement alone (autocommit), so it runs again, up to 3 times, as transaction() does
   * for a whole transaction; inside one, transaction() reruns the whole of it.
   */
  private async statement<T>(exec: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.timed(exec);
      } catch (err) {
        if (this.inTransaction || !this.reruns || attempt >= 3 || !isRetryableTransactionError(err)) throw err;
      }
    }
  }

  async unprepared(sql: string): Promise<void> {
    try {
      await this.timed(() => this.executor.query(sql));
    } catch (err) {
      toUnavailable(withCallerStack(err), !this.inTransaction);
    }
  }

  async transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
    if (this.inTransaction) return fn(this);
    for (let attempt = 1; ; attempt++) {
      let conn: PoolConnection;
      try {
        conn = await this.connection();
      } catch (err) {
        return toUnavailable(err);
      }
      const tx = new BoundSql(this.pool, conn, this.source, this.metrics, true, undefined, this.reach, this.watchdog, this.deadlineAt);
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

  /** A connection of its own for a transaction; a refused connect counts as MariaDB unreachable. */
  private async connection(): Promise<PoolConnection> {
    this.reach.started();
    let connectionFailed = false;
    try {
      return await this.pool.getConnection();
    } catch (err) {
      connectionFailed = isConnectionError(err);
      throw err;
    } finally {
      this.reach.finished(connectionFailed);
    }
  }

  /** BEGIN / COMMIT / ROLLBACK go through the text protocol (they cannot be prepared). */
  private async plain(conn: PoolConnection, statement: string): Promise<void> {
    const { watchdog, deadlineAt } = this;
    // ROLLBACK always runs: it frees what the transaction holds.
    const guarded = watchdog && deadlineAt !== undefined && statement !== 'ROLLBACK';
    try {
      await this.timed(() => (guarded ? watchdog.guard(conn.threadId, deadlineAt, () => conn.query(statement)) : conn.query(statement)));
    } catch (err) {
      throw withCallerStack(err);
    }
  }
}

/** The queues inside mysql2's pool (not in its typings; stable across its 3.x releases). */
interface PoolInternals {
  _allConnections?: { length: number };
  _freeConnections?: { length: number };
  _connectionQueue?: { length: number };
}

/** Busy and idle connections and waiting statements, read from the pool when scraped. */
export function poolOccupancy(pool: Pool): PoolOccupancy {
  const inner = pool.pool as unknown as PoolInternals;
  const all = inner._allConnections?.length ?? 0;
  const idle = inner._freeConnections?.length ?? 0;
  return { busy: all - idle, idle, queued: inner._connectionQueue?.length ?? 0 };
}

/**
 * The sources of the replica's own coordination: its registry heartbeat and peer reads,
 * the change-feed tail. With an own pool (Database's `ownPool`) they never wait behind
 * client calls, and a full client queue never sheds them: a replica overloaded by a start
 * storm must not miss its heartbeat, lose its registry row and exit (seen at 1,000 nodes).
 */
export const OWN_SOURCES: ReadonlySet<QuerySource> = new Set(['registry', 'changefeed']);

/** The tier's database handle: the client calls' pool (and the replica's own), statements bound to a source on demand. */
export class Database {
  private readonly bound = new Map<QuerySource, Sql>();
  private readonly coalescer: ReadCoalescer;
  /** Whether MariaDB answers, from the statements run anyway (health, /readyz). */
  readonly reach = new Reachability();

  constructor(
    readonly pool: Pool,
    private readonly metrics: Metrics,
    /** Stops statements past their call's deadline (Sql.bounded); none: unbounded. */
    private readonly watchdog?: StatementWatchdog,
    /** A small pool, no queue bound, for OWN_SOURCES; none: they share `pool`. */
    private readonly ownPool?: Pool,
  ) {
    this.coalescer = new ReadCoalescer(() => metrics.coalescedReads.inc());
    metrics.trackPool(() => poolOccupancy(pool));
  }

  sql(source: QuerySource): Sql {
    let s = this.bound.get(source);
    if (!s) {
      const pool = this.ownPool !== undefined && OWN_SOURCES.has(source) ? this.ownPool : this.pool;
      s = new BoundSql(pool, pool, source, this.metrics, false, this.coalescer, this.reach, this.watchdog);
      this.bound.set(source, s);
    }
    return s;
  }

  async close(): Promise<void> {
    await this.watchdog?.close();
    await Promise.all([this.pool.end(), this.ownPool?.end()]);
  }
}

/** The watchdog of a tier's statements: its own connection to `url` for the kills. */
export function createWatchdog(url: string, metrics: Metrics): StatementWatchdog {
  return new StatementWatchdog(
    () => mysql.createConnection({ uri: url, connectTimeout: 5_000 }),
    () => metrics.statementsStopped.inc(),
  );
}
