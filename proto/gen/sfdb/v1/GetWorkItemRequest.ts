// Original file: proto/sfdb/v1/queue.proto


/**
 * A point read: `found` false for an id that does not exist.
 */
export interface GetWorkItemRequest {
  'id'?: (string);
}

/**
 * A point read: `found` false for an id that does not exist.
 */
export interface GetWorkItemRequest__Output {
  'id': (string);
}
