// Original file: proto/sfdb/v1/leases.proto

import type { Long } from '@grpc/proto-loader';

export interface RenewLeaseRequest {
  'name'?: (string);
  'holder'?: (string);
  'token'?: (number | string | Long);
  'ttlMs'?: (number | string | Long);
}

export interface RenewLeaseRequest__Output {
  'name': (string);
  'holder': (string);
  'token': (string);
  'ttlMs': (string);
}
