// Original file: proto/sfdb/v1/daemon_state.proto

import type { DaemonState as _sfdb_v1_DaemonState, DaemonState__Output as _sfdb_v1_DaemonState__Output } from '../../sfdb/v1/DaemonState.js';

export interface NodeDaemonState {
  'nodeUuid'?: (string);
  'daemon'?: (string);
  'state'?: (_sfdb_v1_DaemonState);
  'message'?: (string);
  'updatedAt'?: (string);
  /**
   * Held stopped by an operator until released (see OperatorHold).
   */
  'operatorHold'?: (boolean);
}

export interface NodeDaemonState__Output {
  'nodeUuid': (string);
  'daemon': (string);
  'state': (_sfdb_v1_DaemonState__Output);
  'message': (string);
  'updatedAt': (string);
  /**
   * Held stopped by an operator until released (see OperatorHold).
   */
  'operatorHold': (boolean);
}
