// Original file: proto/sfdb/v1/database.proto


export interface ListNodeDaemonStatesRequest {
  'nodeUuid'?: (string);
}

export interface ListNodeDaemonStatesRequest__Output {
  'nodeUuid': (string);
}
