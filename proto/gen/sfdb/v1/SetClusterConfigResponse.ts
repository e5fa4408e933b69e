// Original file: proto/sfdb/v1/database.proto

import type { Long } from '@grpc/proto-loader';

export interface SetClusterConfigResponse {
  'version'?: (number | string | Long);
}

export interface SetClusterConfigResponse__Output {
  'version': (string);
}
