// A statement slowed on purpose, for the load check's positive control on MariaDB seconds:
// during the measured window a connection of the benchmark's own holds every
// node_heartbeats row FOR UPDATE in spells (HOLD_MS locked, GAP_MS free), so the resources
// daemons' NodeHeartbeat writes (group-committed, server/rpc/nodes/writes.ts) wait inside
// MariaDB for the lock. Nothing else locks or writes those rows (reads of them are
// consistent, lock-free), so the calls are as many as ever and only that pair's seconds
// grow: the budget's call ceilings still pass and its seconds ceiling must not. A spell is
// shorter than the client's default deadline (5 s), so no heartbeat times out and is
// retried (which would move the calls too); the gap is short, and the spells' period (4.25
// s) is not a divisor of the heartbeats' (10 s), so they cannot keep landing in the gaps.
import { setTimeout as sleep } from 'node:timers/promises';
import mysql from 'mysql2/promise';
import type { Connection } from 'mysql2/promise';

/** Slow statements the benchmark can plant (never from the command line). */
export type SlowPlant = 'heartbeat-lock';

const HOLD_MS = 4000;
const GAP_MS = 250;

export class HeartbeatLock {
  private readonly stopping = new AbortController();
  private spells = 0;
  private done: Promise<void> | undefined;

  private constructor(private readonly conn: Connection) {}

  /** Connects to the run's database and holds the first spell's locks before it returns. */
  static async start(uri: string): Promise<HeartbeatLock> {
    const lock = new HeartbeatLock(await mysql.createConnection({ uri }));
    await lock.take();
    lock.done = lock.run();
    return lock;
  }

  private async take(): Promise<void> {
    await this.conn.beginTransaction();
    await this.conn.query('SELECT node_uuid FROM node_heartbeats FOR UPDATE');
    this.spells += 1;
  }

  private async pause(ms: number): Promise<void> {
    await sleep(ms, undefined, { signal: this.stopping.signal }).catch(() => undefined);
  }

  /** A spell is held when this starts; each turn ends it, and takes the next unless stopped. */
  private async run(): Promise<void> {
    for (;;) {
      await this.pause(HOLD_MS);
      await this.conn.commit();
      if (this.stopping.signal.aborted) return;
      await this.pause(GAP_MS);
      if (this.stopping.signal.aborted) return;
      await this.take();
    }
  }

  /** Ends the spell in progress (its locks released), closes the connection; answers how many spells it held. */
  async stop(): Promise<number> {
    this.stopping.abort();
    try {
      await this.done;
    } finally {
      await this.conn.end().catch(() => undefined);
    }
    return this.spells;
  }
}
