// Whether anything of one call may have reached MariaDB: what a refused call tells its
// client (NO_EFFECT_HEADER), so that even a call that must not run twice (Dequeue) is sent
// again after a refusal that provably did nothing.
//
// Every statement the call's handler runs goes through its CallContext's Sql, which
// counts it here from the moment it is issued. A statement the full pool refused (mysql2's
// "Queue limit reached.": no connection was ever given, nothing was sent) is taken back.
// So "no statement counted" means no statement of this call was sent, or is in flight.
// Anything the handler does through another path (a group-commit batch, the feed's own
// reads) is not counted: a refusal that comes from there is never marked.
import { ResourceExhaustedError } from '../errors.js';
import type { Param, Sql, WriteResult } from './sql.js';

export class CallLedger {
  /** This call's statements issued and not refused by the full pool: sent, or in flight. */
  private issued = 0;
  /** The full pool's refusals of this call's own statements. */
  private refusals: Set<Error> | undefined;

  /** The call's statements through `sql`, counted here. */
  sql(sql: Sql): Sql {
    return new LedgerSql(sql, this);
  }

  /**
   * Runs one statement (or one transaction), counted. A refusal of the full pool is taken
   * back when `unsent()` says nothing of it was sent (a transaction: its work never began).
   */
  async statement<T>(exec: () => Promise<T>, unsent: () => boolean = () => true): Promise<T> {
    this.issued += 1;
    try {
      return await exec();
    } catch (err) {
      if (err instanceof ResourceExhaustedError && unsent()) {
        this.issued -= 1;
        (this.refusals ??= new Set()).add(err);
      }
      throw err;
    }
  }

  /**
   * `err` ends the call: did nothing of it take effect? Only for a refusal (RESOURCE_EXHAUSTED)
   * that ran nothing itself — a rate limit, the waiter cap, or the full pool refusing one of
   * this call's statements — when no statement of the call was sent or is still in flight.
   */
  tookNoEffect(err: unknown): boolean {
    if (!(err instanceof ResourceExhaustedError) || this.issued > 0) return false;
    return err.ranNothing || (this.refusals?.has(err) ?? false);
  }
}

/** A call's Sql: the same statements, each counted in the call's ledger. */
class LedgerSql implements Sql {
  constructor(
    private readonly inner: Sql,
    private readonly ledger: CallLedger,
  ) {}

  // A plain statement's only RESOURCE_EXHAUSTED is the pool's refusal (db/failures.ts):
  // that attempt was never sent, and an attempt before it (a deadlock or lock wait timeout,
  // rerun by BoundSql) was rolled back by MariaDB.
  rows<T extends object>(sql: string, params?: readonly Param[]): Promise<T[]> {
    return this.ledger.statement(() => this.inner.rows<T>(sql, params));
  }

  run(sql: string, params?: readonly Param[]): Promise<WriteResult> {
    return this.ledger.statement(() => this.inner.run(sql, params));
  }

  unprepared(sql: string): Promise<void> {
    return this.ledger.statement(() => this.inner.unprepared(sql));
  }

  // Refused before its work began: its connection was refused, BEGIN was never sent. Once
  // `fn` ran, a refusal (a rerun's connection, or one `fn` met) is not taken back.
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
    let began = false;
    return this.ledger.statement(
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
}
