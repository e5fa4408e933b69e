// Original file: proto/sfdb/v1/queue.proto

import type { Long } from '@grpc/proto-loader';

export interface EnqueueRequest {
  /**
   * Chosen by the client (a uuid): enqueue is idempotent.
   */
  'id'?: (string);
  'nodeUuid'?: (string);
  'queue'?: (string);
  'payload'?: (string);
  /**
   * Not dequeued before this many milliseconds have passed (database time).
   */
  'delayMs'?: (number | string | Long);
}

export interface EnqueueRequest__Output {
  /**
   * Chosen by the client (a uuid): enqueue is idempotent.
   */
  'id': (string);
  'nodeUuid': (string);
  'queue': (string);
  'payload': (string);
  /**
   * Not dequeued before this many milliseconds have passed (database time).
   */
  'delayMs': (string);
}
