// Original file: proto/sfdb/v1/cluster_config.proto

import type { LeaseFence as _sfdb_v1_LeaseFence, LeaseFence__Output as _sfdb_v1_LeaseFence__Output } from '../../sfdb/v1/LeaseFence.js';
import type { Long } from '@grpc/proto-loader';

export interface SetClusterConfigRequest {
  'key'?: (string);
  'value'?: (string);
  /**
   * When non-zero, written only if the current version matches (else Conflict);
   * -1 means "only if absent".
   */
  'expectedVersion'?: (number | string | Long);
  /**
   * Optional: write only while this lease is held (docs/contract.md, "Fenced writes").
   */
  'fence'?: (_sfdb_v1_LeaseFence | null);
}

export interface SetClusterConfigRequest__Output {
  'key': (string);
  'value': (string);
  /**
   * When non-zero, written only if the current version matches (else Conflict);
   * -1 means "only if absent".
   */
  'expectedVersion': (string);
  /**
   * Optional: write only while this lease is held (docs/contract.md, "Fenced writes").
   */
  'fence': (_sfdb_v1_LeaseFence__Output | null);
}
