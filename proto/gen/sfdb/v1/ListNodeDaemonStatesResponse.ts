// Original file: proto/sfdb/v1/daemon_state.proto

import type { NodeDaemonState as _sfdb_v1_NodeDaemonState, NodeDaemonState__Output as _sfdb_v1_NodeDaemonState__Output } from '../../sfdb/v1/NodeDaemonState.js';

export interface ListNodeDaemonStatesResponse {
  'daemonStates'?: (_sfdb_v1_NodeDaemonState)[];
}

export interface ListNodeDaemonStatesResponse__Output {
  'daemonStates': (_sfdb_v1_NodeDaemonState__Output)[];
}
