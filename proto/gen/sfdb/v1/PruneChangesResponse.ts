// Original file: proto/sfdb/v1/database.proto

import type { Long } from '@grpc/proto-loader';

export interface PruneChangesResponse {
  'deleted'?: (number | string | Long);
  /**
   * Rows past the retention remain: call again.
   */
  'more'?: (boolean);
}

export interface PruneChangesResponse__Output {
  'deleted': (string);
  /**
   * Rows past the retention remain: call again.
   */
  'more': (boolean);
}
