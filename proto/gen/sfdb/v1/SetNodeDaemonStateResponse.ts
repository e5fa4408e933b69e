// Original file: proto/sfdb/v1/daemon_state.proto

import type { NodeDaemonState as _sfdb_v1_NodeDaemonState, NodeDaemonState__Output as _sfdb_v1_NodeDaemonState__Output } from '../../sfdb/v1/NodeDaemonState.js';
import type { Long } from '@grpc/proto-loader';

export interface SetNodeDaemonStateResponse {
  'daemonState'?: (_sfdb_v1_NodeDaemonState | null);
  /**
   * The seq of the change this write published on the daemon's state topic (0 when it
   * published none, or from a tier that does not say). The daemon waiting on that topic
   * knows the change of that seq is its own write and need not read its state for it.
   */
  'changeSeq'?: (number | string | Long);
}

export interface SetNodeDaemonStateResponse__Output {
  'daemonState': (_sfdb_v1_NodeDaemonState__Output | null);
  /**
   * The seq of the change this write published on the daemon's state topic (0 when it
   * published none, or from a tier that does not say). The daemon waiting on that topic
   * knows the change of that seq is its own write and need not read its state for it.
   */
  'changeSeq': (string);
}
