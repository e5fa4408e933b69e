// Original file: proto/sfdb/v1/leases.proto

import type { Long } from '@grpc/proto-loader';

export interface AcquireLeaseRequest {
  'name'?: (string);
  'holder'?: (string);
  'ttlMs'?: (number | string | Long);
}

export interface AcquireLeaseRequest__Output {
  'name': (string);
  'holder': (string);
  'ttlMs': (string);
}
