// What stop-daemon and start-daemon share: the NODE DAEMON arguments, the node looked up,
// and the wait for the daemon to record a state — on the change feed (WaitForChanges on
// the daemon's state topic), or re-reading every 2 s when the feed is unavailable.
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DatabaseClient, Node, NodeDaemonState } from '@sfdb/client';
import { UUID_PATTERN } from '@sfdb/proto/identity';
import { MAX_WAIT_MS, topics } from '@sfdb/proto/topics';
import { CtlError, EXIT, UsageError, parseDuration, str } from './cli.js';
import type { Parsed } from './cli.js';
import { CTL_DEADLINE_MS } from './connect.js';

const NAME = /^[a-z0-9][a-z0-9_.:-]*$/;
/** The re-read interval when the change feed is unavailable. */
export const FALLBACK_POLL_MS = 2000;

/** The calls stop-daemon and start-daemon make. */
export type DaemonCtlDb = Pick<DatabaseClient, 'getNode' | 'getNodeByFqdn' | 'getNodeDaemonState' | 'setNodeDaemonState' | 'waitForChanges'>;

export interface DaemonArgs {
  nodeRef: string;
  daemon: string;
  timeoutMs: number;
}

/** NODE DAEMON [--timeout D] of `command`; a UsageError naming what is wrong. */
export function daemonArgs(command: string, { values, positionals }: Parsed): DaemonArgs {
  const [nodeRef, daemon, ...extra] = positionals;
  if (nodeRef === undefined || daemon === undefined || extra.length > 0) {
    throw new UsageError(`${command}: expected NODE DAEMON (a node uuid or fqdn, and a daemon name); see sf-ctl ${command} --help`);
  }
  if (!NAME.test(daemon) || daemon.length > 64) throw new UsageError(`DAEMON: "${daemon}" is not a daemon name ([a-z0-9][a-z0-9_.:-]*, at most 64)`);
  const timeoutMs = parseDuration('--timeout', str(values, 'timeout') ?? '30s', { minMs: 1000, maxMs: 3_600_000 });
  return { nodeRef, daemon, timeoutMs };
}

export async function findNode(db: Pick<DaemonCtlDb, 'getNode' | 'getNodeByFqdn'>, ref: string): Promise<Node> {
  const node = UUID_PATTERN.test(ref) ? await db.getNode(ref) : await db.getNodeByFqdn(ref);
  if (!node) throw new UsageError(`NODE: no node with ${UUID_PATTERN.test(ref) ? 'uuid' : 'fqdn'} "${ref}"; expected a node uuid or fqdn`);
  return node;
}

/** The daemon's state row; a UsageError when none was ever recorded. */
export async function currentState(db: DaemonCtlDb, node: Node, daemon: string): Promise<NodeDaemonState> {
  const state = await db.getNodeDaemonState(node.uuid, daemon);
  if (!state) throw new UsageError(`DAEMON: no state recorded for daemon "${daemon}" on node ${node.fqdn} (${node.uuid})`);
  return state;
}

/** Opens a cursor on the daemon's state topic; undefined when the feed is unavailable. */
export async function subscribe(db: DaemonCtlDb, node: Node, daemon: string): Promise<string | undefined> {
  try {
    return (await db.waitForChanges({ topics: [topics.daemonState(node.uuid, daemon)], cursor: '' }, { deadlineMs: CTL_DEADLINE_MS })).cursor;
  } catch {
    return undefined;
  }
}

export interface Reached {
  state: string;
  elapsedMs: number;
  /** How it was heard: on the change feed, or by re-reading. */
  via: 'feed' | 'poll';
}

/**
 * Waits until the daemon records one of `wanted`, from `start` (performance.now()) for
 * `timeoutMs`: on the feed from `cursor` (opened before the write that asked for it), else
 * re-reading every `pollMs`. Past the timeout: a CtlError (exit 1) from `late`, given the
 * last state.
 */
export async function waitForState(
  db: DaemonCtlDb,
  node: Node,
  daemon: string,
  wanted: readonly string[],
  o: { cursor: string | undefined; start: number; timeoutMs: number; pollMs: number; late: (lastState: string) => string },
): Promise<Reached> {
  const topic = topics.daemonState(node.uuid, daemon);
  const deadline = o.start + o.timeoutMs;
  let cursor = o.cursor;
  let via: 'feed' | 'poll' = cursor === undefined ? 'poll' : 'feed';
  for (;;) {
    const now = await db.getNodeDaemonState(node.uuid, daemon);
    const state = now ? String(now.state) : 'none';
    if (wanted.includes(state)) return { state, elapsedMs: Math.round(performance.now() - o.start), via };
    const remaining = deadline - performance.now();
    if (remaining <= 0) throw new CtlError(o.late(state), EXIT.failed);
    if (cursor !== undefined) {
      const timeout = Math.max(1, Math.min(Math.ceil(remaining), MAX_WAIT_MS));
      try {
        cursor = (await db.waitForChanges({ topics: [topic], cursor, timeoutMs: timeout }, { deadlineMs: timeout + CTL_DEADLINE_MS })).cursor;
        continue;
      } catch {
        cursor = undefined; // the feed is unavailable: re-read every pollMs from here on
        via = 'poll';
      }
    }
    await sleep(Math.min(o.pollMs, Math.max(0, deadline - performance.now())));
  }
}

/** "daemon on fqdn (uuid)". */
export function daemonLabel(node: Node, daemon: string): string {
  return `${daemon} on ${node.fqdn} (${node.uuid})`;
}

/** The command that releases an operator's hold of the daemon. */
export function startCommandLine(nodeUuid: string, daemon: string): string {
  return `sf-ctl start-daemon ${nodeUuid} ${daemon}`;
}
