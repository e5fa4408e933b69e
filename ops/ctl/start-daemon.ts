// `sf-ctl start-daemon NODE DAEMON`: an operator start, the end of an operator stop.
// Releases the daemon's operator hold, recording STARTING, and waits until the daemon
// records RUNNING: its process, waiting held (a supervisor restarted it after the stop),
// hears the release on its state topic (or at its next daemon-state poll) and runs. It
// waits on the change feed, re-reading every 2 s when the feed is unavailable.
import { performance } from 'node:perf_hooks';
import { CtlError, EXIT, GLOBAL_HELP, flag, formatDurationMs, str } from './cli.js';
import type { Command, Io, Parsed } from './cli.js';
import { withTier } from './connect.js';
import { FALLBACK_POLL_MS, currentState, daemonArgs, daemonLabel, findNode, subscribe, waitForState } from './daemon-target.js';
import type { DaemonCtlDb } from './daemon-target.js';
import { formatAge } from './format.js';

const HELP = `usage: sf-ctl start-daemon NODE DAEMON [--timeout 30s] [--json]

Starts daemon DAEMON on node NODE (a node uuid, or its fqdn) after an operator stop
(sf-ctl stop-daemon): releases the hold that keeps it stopped, records STARTING, and waits
until the daemon has recorded RUNNING, printing how long it took. Its process — restarted
by its supervisor after the stop, waiting, held — hears the release at once on the change
feed (or within its daemon-state poll interval, 2 s, when it polls) and runs. This waits on
the change feed for the daemon's state topic, re-reading the state every 2 s when the feed
is unavailable. A daemon already RUNNING, and not held, is left as it is.

Only an operator stop is released here: a daemon that is not held and not running (its
process ended, or never started) starts with its process (systemd, its pod), not with this.

  --timeout D   how long to wait for RUNNING (default 30s; 1s..1h)

exit: 0 RUNNING, 1 not RUNNING within the timeout (the hold is released: the daemon runs
      once its process starts — is one running for it?), or not held by an operator stop
      and not running,
      2 bad arguments (or no such node, or no state recorded for that daemon on it),
      3 the replica is unreachable

${GLOBAL_HELP}`;

/** What a running daemon records. */
const RUNNING: readonly string[] = ['RUNNING', 'IDLE'];

export interface StartResult {
  node: string;
  fqdn: string;
  daemon: string;
  state: string;
  elapsedMs: number;
  /** How RUNNING was heard: on the change feed, or by re-reading; 'already': it was running, not held. */
  via: 'feed' | 'poll' | 'already';
}

export function startLine(r: StartResult): string {
  if (r.via === 'already') return `${r.daemon} on ${r.fqdn} (${r.node}) is already ${r.state}\n`;
  return `${r.daemon} on ${r.fqdn} (${r.node}): ${r.state} after ${formatAge(r.elapsedMs)}\n`;
}

/** Releases the operator hold (recording STARTING) and waits for RUNNING (on the feed; else re-reading every `pollMs`). */
export async function startDaemon(db: DaemonCtlDb, nodeRef: string, daemon: string, timeoutMs: number, pollMs = FALLBACK_POLL_MS): Promise<StartResult> {
  const node = await findNode(db, nodeRef);
  const before = await currentState(db, node, daemon);
  const base = { node: node.uuid, fqdn: node.fqdn, daemon };
  const label = daemonLabel(node, daemon);
  if (!before.operatorHold) {
    if (RUNNING.includes(String(before.state))) return { ...base, state: String(before.state), elapsedMs: 0, via: 'already' };
    throw new CtlError(
      `${label} is ${String(before.state)} and not held by an operator stop: nothing to release; it starts with its process (systemd, its pod)`,
      EXIT.failed,
    );
  }
  const cursor = await subscribe(db, node, daemon); // before the write: nothing after it is missed
  const start = performance.now();
  await db.setNodeDaemonState(node.uuid, daemon, 'STARTING', 'sf-ctl start-daemon', { operatorHold: 'release' });
  const reached = await waitForState(db, node, daemon, RUNNING, {
    cursor,
    start,
    timeoutMs,
    pollMs,
    late: (state) =>
      `released the operator hold of ${label}, but it did not record RUNNING within ${formatDurationMs(timeoutMs)}; last state ${state}. ` +
      'It runs once its process starts: is one running for it (systemctl status, its pod)?',
  });
  return { ...base, ...reached };
}

async function run(parsed: Parsed, io: Io): Promise<number> {
  const { nodeRef, daemon, timeoutMs } = daemonArgs('start-daemon', parsed);
  const result = await withTier(str(parsed.values, 'target'), ({ db }) => startDaemon(db, nodeRef, daemon, timeoutMs));
  io.out(flag(parsed.values, 'json') ? `${JSON.stringify(result, null, 2)}\n` : startLine(result));
  return EXIT.ok;
}

export const startDaemonCommand: Command = {
  name: 'start-daemon',
  summary: 'operator start: releases an operator stop of a daemon; waits until it is RUNNING',
  help: HELP,
  options: { timeout: { type: 'string' } },
  positionals: true,
  run,
};
