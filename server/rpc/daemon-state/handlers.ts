// Node daemon states: how an operator stops a daemon, and how a daemon says what it does.
import type { NodeDaemonState } from '../../../proto/gen/sfdb/v1/NodeDaemonState.js';
import { isoTime } from '../../time.js';
import * as v from '../../validate.js';
import type { Handlers } from '../context.js';
import { setDaemonStateAlone } from '../group-kinds.js';
import * as q from './queries.js';

export const DAEMON_STATES = ['STARTING', 'RUNNING', 'IDLE', 'STOPPING', 'STOPPED', 'ERROR'] as const;

function toDaemonState(row: q.DaemonStateRow): NodeDaemonState {
  return {
    nodeUuid: row.node_uuid,
    daemon: row.daemon,
    state: row.state as NodeDaemonState['state'],
    message: row.message,
    updatedAt: isoTime(row.updated_at),
  };
}

export const daemonStateHandlers: Handlers<'SetNodeDaemonState' | 'GetNodeDaemonState' | 'ListNodeDaemonStates'> = {
  async SetNodeDaemonState(req, { sql: bounded, feed, groups }) {
    const a = {
      nodeUuid: v.uuid('node_uuid', req.nodeUuid),
      daemon: v.name('daemon', req.daemon),
      state: v.requiredEnum('state', req.state, DAEMON_STATES),
      message: v.text('message', req.message, { max: 1024 }),
    };
    // Every daemon of a starting cluster records RUNNING at once: grouped (group-kinds.ts).
    const row = groups.commit.enabled ? await groups.commit.submit(groups.kinds.daemonState, a) : await setDaemonStateAlone(feed, bounded, a);
    return { daemonState: toDaemonState(row) };
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
