// Original file: proto/sfdb/v1/changes.proto


export interface WatchReplicasResponse {
  'version'?: (string);
  /**
   * Sorted; empty when every peer answers.
   */
  'unresponsive'?: (string)[];
}

export interface WatchReplicasResponse__Output {
  'version': (string);
  /**
   * Sorted; empty when every peer answers.
   */
  'unresponsive': (string)[];
}
