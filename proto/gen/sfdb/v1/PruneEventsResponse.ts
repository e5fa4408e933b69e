// Original file: proto/sfdb/v1/events.proto

import type { Long } from '@grpc/proto-loader';

export interface PruneEventsResponse {
  'deleted'?: (number | string | Long);
}

export interface PruneEventsResponse__Output {
  'deleted': (string);
}
