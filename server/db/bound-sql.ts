// BoundSql: the tier's Sql (db/sql.ts) over a mysql2 pool or one of its connections,
// bound to a query source and an owner (db/owner.ts) — every statement counted under
// database_queries_total{source}, timed apart from its wait for a connection, charged to
// its owner's (operation, caller) and named for it in an sqlcommenter comment, logged when
// slow (db/slow.ts), stopped at its call's deadline by the watchdog, point reads coalesced, its
// failures mapped once (db/failures.ts), and a span when its owner is traced (db/statement-span.ts).
import { performance } from 'node:perf_hooks';
import type { Span } from '@opentelemetry/api';
import type { Pool, PoolConnection, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import type { Metrics, QuerySource } from '../metrics.js';
import type { StatementOwner } from './owner.js';
import type { SlowStatements } from './slow.js';
import { readKey, statementOf } from './coalescer.js';
import type { ReadCoalescer } from './coalescer.js';
import type { Reachability } from './reachability.js';
import { DeadlinePassedError } from './watchdog.js';
import type { Answered, StatementWatchdog } from './watchdog.js';
import { isConnectionError, isRetryableTransactionError } from './retryable.js';
import type { Param, Sql, WriteResult } from './sql.js';
import { toUnavailable, withCallerStack } from './failures.js';
import { connectionHandedOver, endStatementSpan, startStatementSpan } from './statement-span.js';

/** The span name of a text-protocol statement: the keyword of a transaction's, else its query function. */
function plainName(sql: string): string {
  return sql === 'BEGIN' || sql === 'COMMIT' || sql === 'ROLLBACK' ? sql : statementOf(sql).name;
}

/** Rows a statement read, or rows a write affected (the slow-statement log). */
function rowsOf(answer: unknown): number | undefined {
  if (Array.isArray(answer)) return answer.length;
  const affected = (answer as { affectedRows?: unknown } | undefined)?.affectedRows;
  return typeof affected === 'number' ? affected : undefined;
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

/** One statement outside a transaction, from its first attempt to its promise settled (BoundSql.pooled). */
interface Pending<R> {
  readonly sql: string;
  /** `sql` with its owner's comment: what MariaDB is sent. */
  readonly text: string;
  readonly params: readonly Param[];
  readonly owner: StatementOwner;
  /** Its call's deadline (ms since the epoch) and the watchdog that holds it to it; no watchdog: unbounded. */
  readonly deadlineAt: number;
  readonly watchdog: StatementWatchdog | undefined;
  readonly resolve: (answer: R) => void;
  readonly reject: (err: unknown) => void;
}

/** What `executing` answered, once it is done; `text` is closed after it when it is one call's alone (`unique`). */
async function ran<R>(conn: { unprepare(sql: string): unknown }, text: string, executing: Promise<[R, ...unknown[]]>, unique: boolean): Promise<R> {
  try {
    return (await executing)[0];
  } finally {
    if (unique) conn.unprepare(text);
  }
}

/** What every BoundSql of a Database shares. */
export interface SqlShared {
  readonly pool: Pool;
  readonly metrics: Metrics;
  /** Shares identical plain reads in flight; none in a transaction. */
  readonly coalescer: ReadCoalescer | undefined;
  readonly reach: Reachability;
  /** Stops statements past their call's deadline (Sql.bounded); none: unbounded. */
  readonly watchdog: StatementWatchdog | undefined;
  readonly slow: SlowStatements;
}

export class BoundSql implements Sql {
  constructor(
    private readonly shared: SqlShared,
    private readonly executor: Executor,
    private readonly source: QuerySource,
    /** Whom its statements are charged to and named for (owner.ts). */
    private readonly owner: StatementOwner,
    private readonly inTransaction: boolean,
    private readonly deadlineAt: number | undefined = undefined,
    private readonly reruns = true,
  ) {}

  private with(changes: { owner?: StatementOwner; deadlineAt?: number; reruns?: boolean }): BoundSql {
    const { owner = this.owner, deadlineAt = this.deadlineAt, reruns = this.reruns } = changes;
    return new BoundSql(this.shared, this.executor, this.source, owner, this.inTransaction, deadlineAt, reruns);
  }

  bounded(deadlineAt: number): Sql {
    if (!this.shared.watchdog || !Number.isFinite(deadlineAt)) return this;
    return this.with({ deadlineAt });
  }

  withoutReruns(): Sql {
    return this.with({ reruns: false });
  }

  owned(owner: StatementOwner): Sql {
    return this.with({ owner });
  }

  /**
   * One prepared statement, named for `owner` (its comment), under the call's deadline when
   * there is one (not for a shared read). Outside a transaction it takes a connection of its
   * own (what pool.execute does inside): its wait for it is measured apart, and the watchdog
   * knows the server thread to stop. A text named for one traced call alone is closed after
   * it ran, so unique texts never fill MariaDB's prepared-statement slots.
   */
  private execute<R extends RowDataPacket[] | ResultSetHeader>(sql: string, params: readonly Param[], owner: StatementOwner, shared: boolean): Promise<R> {
    const deadlineAt = shared ? undefined : this.deadlineAt;
    const watchdog = deadlineAt === undefined ? undefined : this.shared.watchdog;
    const text = sql + owner.comment;
    if (this.inTransaction) {
      const conn = this.executor as PoolConnection;
      return this.statement(sql, owner, () => ran(conn, text, watchdog ? watchdog.guard(conn, deadlineAt as number, () => conn.execute<R>(text, params as Param[])) : conn.execute<R>(text, params as Param[]), owner.uniqueComment));
    }
    return new Promise<R>((resolve, reject) => this.pooled({ sql, text, params, owner, deadlineAt: deadlineAt ?? Infinity, watchdog, resolve, reject }, 1));
  }

  /**
   * One attempt of a statement outside a transaction, as one chain of mysql2 callbacks
   * (the statement's one promise is `s`'s): a connection of its own from mysql2's callback
   * pool, beneath the promise one (which wraps every connection it lends in an event
   * emitter of its own), its wait for it measured apart; the statement on it, under the
   * watchdog when it has a deadline; the text closed when it is one call's alone, the
   * connection released, and the attempt settled (attempted()).
   */
  private pooled<R>(s: Pending<R>, attempt: number): void {
    const started = performance.now();
    this.shared.reach.started();
    const { owner } = s;
    const span = this.statementSpan(s.sql, owner);
    this.shared.pool.pool.getConnection((refused, conn) => {
      if (refused) {
        this.attempted(s, attempt, started, 0, span, refused, undefined);
        return;
      }
      const waitMs = performance.now() - started;
      if (span !== undefined) connectionHandedOver(span, waitMs);
      let over = false;
      const answered: Answered<R> = (err, answer) => {
        if (over) return;
        over = true;
        if (owner.uniqueComment) conn.unprepare(s.text);
        conn.release();
        this.attempted(s, attempt, started, waitMs, span, err ?? undefined, answer);
      };
      const exec = (then: Answered<R>): void => {
        try {
          conn.execute(s.text, s.params as Param[], (err, answer) => then(err, answer as R));
        } catch (err) {
          // mysql2 refuses some parameters (undefined) by throwing.
          then(err);
        }
      };
      if (s.watchdog === undefined) exec(answered);
      else s.watchdog.watch(conn, s.deadlineAt, exec, answered);
    });
  }

  /**
   * An attempt of `s` ended (`outcome` undefined: answered): settled, and then `s` answered,
   * or run again — a deadlock or lock wait timeout rolled back that statement alone
   * (autocommit), so it runs again, up to 3 times, as transaction() does for a whole
   * transaction — or failed.
   */
  private attempted<R>(s: Pending<R>, attempt: number, started: number, waitMs: number, span: Span | undefined, outcome: unknown, answer: R | undefined): void {
    try {
      this.settle(s.sql, s.owner, started, waitMs, span, attempt, outcome, answer);
    } catch (err) {
      s.reject(err);
      return;
    }
    if (outcome === undefined) s.resolve(answer as R);
    else if (this.reruns && attempt < 3 && isRetryableTransactionError(outcome)) this.pooled(s, attempt + 1);
    else s.reject(outcome);
  }

  /** Reachability hears how a statement ended (`err`: undefined when it succeeded); one never sent tells it nothing. */
  private told(err: unknown): void {
    if (err instanceof DeadlinePassedError) this.shared.reach.withdrawn();
    else this.shared.reach.finished(isConnectionError(err));
  }

  rows<T extends object>(sql: string, params: readonly Param[] = []): Promise<T[]> {
    // Plain reads outside a transaction may share a statement; a transaction's may not.
    const { coalescer } = this.shared;
    if (coalescer && !this.inTransaction) {
      const statement = statementOf(sql);
      if (statement.shareable) return coalescer.run(readKey(this.source, statement.id, params), this.owner, (owner) => this.read<T>(sql, params, owner, true));
    }
    return this.read<T>(sql, params, this.owner, false);
  }

  private async read<T extends object>(sql: string, params: readonly Param[], owner: StatementOwner, shared: boolean): Promise<T[]> {
    try {
      const rows = await this.execute<RowDataPacket[]>(sql, params, owner, shared);
      return rows as unknown as T[];
    } catch (err) {
      return toUnavailable(withCallerStack(err), !this.inTransaction);
    }
  }

  async run(sql: string, params: readonly Param[] = []): Promise<WriteResult> {
    try {
      return writeResult(await this.execute<ResultSetHeader>(sql, params, this.owner, false));
    } catch (err) {
      return toUnavailable(withCallerStack(err), !this.inTransaction);
    }
  }

  /**
   * One statement of a transaction, on its connection (`exec`): timed, charged and traced
   * as a pooled one is (settle()). A deadlock or lock wait timeout is not rerun here:
   * transaction() reruns the whole of it.
   */
  private async statement<T>(sql: string, owner: StatementOwner, exec: () => Promise<T>): Promise<T> {
    const started = performance.now();
    this.shared.reach.started();
    const span = this.statementSpan(sql, owner);
    let outcome: unknown;
    let answer: T | undefined;
    try {
      answer = await exec();
      return answer;
    } catch (err) {
      outcome = err;
      throw err;
    } finally {
      this.settle(sql, owner, started, 0, span, 1, outcome, answer);
    }
  }

  /** A prepared statement's span when its owner is traced (statement-span.ts); none otherwise. */
  private statementSpan(sql: string, owner: StatementOwner): Span | undefined {
    const parent = owner.traceContext;
    return parent === undefined ? undefined : startStatementSpan(parent, statementOf(sql).name, sql, this.source, owner.operation);
  }

  /**
   * How an attempt of a statement ended (`outcome` undefined: answered): Reachability told
   * whether MariaDB answered, its seconds (less `waitMs`, its wait for a connection)
   * counted by source, charged to its owner and reported when slow, its span ended.
   */
  private settle(sql: string, owner: StatementOwner, started: number, waitMs: number, span: Span | undefined, attempt: number, outcome: unknown, answer: unknown): void {
    this.told(outcome);
    this.spent(sql, owner, (performance.now() - started - waitMs) / 1000, waitMs / 1000, answer, outcome !== undefined);
    if (span !== undefined) endStatementSpan(span, answer, outcome, attempt);
  }

  /** A statement's seconds: counted by source, charged to its owner, and reported when slow. */
  private spent(sql: string, owner: StatementOwner, seconds: number, waitSeconds: number, answer: unknown, failed: boolean): void {
    const { metrics, slow } = this.shared;
    metrics.observeQuery(this.source, seconds);
    owner.charge(seconds, waitSeconds);
    if (seconds >= slow.thresholdSeconds) slow.report({ owner, source: this.source, name: statementOf(sql).name, seconds, rows: failed ? undefined : rowsOf(answer), failed });
  }

  /**
   * A text-protocol statement (DDL, BEGIN, COMMIT, ROLLBACK), named for its owner, timed and
   * charged as a prepared one is; its span, when traced, is `begun` (a BEGIN's, started
   * before its transaction's wait for a connection) or made here.
   */
  private async plainStatement(executor: Executor, sql: string, guard?: (run: () => Promise<unknown>) => Promise<unknown>, begun?: Span): Promise<void> {
    const started = performance.now();
    this.shared.reach.started();
    let outcome: unknown;
    const parent = this.owner.traceContext;
    const span = begun ?? (parent === undefined ? undefined : startStatementSpan(parent, plainName(sql), sql, this.source, this.owner.operation));
    try {
      const run = (): Promise<unknown> => executor.query(sql + this.owner.comment);
      await (guard ? guard(run) : run());
    } catch (err) {
      outcome = err;
      throw err;
    } finally {
      this.told(outcome);
      this.spent(sql, this.owner, (performance.now() - started) / 1000, 0, undefined, outcome !== undefined);
      if (span !== undefined) endStatementSpan(span, undefined, outcome);
    }
  }

  async unprepared(sql: string): Promise<void> {
    try {
      await this.plainStatement(this.executor, sql);
    } catch (err) {
      toUnavailable(withCallerStack(err), !this.inTransaction);
    }
  }

  async transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
    if (this.inTransaction) return fn(this);
    const parent = this.owner.traceContext;
    for (let attempt = 1; ; attempt++) {
      let conn: PoolConnection;
      const asked = performance.now();
      // Traced: BEGIN's span covers the transaction's wait for its connection too.
      const begin = parent === undefined ? undefined : startStatementSpan(parent, 'BEGIN', 'BEGIN', this.source, this.owner.operation);
      try {
        conn = await this.connection();
        if (begin !== undefined) connectionHandedOver(begin, performance.now() - asked);
      } catch (err) {
        if (begin !== undefined) endStatementSpan(begin, undefined, err, attempt);
        return toUnavailable(err);
      } finally {
        this.owner.charge(0, (performance.now() - asked) / 1000);
      }
      // A rerun's BEGIN says which attempt it opens (its statements are spans of their own).
      if (begin !== undefined && attempt > 1) begin.setAttribute('sfdb.attempt', attempt);
      const tx = new BoundSql(this.shared, conn, this.source, this.owner, true, this.deadlineAt);
      let broken = false;
      try {
        await this.plain(conn, 'BEGIN', begin);
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
    const { reach } = this.shared;
    reach.started();
    try {
      const conn = await this.shared.pool.getConnection();
      reach.withdrawn();
      return conn;
    } catch (err) {
      reach.finished(isConnectionError(err));
      throw err;
    }
  }

  /** BEGIN / COMMIT / ROLLBACK go through the text protocol (they cannot be prepared). */
  private async plain(conn: PoolConnection, statement: string, begun?: Span): Promise<void> {
    const { deadlineAt } = this;
    const { watchdog } = this.shared;
    // ROLLBACK always runs: it frees what the transaction holds.
    const guarded = watchdog && deadlineAt !== undefined && statement !== 'ROLLBACK';
    try {
      await this.plainStatement(conn, statement, guarded ? (run) => watchdog.guard(conn, deadlineAt, run) : undefined, begun);
    } catch (err) {
      throw withCallerStack(err);
    }
  }
}
