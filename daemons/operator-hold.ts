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
// - waiting costs what the daemon-state poll costs, and no more. In feed mode it waits on
//   its own daemon-state topic alone (its work's topics leave the long-poll, so work
//   changes wake no held process) and reads its state only when that topic changes; when
//   polling (anchor mode, or the feed's fallback) it reads its state once per
//   SFDB_DAEMON_STATE_POLL_MS (2 s; 60 s at most while the tier is unavailable) — the
//   daemon's declared `daemon-state-poll` task, whose duty includes hearing this start.
import type { Logger } from 'pino';
import type { ChangeWaiter, Clock, NodeDaemonState } from '@sfdb/client';
import { topics } from '@sfdb/proto/topics';
import type { DaemonHooks } from './hooks.js';
import { operatorHold } from './metrics.js';
import type { StateRead } from './state-poll.js';

const HELD = 'held stopped by an operator';
/** The message a held daemon records with STOPPED while its process waits. */
export const HELD_MESSAGE = `${HELD}; a process waits for sf-ctl start-daemon`;
/** The message it records when its process ends, still held (a signal). */
const ENDED_MESSAGE = `${HELD}; its process ended`;

/** The longest local wait on the feed between two looks at the waiter's mode. No RPC. */
const FEED_WAIT_MS = 60_000;

/** What the hold needs of its daemon. */
export interface HoldContext {
  readonly name: string;
  readonly nodeUuid: string;
  readonly clock: Clock;
  readonly log: Logger;
  readonly hooks: DaemonHooks;
  /** Aborted when the daemon is asked to stop. */
  readonly signal: AbortSignal;
  /** Feed mode: the process's change waiter. */
  readonly waiter: ChangeWaiter | undefined;
  /** The daemon-state poll's read: counted, its interval doubling while the tier is unavailable. */
  readState(): Promise<StateRead>;
  /** When the poll's next read is due (polling only). */
  nextReadAt(): number;
  /** Records STOPPED with `message`, the hold left as it is; answers the row, or undefined when the call failed. */
  recordStopped(message: string): Promise<NodeDaemonState | undefined>;
}

/** The command that starts a held daemon. */
export function startCommand(nodeUuid: string, daemon: string): string {
  return `sf-ctl start-daemon ${nodeUuid} ${daemon}`;
}

/**
 * Waits while an operator holds the daemon stopped. Answers true once the hold is released
 * (the caller records RUNNING again; the tier refuses it should the hold be back), false
 * when the daemon was asked to stop meanwhile (STOPPED recorded, the hold kept).
 */
export async function waitWhileHeld(ctx: HoldContext, refusal: string): Promise<boolean> {
  // Subscribed before the first write and read: a release after them is not missed.
  const sub = ctx.waiter?.subscribe([topics.daemonState(ctx.nodeUuid, ctx.name)]);
  try {
    // STOPPED with a message saying a process waits; its answer is a first read.
    const row = await ctx.recordStopped(HELD_MESSAGE);
    const start = startCommand(ctx.nodeUuid, ctx.name);
    operatorHold.set({ daemon: ctx.name }, 1);
    ctx.log.warn({ operatorHold: true, refusal, start }, `held stopped by an operator: this daemon does not run until an operator starts it with \`${start}\``);
    ctx.hooks.operatorHold?.(true);
    let recorded = row !== undefined;
    if (row && !row.operatorHold) return released(ctx);
    let readNow = !recorded;
    // A read that failed is tried again when the poll is next due, in feed mode too: the
    // change it was to read may have come already.
    let retry = false;
    let wasFeed: boolean | undefined;
    while (!ctx.signal.aborted) {
      const feed = sub !== undefined && ctx.waiter?.mode === 'feed';
      // Between feed and polling, look once: a change may have come in between.
      if (wasFeed !== undefined && feed !== wasFeed) readNow = true;
      wasFeed = feed;
      if (readNow || ((!feed || retry) && ctx.clock.now() >= ctx.nextReadAt())) {
        readNow = false;
        const read = await ctx.readState();
        retry = read === undefined;
        if (read && !read.own?.operatorHold) return released(ctx);
        if (read && !recorded) recorded = (await ctx.recordStopped(HELD_MESSAGE)) !== undefined;
        continue;
      }
      const untilRead = Math.max(0, ctx.nextReadAt() - ctx.clock.now());
      if (sub !== undefined && feed) {
        await sub.wait(retry ? untilRead : FEED_WAIT_MS, ctx.signal);
        if (sub.pending) {
          sub.take(); // a change (or a resync) of our own state: read it
          readNow = true;
        }
      } else {
        await ctx.clock.sleep(untilRead, ctx.signal);
      }
    }
    await ctx.recordStopped(ENDED_MESSAGE);
    ctx.log.info({ operatorHold: true }, 'stopped while held by an operator');
    return false;
  } finally {
    sub?.close();
    operatorHold.set({ daemon: ctx.name }, 0);
  }
}

function released(ctx: HoldContext): true {
  ctx.log.info({ operatorHold: false }, 'operator hold released: starting');
  ctx.hooks.operatorHold?.(false);
  return true;
}
