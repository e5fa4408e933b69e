// Whether MariaDB answers, judged from the statements the tier runs anyway (RPCs, the
// registry heartbeat every SFDB_REPLICA_HEARTBEAT_MS): no probe of its own. MariaDB is
// unreachable from the first connection failure with no success since, or — a stalled
// server fails nothing, its statements just hang — from the moment statements were
// outstanding and none has completed since. Only what MariaDB itself answered counts as
// an answer: a pooled connection handed over, or a statement never sent (its call's
// deadline passed while it waited for one), says nothing either way — in a network
// partition the pool hands over its idle connections at once, and each hand-over counted
// as an answer put the "unreachable" judgement (health, /readyz) off while calls came.
export class Reachability {
  private downSince: number | undefined;
  private pending = 0;
  /** When `pending` last went from 0 to 1. */
  private busySince = 0;
  private lastSuccessAt = 0;

  constructor(private readonly now: () => number = () => performance.now()) {
    this.lastSuccessAt = now();
  }

  started(): void {
    if (this.pending++ === 0) this.busySince = this.now();
  }

  /** A statement ended; `connectionFailed` when it could not reach MariaDB. */
  finished(connectionFailed: boolean): void {
    this.pending -= 1;
    if (connectionFailed) {
      this.downSince ??= this.now();
    } else {
      this.downSince = undefined;
      this.lastSuccessAt = this.now();
    }
  }

  /** A statement ended without MariaDB's answer or a failure to reach it (a connection handed over, a statement never sent). */
  withdrawn(): void {
    this.pending -= 1;
  }

  /** How long MariaDB has been unreachable; 0 while it answers. */
  unreachableForMs(): number {
    const now = this.now();
    const failing = this.downSince === undefined ? 0 : now - this.downSince;
    const stalled = this.pending > 0 ? now - Math.max(this.lastSuccessAt, this.busySince) : 0;
    return Math.max(failing, stalled);
  }
}
