// Original file: proto/sfdb/v1/common.proto

import type { Long } from '@grpc/proto-loader';

/**
 * A lease presented with a write: the write happens only while `holder` holds the live
 * lease `name` at `token`, checked inside the write's transaction with the lease row held
 * shared until commit; otherwise FAILED_PRECONDITION and nothing is written. Maintenance
 * jobs require one; the application writes listed in docs/contract.md ("Fenced writes")
 * take one optionally.
 */
export interface LeaseFence {
  'name'?: (string);
  'holder'?: (string);
  'token'?: (number | string | Long);
}

/**
 * A lease presented with a write: the write happens only while `holder` holds the live
 * lease `name` at `token`, checked inside the write's transaction with the lease row held
 * shared until commit; otherwise FAILED_PRECONDITION and nothing is written. Maintenance
 * jobs require one; the application writes listed in docs/contract.md ("Fenced writes")
 * take one optionally.
 */
export interface LeaseFence__Output {
  'name': (string);
  'holder': (string);
  'token': (string);
}
