// Original file: proto/sfdb/v1/nodes.proto


export interface NodeHeartbeatRequest {
  'nodeUuid'?: (string);
  /**
   * JSON object, at most 16 KiB.
   */
  'stats'?: (string);
}

export interface NodeHeartbeatRequest__Output {
  'nodeUuid': (string);
  /**
   * JSON object, at most 16 KiB.
   */
  'stats': (string);
}
