// Original file: proto/sfdb/v1/common.proto


export interface DeleteResponse {
  /**
   * False when there was nothing to delete (deletes are idempotent); nothing is written then.
   */
  'deleted'?: (boolean);
}

export interface DeleteResponse__Output {
  /**
   * False when there was nothing to delete (deletes are idempotent); nothing is written then.
   */
  'deleted': (boolean);
}
