// Original file: proto/sfdb/v1/events.proto

import type { Long } from '@grpc/proto-loader';

export interface PruneEventsRequest {
  /**
   * Delete events recorded longer ago than this.
   */
  'olderThanMs'?: (number | string | Long);
  /**
   * At most this many in one call (1..10000; 0 means 1000).
   */
  'limit'?: (number);
}

export interface PruneEventsRequest__Output {
  /**
   * Delete events recorded longer ago than this.
   */
  'olderThanMs': (string);
  /**
   * At most this many in one call (1..10000; 0 means 1000).
   */
  'limit': (number);
}
