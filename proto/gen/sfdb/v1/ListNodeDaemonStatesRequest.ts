// Original file: proto/sfdb/v1/daemon_state.proto


export interface ListNodeDaemonStatesRequest {
  'nodeUuid'?: (string);
}

export interface ListNodeDaemonStatesRequest__Output {
  'nodeUuid': (string);
}
