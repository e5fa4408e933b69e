// Original file: proto/sfdb/v1/cluster_config.proto

import type { Long } from '@grpc/proto-loader';

export interface GetClusterConfigResponse {
  'found'?: (boolean);
  /**
   * JSON value.
   */
  'value'?: (string);
  'version'?: (number | string | Long);
  'updatedAt'?: (string);
}

export interface GetClusterConfigResponse__Output {
  'found': (boolean);
  /**
   * JSON value.
   */
  'value': (string);
  'version': (string);
  'updatedAt': (string);
}
