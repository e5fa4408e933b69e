// Original file: proto/sfdb/v1/maintenance.proto

import type { Long } from '@grpc/proto-loader';

/**
 * The lease under which a maintenance job runs.
 */
export interface LeaseFence {
  'name'?: (string);
  'holder'?: (string);
  'token'?: (number | string | Long);
}

/**
 * The lease under which a maintenance job runs.
 */
export interface LeaseFence__Output {
  'name': (string);
  'holder': (string);
  'token': (string);
}
