// A call's remaining deadline bounds its statements. A statement still running when its
// call's deadline passes is stopped (KILL QUERY on its connection's thread, sent on a
// connection of the watchdog's own, so a saturated pool can still stop one), and its
// connection goes back to the pool instead of working on for a client that has gone. No
// statement is spent while statements finish in time: the timer is in this process.
// (MariaDB's max_statement_time would bound them inside the server, but per call it means
// either a session variable set on every connection hand-over or a distinct prepared
// statement per bound: extra statements or prepared-statement slots on every call.)
import type { Connection } from 'mysql2/promise';

/** The call's deadline had passed before the statement could start. */
export class DeadlinePassedError extends Error {
  override name = 'DeadlinePassedError';
}

/** MariaDB's answer to a statement stopped by KILL QUERY. */
export const ER_QUERY_INTERRUPTED = 1317;

export class StatementWatchdog {
  private killer: Promise<Connection> | undefined;

  constructor(
    private readonly connect: () => Promise<Connection>,
    /** Told of every statement stopped (metrics). */
    private readonly onKill: () => void = () => {},
    private readonly now: () => number = () => Date.now(),
  ) {}

  /**
   * Runs `exec` (one statement on the connection whose server thread is `threadId`) and
   * stops it at `deadlineAt` (ms since the epoch, as gRPC deadlines are). The connection
   * must not be handed to anyone else before this returns: a kill in flight is awaited,
   * so it can only reach this statement (a kill that finds the thread idle does nothing).
   */
  async guard<T>(threadId: number, deadlineAt: number, exec: () => Promise<T>): Promise<T> {
    const remaining = deadlineAt - this.now();
    if (remaining <= 0) throw new DeadlinePassedError("the call's deadline passed before its statement could start");
    let killing: Promise<void> | undefined;
    const timer = setTimeout(() => (killing = this.kill(threadId)), remaining);
    try {
      return await exec();
    } finally {
      clearTimeout(timer);
      if (killing) await killing;
    }
  }

  async close(): Promise<void> {
    const killer = this.killer;
    this.killer = undefined;
    if (killer) await (await killer.catch(() => undefined))?.end().catch(() => undefined);
  }

  private async kill(threadId: number): Promise<void> {
    try {
      this.killer ??= this.connect();
      await (await this.killer).query('KILL QUERY ?', [threadId]);
      this.onKill();
    } catch {
      // MariaDB unreachable: the statement fails on its own; a fresh connection next time.
      this.killer = undefined;
    }
  }
}
