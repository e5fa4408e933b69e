// Original file: proto/sfdb/v1/database.proto


export interface WaitForChangesRequest {
  /**
   * 1..64 topics.
   */
  'topics'?: (string)[];
  /**
   * From the previous answer; empty: answer at once with the current cursor.
   */
  'cursor'?: (string);
  /**
   * How long to hold when nothing has changed: 0..30000 ms (0 means 30000).
   */
  'timeoutMs'?: (number);
}

export interface WaitForChangesRequest__Output {
  /**
   * 1..64 topics.
   */
  'topics': (string)[];
  /**
   * From the previous answer; empty: answer at once with the current cursor.
   */
  'cursor': (string);
  /**
   * How long to hold when nothing has changed: 0..30000 ms (0 means 30000).
   */
  'timeoutMs': (number);
}
