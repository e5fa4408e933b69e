// A call's remaining deadline bounds its statements. A statement still running when its
// call's deadline passes is stopped (KILL QUERY on its connection's thread, sent on a
// connection of the watchdog's own, so a saturated pool can still stop one), and its
// connection goes back to the pool instead of working on for a client that has gone. No
// statement is spent while statements finish in time: the timer is in this process.
// (MariaDB's max_statement_time would bound them inside the server, but per call it means
// either a session variable set on every connection hand-over or a distinct prepared
// statement per bound: extra statements or prepared-statement slots on every call.)
//
// A KILL needs MariaDB to hear it. When the network to it is cut (a partition, a dead
// peer that never answers, a stopped server), the KILL goes nowhere — its connection
// dials the same address — and mysql2 has no timeout of its own for a statement: the
// statement would hold its pool connection until the network healed, and then run, long
// after its caller was told the deadline passed. So a statement that has not ended
// STOP_GRACE_MS after its deadline has its connection reset: it fails at once, the pool
// opens a fresh connection in its place, and what MariaDB had not yet received is thrown
// away with the connection (a TCP reset discards what is unacknowledged). A kill that
// MariaDB has not answered within the same grace gives up its connection too.
import type { Socket } from 'node:net';
import type { Connection } from 'mysql2/promise';
import { TIER_CALLER, sqlComment } from './owner.js';

/** Names the watchdog's KILL QUERY to MariaDB (the tier's own, db/owner.ts). */
const KILL_COMMENT = sqlComment({ caller: TIER_CALLER, operation: 'watchdog' });

/** The call's deadline had passed before the statement could start. */
export class DeadlinePassedError extends Error {
  override name = 'DeadlinePassedError';
}

/**
 * The statement outlived its deadline by STOP_GRACE_MS (MariaDB did not answer its KILL,
 * or it did not end after it): its connection was reset. Whether MariaDB ran it is
 * unknown. `fatal`, as mysql2 marks an error that lost its connection: every check of a
 * lost connection (retryable.ts) applies.
 */
export class StatementAbandonedError extends Error {
  override name = 'StatementAbandonedError';
  readonly fatal = true;
}

/** MariaDB's answer to a statement stopped by KILL QUERY. */
export const ER_QUERY_INTERRUPTED = 1317;

/**
 * How long past its deadline a statement has to end once its KILL QUERY is sent (the
 * kill's round trip and the stopped statement's answer: milliseconds on a healthy network,
 * well under a second on a slow or loaded one), and how long the kill may take, before
 * MariaDB is taken to be out of reach on that connection.
 */
export const STOP_GRACE_MS = 1000;

/** A connection a guarded statement runs on (a mysql2 connection): its server thread. */
export interface GuardedConnection {
  readonly threadId: number;
}

/**
 * Ends `conn`'s socket with a TCP reset. mysql2's own destroy() only half-closes it and
 * leaves a statement in flight unanswered for good; a reset fails that statement at once
 * ("Connection lost"), takes the connection out of its pool, and discards what MariaDB has
 * not received. The socket is the `stream` of mysql2's core connection — `conn` itself (a
 * statement's, bound-sql.ts) or a promise wrapper's `connection` (a transaction's, the
 * kill connection) — outside its typings; stable across its 3.x releases
 * (test/integration/pool-internals.test.ts).
 */
export function resetConnection(conn: object): void {
  const core = (conn as { connection?: object }).connection ?? conn;
  const stream = (core as { stream?: Socket }).stream;
  if (stream && !stream.destroyed) stream.resetAndDestroy();
}

/** How a statement ended, in mysql2's callback form: `err` null (or undefined) when it answered. */
export type Answered<T> = (err: unknown, answer?: T) => void;

export interface WatchdogEvents {
  /** A statement past its deadline was stopped (MariaDB answered its KILL QUERY). */
  stopped(): void;
  /** A statement still ran STOP_GRACE_MS past its deadline: its connection was reset. */
  abandoned(): void;
}

export class StatementWatchdog {
  private killer: Promise<Connection> | undefined;

  constructor(
    private readonly connect: () => Promise<Connection>,
    /** Told of every statement stopped by KILL QUERY, and of every one given up with its connection (metrics). */
    private readonly told: WatchdogEvents = { stopped: () => {}, abandoned: () => {} },
    private readonly now: () => number = () => Date.now(),
    private readonly graceMs = STOP_GRACE_MS,
  ) {}

  /**
   * Runs `exec` (one statement on `conn`) and stops it at `deadlineAt` (ms since the
   * epoch, as gRPC deadlines are); resets `conn` if it still runs `graceMs` later. The
   * connection must not be handed to anyone else before this returns: a kill in flight is
   * awaited (it is bounded by the grace), so it can only reach this statement (a kill
   * that finds the thread idle does nothing).
   */
  guard<T>(conn: GuardedConnection, deadlineAt: number, exec: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) =>
      this.watch<T>(
        conn,
        deadlineAt,
        (answered) => {
          let running: Promise<T>;
          try {
            running = exec();
          } catch (err) {
            answered(err ?? new Error('statement failed with no reason'));
            return;
          }
          running.then((answer) => answered(null, answer), (err: unknown) => answered(err ?? new Error('statement failed with no reason')));
        },
        (err, answer) => (err ? reject(err) : resolve(answer as T)),
      ),
    );
  }

  /**
   * guard() in mysql2's callback form, for a statement path that settles one promise per
   * statement (bound-sql.ts): `exec` starts the statement and tells `answered` (mysql2's
   * `(err, answer)`) how it ended; `done` hears it once the watch is over (after a kill in
   * flight), an error of a statement that outlived its grace as StatementAbandonedError,
   * and DeadlinePassedError at once when the deadline had passed (`exec` never called).
   */
  watch<T>(conn: GuardedConnection, deadlineAt: number, exec: (answered: Answered<T>) => void, done: Answered<T>): void {
    const remaining = deadlineAt - this.now();
    if (remaining <= 0) {
      done(new DeadlinePassedError("the call's deadline passed before its statement could start"));
      return;
    }
    let killing: Promise<void> | undefined;
    let reset: NodeJS.Timeout | undefined;
    let abandoned = false;
    const timer = setTimeout(() => {
      killing = this.kill(conn.threadId);
      reset = setTimeout(() => {
        abandoned = true;
        this.told.abandoned();
        resetConnection(conn);
      }, this.graceMs);
    }, remaining);
    exec((err, answer) => {
      clearTimeout(timer);
      clearTimeout(reset);
      const outcome = err && abandoned ? new StatementAbandonedError(`statement still running ${this.graceMs} ms after its call's deadline, MariaDB not answering: its connection was reset`, { cause: err }) : err;
      if (killing) void killing.then(() => done(outcome, answer));
      else done(outcome, answer);
    });
  }

  async close(): Promise<void> {
    const killer = this.killer;
    this.killer = undefined;
    if (killer) await (await killer.catch(() => undefined))?.end().catch(() => undefined);
  }

  private async kill(threadId: number): Promise<void> {
    const killer = (this.killer ??= this.connect());
    let timer: NodeJS.Timeout | undefined;
    const unanswered = new Promise<'unanswered'>((resolve) => (timer = setTimeout(() => resolve('unanswered'), this.graceMs)));
    try {
      const answer = await Promise.race([killer.then((c) => c.query(`KILL QUERY ?${KILL_COMMENT}`, [threadId])), unanswered]);
      if (answer === 'unanswered') this.dropKiller(killer);
      else this.told.stopped();
    } catch {
      // MariaDB unreachable (or this connection lost): the guard resets the statement's.
      this.dropKiller(killer);
    } finally {
      clearTimeout(timer);
    }
  }

  /** A fresh kill connection next time; this one reset (a connect still under way, once it is done). */
  private dropKiller(killer: Promise<Connection>): void {
    if (this.killer === killer) this.killer = undefined;
    killer.then(resetConnection, () => undefined);
  }
}
