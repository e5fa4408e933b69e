// Original file: proto/sfdb/v1/queue.proto

import type { Long } from '@grpc/proto-loader';

export interface ReleaseRequest {
  'id'?: (string);
  'epoch'?: (number | string | Long);
  /**
   * Back to the queue, not dequeued for this long.
   */
  'delayMs'?: (number | string | Long);
  'message'?: (string);
}

export interface ReleaseRequest__Output {
  'id': (string);
  'epoch': (string);
  /**
   * Back to the queue, not dequeued for this long.
   */
  'delayMs': (string);
  'message': (string);
}
