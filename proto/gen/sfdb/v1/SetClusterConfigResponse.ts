// Original file: proto/sfdb/v1/cluster_config.proto

import type { Long } from '@grpc/proto-loader';

export interface SetClusterConfigResponse {
  'version'?: (number | string | Long);
}

export interface SetClusterConfigResponse__Output {
  'version': (string);
}
