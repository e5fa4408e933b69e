// BoundSql: the tier's Sql (db/sql.ts) over a mysql2 pool or one of its connections,
// bound to a query source — every statement counted under database_queries_total{source},
// timed, stopped at its call's deadline by the watchdog, point reads coalesced, and its
// failures mapped once (db/failures.ts).
import { performance } from 'node:perf_hooks';
import type { Pool, PoolConnection, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import type { Metrics, QuerySource } from '../metrics.js';
import { readKey, statementOf } from './coalescer.js';
import type { ReadCoalescer } from './coalescer.js';
import type { Reachability } from './reachability.js';
import { DeadlinePassedError } from './watchdog.js';
import type { StatementWatchdog } from './watchdog.js';
import { isConnectionError, isRetryableTransactionError } from './retryable.js';
import type { Param, Sql, WriteResult } from './sql.js';
import { toUnavailable, withCallerStack } from './failures.js';

/** A mysql2 answer's first part: the rows, or the write's header. */
function firstOf<R>(answer: [R, unknown]): R {
  return answer[0];
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

export class BoundSql implements Sql {
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
    if (deadlineAt === undefined || !watchdog) return this.statement(() => this.executor.execute<R>(sql, params as Param[]).then(firstOf));
    if (this.inTransaction) {
      const conn = this.executor as PoolConnection;
      return this.statement(async () => (await watchdog.guard(conn, deadlineAt, () => conn.execute<R>(sql, params as Param[])))[0]);
    }
    // A connection of its own for the statement (what pool.execute does inside), so the
    // watchdog knows the server thread to stop.
    return this.statement(async () => {
      const conn = await this.pool.getConnection();
      try {
        return (await watchdog.guard(conn, deadlineAt, () => conn.execute<R>(sql, params as Param[])))[0];
      } finally {
        conn.release();
      }
    });
  }

  /** Runs one statement: timed, counted, and telling Reachability whether MariaDB answered. */
  private async timed<T>(exec: () => Promise<T>): Promise<T> {
    const started = performance.now();
    this.reach.started();
    let outcome: unknown;
    try {
      return await exec();
    } catch (err) {
      outcome = err;
      throw err;
    } finally {
      this.told(outcome);
      this.metrics.observeQuery(this.source, (performance.now() - started) / 1000);
    }
  }

  /** Reachability hears how a statement ended (`err`: undefined when it succeeded); one never sent tells it nothing. */
  private told(err: unknown): void {
    if (err instanceof DeadlinePassedError) this.reach.withdrawn();
    else this.reach.finished(isConnectionError(err));
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
    // timed() written out here: one async frame per statement on the hot path, not two.
    for (let attempt = 1; ; attempt++) {
      const started = performance.now();
      this.reach.started();
      let outcome: unknown;
      try {
        return await exec();
      } catch (err) {
        outcome = err;
        if (this.inTransaction || !this.reruns || attempt >= 3 || !isRetryableTransactionError(err)) throw err;
      } finally {
        this.told(outcome);
        this.metrics.observeQuery(this.source, (performance.now() - started) / 1000);
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

  /**
   * A connection of its own for a transaction; a refused connect counts as MariaDB
   * unreachable, a connection handed over as nothing (an idle one says nothing of MariaDB
   * now; the transaction's BEGIN tells).
   */
  private async connection(): Promise<PoolConnection> {
    this.reach.started();
    try {
      const conn = await this.pool.getConnection();
      this.reach.withdrawn();
      return conn;
    } catch (err) {
      this.reach.finished(isConnectionError(err));
      throw err;
    }
  }

  /** BEGIN / COMMIT / ROLLBACK go through the text protocol (they cannot be prepared). */
  private async plain(conn: PoolConnection, statement: string): Promise<void> {
    const { watchdog, deadlineAt } = this;
    // ROLLBACK always runs: it frees what the transaction holds.
    const guarded = watchdog && deadlineAt !== undefined && statement !== 'ROLLBACK';
    try {
      await this.timed(() => (guarded ? watchdog.guard(conn, deadlineAt, () => conn.query(statement)) : conn.query(statement)));
    } catch (err) {
      throw withCallerStack(err);
    }
  }
}
