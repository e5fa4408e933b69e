// Original file: proto/sfdb/v1/changes.proto


export interface WatchReplicasRequest {
  /**
   * The version of the set the caller holds: "" (the empty set) at first, then the last
   * answered. Digits only, at most 20.
   */
  'known'?: (string);
  /**
   * How long to hold (1..600000 ms; 0 means 300000).
   */
  'timeoutMs'?: (number);
}

export interface WatchReplicasRequest__Output {
  /**
   * The version of the set the caller holds: "" (the empty set) at first, then the last
   * answered. Digits only, at most 20.
   */
  'known': (string);
  /**
   * How long to hold (1..600000 ms; 0 means 300000).
   */
  'timeoutMs': (number);
}
