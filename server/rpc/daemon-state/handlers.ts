// Node daemon states: how an operator stops a daemon, and how a daemon says what it does.
import type { NodeDaemonState } from '@sfdb/proto/gen/sfdb/v1/NodeDaemonState';
import { InvalidArgumentError } from '../../errors.js';
import { isoTime } from '../../time.js';
import * as v from '../../validate.js';
import type { Handlers } from '../context.js';
import * as q from './queries.js';
import { setDaemonStateAlone } from './writes.js';

export const DAEMON_STATES = ['STARTING', 'RUNNING', 'IDLE', 'STOPPING', 'STOPPED', 'ERROR'] as const;
const HOLD_CHANGES = ['OPERATOR_HOLD_SET', 'OPERATOR_HOLD_RELEASE'] as const;
/** The states an operator's hold may be set with: a held daemon is stopped, or stopping. */
const HOLDABLE: readonly string[] = ['STOPPING', 'STOPPED'];

function toDaemonState(row: q.DaemonStateRow): NodeDaemonState {
  return {
    nodeUuid: row.node_uuid,
    daemon: row.daemon,
    state: row.state as NodeDaemonState['state'],
    message: row.message,
    updatedAt: isoTime(row.updated_at),
    operatorHold: Number(row.operator_hold) === 1,
  };
}

/** The request's hold change; set only with STOPPING or STOPPED. */
function holdChange(raw: string | number, state: string | number): q.HoldChange {
  const change = v.enumValue('operator_hold', raw, HOLD_CHANGES, { optional: true });
  if (change === 'OPERATOR_HOLD_SET' && !HOLDABLE.includes(String(state))) {
    throw new InvalidArgumentError('operator_hold', `OPERATOR_HOLD_SET needs state STOPPING or STOPPED, not ${String(state)}`);
  }
  return change === 'OPERATOR_HOLD_SET' ? 'set' : change === 'OPERATOR_HOLD_RELEASE' ? 'release' : undefined;
}

export const daemonStateHandlers: Handlers<'SetNodeDaemonState' | 'GetNodeDaemonState' | 'ListNodeDaemonStates'> = {
  async SetNodeDaemonState(req, { sql: bounded, feed, groups, caller, trace }) {
    const nodeUuid = v.uuid('node_uuid', req.nodeUuid);
    const daemon = v.name('daemon', req.daemon);
    const hold = holdChange(req.operatorHold, req.state);
    const a = {
      nodeUuid,
      daemon,
      state: v.requiredEnum('state', req.state, DAEMON_STATES),
      message: v.text('message', req.message, { max: 1024 }),
      hold,
      // The daemon recording its own state: news to its watchers, not to itself.
      reported: hold === undefined && caller.daemon === daemon && caller.node.toLowerCase() === nodeUuid,
    };
    // Every daemon of a starting cluster records RUNNING at once: grouped (writes.ts).
    // An operator's stop or start (a hold change) is rare, and runs alone.
    const grouped = groups.commit.enabled && a.hold === undefined;
    const written = grouped ? await groups.commit.submit(groups.kinds.daemonState, a) : await setDaemonStateAlone(feed, bounded, a, trace);
    return { daemonState: toDaemonState(written.row), changeSeq: written.changeSeq };
  },

  async GetNodeDaemonState(req, { sql }) {
    const row = await q.selectDaemonState(sql, v.uuid('node_uuid', req.nodeUuid), v.name('daemon', req.daemon));
    return row ? { found: true, daemonState: toDaemonState(row) } : { found: false };
  },

  async ListNodeDaemonStates(req, { sql }) {
    const rows = await q.selectDaemonStates(sql, v.uuid('node_uuid', req.nodeUuid));
    return { daemonStates: rows.map(toDaemonState) };
  },
};
