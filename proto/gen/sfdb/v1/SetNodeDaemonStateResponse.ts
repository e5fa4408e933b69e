// Original file: proto/sfdb/v1/database.proto

import type { NodeDaemonState as _sfdb_v1_NodeDaemonState, NodeDaemonState__Output as _sfdb_v1_NodeDaemonState__Output } from '../../sfdb/v1/NodeDaemonState.js';

export interface SetNodeDaemonStateResponse {
  'daemonState'?: (_sfdb_v1_NodeDaemonState | null);
}

export interface SetNodeDaemonStateResponse__Output {
  'daemonState': (_sfdb_v1_NodeDaemonState__Output | null);
}
