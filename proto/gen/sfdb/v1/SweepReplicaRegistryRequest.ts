// Original file: proto/sfdb/v1/maintenance.proto

import type { LeaseFence as _sfdb_v1_LeaseFence, LeaseFence__Output as _sfdb_v1_LeaseFence__Output } from '../../sfdb/v1/LeaseFence.js';
import type { Long } from '@grpc/proto-loader';

export interface SweepReplicaRegistryRequest {
  'fence'?: (_sfdb_v1_LeaseFence | null);
  /**
   * Remove replica rows whose heartbeat is older than this (0 means the tier's setting).
   */
  'olderThanMs'?: (number | string | Long);
}

export interface SweepReplicaRegistryRequest__Output {
  'fence': (_sfdb_v1_LeaseFence__Output | null);
  /**
   * Remove replica rows whose heartbeat is older than this (0 means the tier's setting).
   */
  'olderThanMs': (string);
}
