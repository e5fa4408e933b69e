// A daemon held stopped by an operator. `sf-ctl stop-daemon` sets the daemon's operator
// hold with STOPPING; the daemon stops and its process exits 0; the hold outlives it. A
// process started for that daemon afterwards (its supervisor's restart: the DaemonSet's
// pod, systemd's Restart=always) has its RUNNING refused by the tier (FAILED_PRECONDITION,
// nothing written) and comes here instead of running:
// - it says so: a warning in its log with the command that starts it, STOPPED recorded with
//   a message saying a process waits (which also completes an operator's stop-daemon still
//   waiting for STOPPED), database_daemon_operator_hold{daemon} = 1, state `held` in its
//   snapshot and on sf-daemon's /healthz;
// - it stays up, idle: a supervisor would restart a process that exits here at once,
//   again and again (a crash loop), so it waits instead — until an operator releases the
//   hold (`sf-ctl start-daemon`), then it runs; or until it is stopped (a signal), then it
//   exits 0 with the hold still set;
// - waiting costs what watching its own state costs (own-state.ts), and no more: its work's
//   topics leave the long-poll, and it hears the release through its own-state watcher —
//   on its state topic in feed mode, by the poll otherwise. This file has no wait loop of
//   its own: the watcher's reads end the hold (read()).
import type { Logger } from 'pino';
import type { NodeDaemonState, WrittenDaemonState } from '@sfdb/client';
import type { DaemonHooks } from './hooks.js';
import { operatorHold } from './metrics.js';

const HELD = 'held stopped by an operator';
/** The message a held daemon records with STOPPED while its process waits. */
export const HELD_MESSAGE = `${HELD}; a process waits for sf-ctl start-daemon`;
/** The message it records when its process ends, still held (a signal). */
const ENDED_MESSAGE = `${HELD}; its process ended`;

/** What the hold needs of its daemon. */
export interface HoldContext {
  readonly name: string;
  readonly nodeUuid: string;
  readonly log: Logger;
  readonly hooks: DaemonHooks;
  /** Aborted when the daemon is asked to stop. */
  readonly signal: AbortSignal;
  /** Records STOPPED with `message`, the hold left as it is; answers the row, or undefined when the call failed. */
  recordStopped(message: string): Promise<WrittenDaemonState | undefined>;
  /** A read of the daemon's state is owed now (the watcher reads it, and hands it to read()). */
  owe(): void;
}

/** The command that starts a held daemon. */
export function startCommand(nodeUuid: string, daemon: string): string {
  return `sf-ctl start-daemon ${nodeUuid} ${daemon}`;
}

/** One wait of a daemon held stopped by an operator. */
export class HoldWait {
  private recorded = false;
  private recording = false;
  private release: (() => void) | undefined;

  constructor(private readonly ctx: HoldContext) {}

  /**
   * Waits while an operator holds the daemon stopped. Answers true once the hold is released
   * (the caller records RUNNING again; the tier refuses it should the hold be back), false
   * when the daemon was asked to stop meanwhile (STOPPED recorded, the hold kept).
   */
  async wait(refusal: string): Promise<boolean> {
    const { ctx } = this;
    const released = new Promise<void>((resolve) => (this.release = resolve));
    try {
      // STOPPED with a message saying a process waits; its answer is a first read.
      const row = await this.record();
      const start = startCommand(ctx.nodeUuid, ctx.name);
      operatorHold.set({ daemon: ctx.name }, 1);
      ctx.log.warn({ operatorHold: true, refusal, start }, `held stopped by an operator: this daemon does not run until an operator starts it with \`${start}\``);
      ctx.hooks.operatorHold?.(true);
      if (row && !row.operatorHold) return this.released();
      if (!row) ctx.owe(); // the record failed: read the state (a release may have come), then record again
      const stopped = new Promise<void>((resolve) => {
        if (ctx.signal.aborted) resolve();
        else ctx.signal.addEventListener('abort', () => resolve(), { once: true });
      });
      await Promise.race([released, stopped]);
      if (!ctx.signal.aborted) return this.released();
      await ctx.recordStopped(ENDED_MESSAGE);
      ctx.log.info({ operatorHold: true }, 'stopped while held by an operator');
      return false;
    } finally {
      this.release = undefined;
      operatorHold.set({ daemon: ctx.name }, 0);
    }
  }

  /** A read of the daemon's state (by its own-state watcher): a release ends the wait; a hold still set is recorded, if it was not yet. */
  read(own: NodeDaemonState | undefined): void {
    if (!own?.operatorHold) {
      this.release?.();
      return;
    }
    if (!this.recorded && !this.recording) void this.record();
  }

  private async record(): Promise<WrittenDaemonState | undefined> {
    this.recording = true;
    try {
      const row = await this.ctx.recordStopped(HELD_MESSAGE);
      if (row) this.recorded = true;
      return row;
    } finally {
      this.recording = false;
    }
  }

  private released(): true {
    this.ctx.log.info({ operatorHold: false }, 'operator hold released: starting');
    this.ctx.hooks.operatorHold?.(false);
    return true;
  }
}
