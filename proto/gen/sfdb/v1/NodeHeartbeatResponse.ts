// Original file: proto/sfdb/v1/nodes.proto


export interface NodeHeartbeatResponse {
  'databaseTime'?: (string);
}

export interface NodeHeartbeatResponse__Output {
  'databaseTime': (string);
}
