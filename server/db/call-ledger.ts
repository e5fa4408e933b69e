// Whether anything of one call may have taken effect: what a refused call tells its client
// (the noEffect trailer of proto/errors.ts), so that even a call that must not run twice (Dequeue) is sent again
// after a refusal that provably did nothing.
//
// Every statement the call's handler runs goes through its CallContext's Sql. Those that
// may change something (anything but a plain SELECT: writes, `… RETURNING`, locking reads,
// transactions) are counted here from the moment they are issued; one the full pool
// refused (mysql2's "Queue limit reached.": no connection was ever given, nothing was
// sent) is taken back, and so is one that MariaDB rolled back as contention after its
// reruns (a deadlock, a lock wait timeout, a Galera certification failure: every attempt
// rolled back). Plain reads are not counted (they change nothing) and cost nothing
// extra on the hot path. A call that wrote through a shared path (a group-commit batch,
// whose refusal may follow a batch statement that committed) is never said to have taken
// no effect.
import { ResourceExhaustedError, UnavailableError } from '../errors.js';
import { statementOf } from './coalescer.js';
import type { StatementOwner } from './owner.js';
import type { Param, Sql, WriteResult } from './sql.js';

export class CallLedger {
  /** Statements of this call that may change something, issued and not refused unsent. */
  private writes = 0;
  /** The call wrote through a shared path the ledger does not see. */
  private shared = false;

  /** The call's statements through `sql`, counted here. */
  sql(sql: Sql): Sql {
    return new LedgerSql(sql, this);
  }

  /** The call hands writes to a shared path (group commit): no refusal of it is marked. */
  sharesWrites(): void {
    this.shared = true;
  }

  /**
   * Runs one statement (or one transaction) that may change something, counted. A refusal
   * that ran nothing is taken back when `unsent()` says nothing of it was sent (a
   * transaction: its work never began); so is contention MariaDB rolled back.
   */
  async write<T>(exec: () => Promise<T>, unsent: () => boolean = () => true): Promise<T> {
    this.writes += 1;
    try {
      return await exec();
    } catch (err) {
      if ((err instanceof ResourceExhaustedError && err.ranNothing && unsent()) || isRolledBack(err)) this.writes -= 1;
      throw err;
    }
  }

  /** Whether a statement of the call that may change something was issued (or a shared path written through). */
  wroteAnything(): boolean {
    return this.writes > 0 || this.shared;
  }

  /**
   * `err` ends the call: did nothing of it take effect? Only for a refusal that itself ran
   * nothing (a rate limit, the waiter cap, the full pool refusing a statement) or that
   * MariaDB rolled back (contention), when no other statement of the call that may change
   * something was sent or is still in flight.
   */
  tookNoEffect(err: unknown): boolean {
    const refused = (err instanceof ResourceExhaustedError && err.ranNothing) || isRolledBack(err);
    return refused && this.writes === 0 && !this.shared;
  }
}

function isRolledBack(err: unknown): boolean {
  return err instanceof UnavailableError && err.rolledBack;
}

/** A call's Sql: the same statements, those that may change something counted in the call's ledger. */
class LedgerSql implements Sql {
  constructor(
    private readonly inner: Sql,
    private readonly ledger: CallLedger,
  ) {}

  rows<T extends object>(sql: string, params?: readonly Param[]): Promise<T[]> {
    // A plain SELECT changes nothing: passed through (the hot path: point reads).
    if (statementOf(sql).shareable) return this.inner.rows<T>(sql, params);
    return this.ledger.write(() => this.inner.rows<T>(sql, params));
  }

  // A plain statement's refusal that ran nothing is the pool's (db/failures.ts): that
  // attempt was never sent, and an attempt before it (a deadlock or lock wait timeout,
  // rerun by BoundSql) was rolled back by MariaDB.
  run(sql: string, params?: readonly Param[]): Promise<WriteResult> {
    return this.ledger.write(() => this.inner.run(sql, params));
  }

  unprepared(sql: string): Promise<void> {
    return this.ledger.write(() => this.inner.unprepared(sql));
  }

  // Refused before its work began: its connection was refused, BEGIN was never sent. Once
  // `fn` ran, a refusal (a rerun's connection, or one `fn` met) is not taken back.
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
    let began = false;
    return this.ledger.write(
      () =>
        this.inner.transaction((tx) => {
          began = true;
          return fn(tx);
        }),
      () => !began,
    );
  }

  bounded(deadlineAt: number): Sql {
    return new LedgerSql(this.inner.bounded(deadlineAt), this.ledger);
  }

  withoutReruns(): Sql {
    return new LedgerSql(this.inner.withoutReruns(), this.ledger);
  }

  owned(owner: StatementOwner): Sql {
    return new LedgerSql(this.inner.owned(owner), this.ledger);
  }
}
