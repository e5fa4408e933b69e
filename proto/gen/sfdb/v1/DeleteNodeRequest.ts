// Original file: proto/sfdb/v1/nodes.proto


/**
 * Removes the node and what hangs off it (heartbeat, daemon states, work items, the blob
 * transfers it receives, its object state and attributes) in one transaction.
 * FAILED_PRECONDITION, nothing written, while objects are placed on the node.
 */
export interface DeleteNodeRequest {
  'uuid'?: (string);
}

/**
 * Removes the node and what hangs off it (heartbeat, daemon states, work items, the blob
 * transfers it receives, its object state and attributes) in one transaction.
 * FAILED_PRECONDITION, nothing written, while objects are placed on the node.
 */
export interface DeleteNodeRequest__Output {
  'uuid': (string);
}
