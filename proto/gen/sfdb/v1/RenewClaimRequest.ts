// Original file: proto/sfdb/v1/queue.proto

import type { Long } from '@grpc/proto-loader';

export interface RenewClaimRequest {
  'id'?: (string);
  'epoch'?: (number | string | Long);
  'leaseMs'?: (number | string | Long);
}

export interface RenewClaimRequest__Output {
  'id': (string);
  'epoch': (string);
  'leaseMs': (string);
}
