// Original file: proto/sfdb/v1/leases.proto

import type { Long } from '@grpc/proto-loader';

export interface ReleaseLeaseRequest {
  'name'?: (string);
  'holder'?: (string);
  'token'?: (number | string | Long);
}

export interface ReleaseLeaseRequest__Output {
  'name': (string);
  'holder': (string);
  'token': (string);
}
