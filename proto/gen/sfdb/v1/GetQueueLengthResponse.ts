// Original file: proto/sfdb/v1/queue.proto

import type { Long } from '@grpc/proto-loader';

export interface GetQueueLengthResponse {
  'queued'?: (number | string | Long);
  'claimed'?: (number | string | Long);
}

export interface GetQueueLengthResponse__Output {
  'queued': (string);
  'claimed': (string);
}
