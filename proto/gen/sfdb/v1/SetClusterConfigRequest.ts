// Original file: proto/sfdb/v1/cluster_config.proto

import type { Long } from '@grpc/proto-loader';

export interface SetClusterConfigRequest {
  'key'?: (string);
  'value'?: (string);
  /**
   * When non-zero, written only if the current version matches (else Conflict);
   * -1 means "only if absent".
   */
  'expectedVersion'?: (number | string | Long);
}

export interface SetClusterConfigRequest__Output {
  'key': (string);
  'value': (string);
  /**
   * When non-zero, written only if the current version matches (else Conflict);
   * -1 means "only if absent".
   */
  'expectedVersion': (string);
}
