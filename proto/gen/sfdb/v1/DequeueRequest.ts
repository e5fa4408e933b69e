// Original file: proto/sfdb/v1/queue.proto

import type { Long } from '@grpc/proto-loader';

export interface DequeueRequest {
  'nodeUuid'?: (string);
  /**
   * Queue names in priority order: earlier queues are drained first.
   */
  'queues'?: (string)[];
  'limit'?: (number);
  /**
   * Claim lease; 0 means the server's default.
   */
  'leaseMs'?: (number | string | Long);
  /**
   * Who claims (for operators): daemon and process.
   */
  'holder'?: (string);
}

export interface DequeueRequest__Output {
  'nodeUuid': (string);
  /**
   * Queue names in priority order: earlier queues are drained first.
   */
  'queues': (string)[];
  'limit': (number);
  /**
   * Claim lease; 0 means the server's default.
   */
  'leaseMs': (string);
  /**
   * Who claims (for operators): daemon and process.
   */
  'holder': (string);
}
