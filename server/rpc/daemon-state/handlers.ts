// Node daemon states: how an operator stops a daemon, and how a daemon says what it does.
import type { NodeDaemonState } from '../../../proto/gen/sfdb/v1/NodeDaemonState.js';
import { topics } from '../../../proto/topics.js';
import { isoTime } from '../../time.js';
import * as v from '../../validate.js';
import type { Handlers } from '../context.js';
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
  async SetNodeDaemonState(req, { write }) {
    const a = {
      nodeUuid: v.uuid('node_uuid', req.nodeUuid),
      daemon: v.name('daemon', req.daemon),
      state: v.requiredEnum('state', req.state, DAEMON_STATES),
      message: v.text('message', req.message, { max: 1024 }),
    };
    // The daemon waits on its own state topic: an operator stop reaches it at once.
    const row = await write(async (tx, publish) => {
      const r = await q.upsertDaemonState(tx, a);
      publish({ topic: topics.daemonState(a.nodeUuid, a.daemon), objectType: 'daemon_state', objectId: a.daemon, kind: 'state' });
      return r;
    });
    if (!row) throw new Error('daemon state upsert returned no row');
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
