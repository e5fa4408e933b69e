// Node daemon states: always read through, never cached.
import type { DaemonState__Output } from '../../proto/gen/sfdb/v1/DaemonState.js';
import type { NodeDaemonState__Output } from '../../proto/gen/sfdb/v1/NodeDaemonState.js';
import type { CallOptions, Transport } from '../transport.js';

export type DaemonState = Exclude<DaemonState__Output, 'DAEMON_STATE_UNSPECIFIED'>;
export type NodeDaemonState = NodeDaemonState__Output;

export function daemonStateApi(t: Transport) {
  return {
    async setNodeDaemonState(
      nodeUuid: string,
      daemon: string,
      state: DaemonState,
      message = '',
      opts?: CallOptions,
    ): Promise<NodeDaemonState> {
      const r = await t.call('SetNodeDaemonState', { nodeUuid, daemon, state, message }, opts);
      return r.daemonState as NodeDaemonState;
    },

    async getNodeDaemonState(nodeUuid: string, daemon: string, opts?: CallOptions): Promise<NodeDaemonState | undefined> {
      const r = await t.call('GetNodeDaemonState', { nodeUuid, daemon }, opts);
      return r.found && r.daemonState ? r.daemonState : undefined;
    },

    async listNodeDaemonStates(nodeUuid: string, opts?: CallOptions): Promise<NodeDaemonState[]> {
      return (await t.call('ListNodeDaemonStates', { nodeUuid }, opts)).daemonStates;
    },
  };
}

export type DaemonStateApi = ReturnType<typeof daemonStateApi>;
