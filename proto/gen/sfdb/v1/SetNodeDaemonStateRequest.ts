// Original file: proto/sfdb/v1/daemon_state.proto

import type { DaemonState as _sfdb_v1_DaemonState, DaemonState__Output as _sfdb_v1_DaemonState__Output } from '../../sfdb/v1/DaemonState.js';
import type { OperatorHold as _sfdb_v1_OperatorHold, OperatorHold__Output as _sfdb_v1_OperatorHold__Output } from '../../sfdb/v1/OperatorHold.js';

export interface SetNodeDaemonStateRequest {
  'nodeUuid'?: (string);
  'daemon'?: (string);
  'state'?: (_sfdb_v1_DaemonState);
  'message'?: (string);
  'operatorHold'?: (_sfdb_v1_OperatorHold);
}

export interface SetNodeDaemonStateRequest__Output {
  'nodeUuid': (string);
  'daemon': (string);
  'state': (_sfdb_v1_DaemonState__Output);
  'message': (string);
  'operatorHold': (_sfdb_v1_OperatorHold__Output);
}
