// `sf-ctl stop-daemon NODE DAEMON`: an operator stop. Records STOPPING with the operator
// hold set (the daemon hears it on its state topic, or at its next daemon-state poll, and
// ends its loop, recording STOPPED) and waits for STOPPED: on the change feed, or
// re-reading every 2 s when the feed is unavailable. The hold outlives the daemon's
// process: a restarted daemon stays stopped until `sf-ctl start-daemon` (start-daemon.ts).
import { performance } from 'node:perf_hooks';
import { EXIT, GLOBAL_HELP, flag, formatDurationMs, str } from './cli.js';
import type { Command, Io, Parsed } from './cli.js';
import { withTier } from './connect.js';
import { FALLBACK_POLL_MS, currentState, daemonArgs, daemonLabel, findNode, startCommandLine, subscribe, waitForState } from './daemon-target.js';
import type { DaemonCtlDb } from './daemon-target.js';
import { formatAge } from './format.js';

export { FALLBACK_POLL_MS };

const HELP = `usage: sf-ctl stop-daemon NODE DAEMON [--timeout 30s] [--json]

Stops daemon DAEMON on node NODE (a node uuid, or its fqdn) the way an operator does:
records its state STOPPING and holds it stopped. The daemon hears it at once on the change
feed (or within its daemon-state poll interval, 2 s, when it polls), ends its work and
records STOPPED; its process exits 0. This waits until the daemon has recorded STOPPED,
printing how long it took: on the change feed for the daemon's state topic, re-reading the
state every 2 s when the feed is unavailable.

The hold outlives the process: a daemon started again for that node (its supervisor's
restart, a reboot) stays stopped, says so, and waits until \`sf-ctl start-daemon NODE DAEMON\`.
A daemon already STOPPED (its process ended some other way) is held without waiting.

  --timeout D   how long to wait for STOPPED (default 30s; 1s..1h)

exit: 0 STOPPED, 1 not STOPPED within the timeout ("did not stop within …; last state …";
      it stays held: it stops when it hears the stop, and does not run again until started),
      2 bad arguments (or no such node, or no state recorded for that daemon on it),
      3 the replica is unreachable

${GLOBAL_HELP}`;

export interface StopResult {
  node: string;
  fqdn: string;
  daemon: string;
  state: string;
  /** Held stopped by an operator until sf-ctl start-daemon (always, after a stop-daemon). */
  operatorHold: boolean;
  elapsedMs: number;
  /** How STOPPED was heard: on the change feed, or by re-reading; 'already': it was STOPPED. */
  via: 'feed' | 'poll' | 'already';
}

export function stopLine(r: StopResult): string {
  const held = `held stopped until \`${startCommandLine(r.node, r.daemon)}\``;
  if (r.via === 'already') return `${r.daemon} on ${r.fqdn} (${r.node}) is already STOPPED; ${held}\n`;
  return `${r.daemon} on ${r.fqdn} (${r.node}): STOPPED after ${formatAge(r.elapsedMs)}; ${held}\n`;
}

/** The calls stop-daemon makes. */
export type StopDb = DaemonCtlDb;

/** Records STOPPING with the operator hold and waits for STOPPED (on the feed; else re-reading every `pollMs`). */
export async function stopDaemon(db: StopDb, nodeRef: string, daemon: string, timeoutMs: number, pollMs = FALLBACK_POLL_MS): Promise<StopResult> {
  const node = await findNode(db, nodeRef);
  const before = await currentState(db, node, daemon);
  const base = { node: node.uuid, fqdn: node.fqdn, daemon, operatorHold: true };
  if (before.state === 'STOPPED') {
    // Its process is gone already: hold it, so that a restart does not run it.
    if (!before.operatorHold) await db.setNodeDaemonState(node.uuid, daemon, 'STOPPED', 'sf-ctl stop-daemon', { operatorHold: 'set' });
    return { ...base, state: 'STOPPED', elapsedMs: 0, via: 'already' };
  }
  const cursor = await subscribe(db, node, daemon); // before the write: nothing after it is missed
  const start = performance.now();
  await db.setNodeDaemonState(node.uuid, daemon, 'STOPPING', 'sf-ctl stop-daemon', { operatorHold: 'set' });
  const reached = await waitForState(db, node, daemon, ['STOPPED'], {
    cursor,
    start,
    timeoutMs,
    pollMs,
    late: (state) => `${daemonLabel(node, daemon)} did not stop within ${formatDurationMs(timeoutMs)}; last state ${state}`,
  });
  return { ...base, ...reached };
}

async function run(parsed: Parsed, io: Io): Promise<number> {
  const { nodeRef, daemon, timeoutMs } = daemonArgs('stop-daemon', parsed);
  const result = await withTier(str(parsed.values, 'target'), ({ db }) => stopDaemon(db, nodeRef, daemon, timeoutMs));
  io.out(flag(parsed.values, 'json') ? `${JSON.stringify(result, null, 2)}\n` : stopLine(result));
  return EXIT.ok;
}

export const stopDaemonCommand: Command = {
  name: 'stop-daemon',
  summary: 'operator stop of a daemon on a node, held until start-daemon; waits until it is STOPPED',
  help: HELP,
  options: { timeout: { type: 'string' } },
  positionals: true,
  run,
};
