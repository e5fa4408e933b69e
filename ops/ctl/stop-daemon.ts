// `sf-ctl stop-daemon NODE DAEMON`: an operator stop. Records STOPPING (the daemon hears it
// on its state topic, or at its next daemon-state poll, and ends its loop, recording
// STOPPED) and waits for STOPPED: on the change feed (WaitForChanges on the daemon's state
// topic), or re-reading every 2 s when the feed is unavailable.
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DatabaseClient, Node } from '../../client/index.js';
import { UUID_PATTERN } from '../../proto/identity.js';
import { MAX_WAIT_MS, topics } from '../../proto/topics.js';
import { CtlError, EXIT, GLOBAL_HELP, UsageError, flag, formatDurationMs, parseDuration, str } from './cli.js';
import type { Command, Io, Parsed } from './cli.js';
import { CTL_DEADLINE_MS, withTier } from './connect.js';
import { formatAge } from './format.js';

const HELP = `usage: sf-ctl stop-daemon NODE DAEMON [--timeout 30s] [--json]

Stops daemon DAEMON on node NODE (a node uuid, or its fqdn) the way an operator does:
records its state STOPPING, which the daemon hears at once on the change feed (or within
its daemon-state poll interval, 2 s, when it polls), and waits until the daemon has
recorded STOPPED, printing how long it took. It waits on the change feed for the daemon's
state topic, re-reading the state every 2 s when the feed is unavailable. A daemon already
STOPPED is left as it is.

  --timeout D   how long to wait for STOPPED (default 30s; 1s..1h)

exit: 0 STOPPED, 1 not STOPPED within the timeout ("did not stop within …; last state …"),
      2 bad arguments (or no such node, or no state recorded for that daemon on it),
      3 the replica is unreachable

${GLOBAL_HELP}`;

const NAME = /^[a-z0-9][a-z0-9_.:-]*$/;
/** The re-read interval when the change feed is unavailable. */
export const FALLBACK_POLL_MS = 2000;

export interface StopResult {
  node: string;
  fqdn: string;
  daemon: string;
  state: string;
  elapsedMs: number;
  /** How STOPPED was heard: on the change feed, or by re-reading. */
  via: 'feed' | 'poll' | 'already';
}

export function stopLine(r: StopResult): string {
  if (r.via === 'already') return `${r.daemon} on ${r.fqdn} (${r.node}) is already STOPPED\n`;
  return `${r.daemon} on ${r.fqdn} (${r.node}): STOPPED after ${formatAge(r.elapsedMs)}\n`;
}

/** The calls stop-daemon makes. */
export type StopDb = Pick<DatabaseClient, 'getNode' | 'getNodeByFqdn' | 'getNodeDaemonState' | 'setNodeDaemonState' | 'waitForChanges'>;

async function findNode(db: StopDb, ref: string): Promise<Node> {
  const node = UUID_PATTERN.test(ref) ? await db.getNode(ref) : await db.getNodeByFqdn(ref);
  if (!node) throw new UsageError(`NODE: no node with ${UUID_PATTERN.test(ref) ? 'uuid' : 'fqdn'} "${ref}"; expected a node uuid or fqdn`);
  return node;
}

/** Opens a cursor on the topic; undefined when the feed is unavailable. */
async function subscribe(db: StopDb, topic: string): Promise<string | undefined> {
  try {
    return (await db.waitForChanges({ topics: [topic], cursor: '' }, { deadlineMs: CTL_DEADLINE_MS })).cursor;
  } catch {
    return undefined;
  }
}

/** Records STOPPING and waits for STOPPED (on the feed; else re-reading every `pollMs`). */
export async function stopDaemon(db: StopDb, nodeRef: string, daemon: string, timeoutMs: number, pollMs = FALLBACK_POLL_MS): Promise<StopResult> {
  const node = await findNode(db, nodeRef);
  const before = await db.getNodeDaemonState(node.uuid, daemon);
  if (!before) throw new UsageError(`DAEMON: no state recorded for daemon "${daemon}" on node ${node.fqdn} (${node.uuid})`);
  const base = { node: node.uuid, fqdn: node.fqdn, daemon };
  if (before.state === 'STOPPED') return { ...base, state: 'STOPPED', elapsedMs: 0, via: 'already' };

  const topic = topics.daemonState(node.uuid, daemon);
  let cursor = await subscribe(db, topic); // before the write: nothing after it is missed
  const start = performance.now();
  const deadline = start + timeoutMs;
  await db.setNodeDaemonState(node.uuid, daemon, 'STOPPING', 'sf-ctl stop-daemon');
  let via: 'feed' | 'poll' = cursor === undefined ? 'poll' : 'feed';
  for (;;) {
    const now = await db.getNodeDaemonState(node.uuid, daemon);
    const state = now ? String(now.state) : 'none';
    if (state === 'STOPPED') return { ...base, state, elapsedMs: Math.round(performance.now() - start), via };
    const remaining = deadline - performance.now();
    if (remaining <= 0) {
      throw new CtlError(`${daemon} on ${node.fqdn} (${node.uuid}) did not stop within ${formatDurationMs(timeoutMs)}; last state ${state}`, EXIT.failed);
    }
    if (cursor !== undefined) {
      const timeout = Math.max(1, Math.min(Math.ceil(remaining), MAX_WAIT_MS));
      try {
        cursor = (await db.waitForChanges({ topics: [topic], cursor, timeoutMs: timeout }, { deadlineMs: timeout + CTL_DEADLINE_MS })).cursor;
        continue;
      } catch {
        cursor = undefined; // the feed is unavailable: re-read every 2 s from here on
        via = 'poll';
      }
    }
    await sleep(Math.min(pollMs, Math.max(0, deadline - performance.now())));
  }
}

async function run({ values, positionals }: Parsed, io: Io): Promise<number> {
  const [nodeRef, daemon, ...extra] = positionals;
  if (nodeRef === undefined || daemon === undefined || extra.length > 0) {
    throw new UsageError('stop-daemon: expected NODE DAEMON (a node uuid or fqdn, and a daemon name); see sf-ctl stop-daemon --help');
  }
  if (!NAME.test(daemon) || daemon.length > 64) throw new UsageError(`DAEMON: "${daemon}" is not a daemon name ([a-z0-9][a-z0-9_.:-]*, at most 64)`);
  const timeoutMs = parseDuration('--timeout', str(values, 'timeout') ?? '30s', { minMs: 1000, maxMs: 3_600_000 });
  const result = await withTier(str(values, 'target'), ({ db }) => stopDaemon(db, nodeRef, daemon, timeoutMs));
  io.out(flag(values, 'json') ? `${JSON.stringify(result, null, 2)}\n` : stopLine(result));
  return EXIT.ok;
}

export const stopDaemonCommand: Command = {
  name: 'stop-daemon',
  summary: 'operator stop of a daemon on a node; waits until it is STOPPED',
  help: HELP,
  options: { timeout: { type: 'string' } },
  positionals: true,
  run,
};
