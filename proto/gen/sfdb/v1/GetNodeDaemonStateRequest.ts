// Original file: proto/sfdb/v1/daemon_state.proto


export interface GetNodeDaemonStateRequest {
  'nodeUuid'?: (string);
  'daemon'?: (string);
}

export interface GetNodeDaemonStateRequest__Output {
  'nodeUuid': (string);
  'daemon': (string);
}
