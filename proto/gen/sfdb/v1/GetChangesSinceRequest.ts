// Original file: proto/sfdb/v1/changes.proto


export interface GetChangesSinceRequest {
  'cursor'?: (string);
  /**
   * 1..64 topics.
   */
  'topics'?: (string)[];
  /**
   * 1..1000 (0 means 100) changes, coalesced per (topic, id).
   */
  'limit'?: (number);
}

export interface GetChangesSinceRequest__Output {
  'cursor': (string);
  /**
   * 1..64 topics.
   */
  'topics': (string)[];
  /**
   * 1..1000 (0 means 100) changes, coalesced per (topic, id).
   */
  'limit': (number);
}
