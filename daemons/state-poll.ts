// The daemon-state poll: a daemon's read of its own state (never its node's), which is
// how it hears an operator stop while running and an operator start while held (without
// the change feed, or when the feed has fallen back; in feed mode it reads only when its
// state topic changes). At most one read per SFDB_DAEMON_STATE_POLL_MS (2 s): on
// DatabaseUnavailable the interval doubles up to SFDB_DAEMON_STATE_POLL_MAX_MS (60 s) and
// snaps back on success. Declared as the daemon's `daemon-state-poll` task (daemon.ts).
import { DatabaseUnavailable } from '@sfdb/client';
import type { Clock, DatabaseClient, NodeDaemonState, WrittenDaemonState } from '@sfdb/client';
import { statePolls } from './metrics.js';
import type { DaemonSettings } from './settings.js';

/** A read of the daemon's own state: `own` undefined when no row exists; undefined when the read failed. */
export type StateRead = { own: NodeDaemonState | undefined } | undefined;

export interface StatePollOptions {
  db: Pick<DatabaseClient, 'getNodeDaemonState'>;
  nodeUuid: string;
  name: string;
  settings: DaemonSettings;
  clock: Clock;
  /** Told of a failure that is not the tier being unavailable. */
  countError(err: unknown): void;
}

export class StatePoll {
  /** The current interval: the setting, doubled while the tier is unavailable. */
  intervalMs: number;
  /** When the next read is due (a waiting loop reads when now reaches it). */
  nextAt = 0;
  /** Reads made. */
  reads = 0;
  /** The seq of the change the daemon's own last RUNNING published on its state topic. */
  private ownSeq: string | undefined;

  constructor(private readonly o: StatePollOptions) {
    this.intervalMs = o.settings.daemonStatePollMs;
  }

  /** The next read is due one interval from now. */
  schedule(): void {
    this.nextAt = this.o.clock.now() + this.intervalMs;
  }

  /**
   * The daemon recorded its own state: the change of this write on its state topic needs
   * no read when it arrives. Only a write that left the daemon RUNNING and unheld counts;
   * two writes merged in one group-commit batch share the last one's row and change, so a
   * stop written in the same batch shows here and the change is read as any other.
   */
  wrote(written: WrittenDaemonState): void {
    this.ownSeq = written.state === 'RUNNING' && !written.operatorHold && written.changeSeq !== '0' ? written.changeSeq : undefined;
  }

  /** True for the change the daemon's own last RUNNING published (its seq); every other change is news. */
  isOwnChange(seq: string): boolean {
    return this.ownSeq !== undefined && seq === this.ownSeq;
  }

  /** The next read is due now (the change feed fell back: catch up at once). */
  dueNow(): void {
    this.nextAt = this.o.clock.now();
  }

  /** Reads the state now, counted by outcome; the next read is scheduled from its outcome. */
  async read(): Promise<StateRead> {
    this.reads += 1;
    let read: StateRead;
    try {
      read = { own: await this.o.db.getNodeDaemonState(this.o.nodeUuid, this.o.name) };
      this.intervalMs = this.o.settings.daemonStatePollMs;
      statePolls.inc({ daemon: this.o.name, outcome: 'ok' });
    } catch (err) {
      statePolls.inc({ daemon: this.o.name, outcome: err instanceof DatabaseUnavailable ? 'unavailable' : 'error' });
      if (err instanceof DatabaseUnavailable) {
        this.intervalMs = Math.min(this.intervalMs * 2, this.o.settings.daemonStatePollMaxMs);
      } else {
        this.o.countError(err);
      }
    }
    this.schedule();
    return read;
  }
}
