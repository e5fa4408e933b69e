// Original file: proto/sfdb/v1/maintenance.proto

import type { Long } from '@grpc/proto-loader';

export interface RequeueExpiredClaimsResponse {
  /**
   * Claims whose lease had run out, put back in their queue with their epoch bumped.
   */
  'requeued'?: (number | string | Long);
}

export interface RequeueExpiredClaimsResponse__Output {
  /**
   * Claims whose lease had run out, put back in their queue with their epoch bumped.
   */
  'requeued': (string);
}
