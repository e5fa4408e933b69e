// Original file: proto/sfdb/v1/maintenance.proto

import type { Long } from '@grpc/proto-loader';

export interface SweepReplicaRegistryResponse {
  'removed'?: (number | string | Long);
  'replicaIds'?: (string)[];
}

export interface SweepReplicaRegistryResponse__Output {
  'removed': (string);
  'replicaIds': (string)[];
}
