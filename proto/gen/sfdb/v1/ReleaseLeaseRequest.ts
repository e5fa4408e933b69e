// Original file: proto/sfdb/v1/database.proto

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
