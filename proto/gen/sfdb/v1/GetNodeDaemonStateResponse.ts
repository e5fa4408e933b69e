// Original file: proto/sfdb/v1/daemon_state.proto

import type { NodeDaemonState as _sfdb_v1_NodeDaemonState, NodeDaemonState__Output as _sfdb_v1_NodeDaemonState__Output } from '../../sfdb/v1/NodeDaemonState.js';

export interface GetNodeDaemonStateResponse {
  'found'?: (boolean);
  'daemonState'?: (_sfdb_v1_NodeDaemonState | null);
}

export interface GetNodeDaemonStateResponse__Output {
  'found': (boolean);
  'daemonState': (_sfdb_v1_NodeDaemonState__Output | null);
}
