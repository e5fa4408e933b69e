// Original file: proto/sfdb/v1/nodes.proto

import type { Long } from '@grpc/proto-loader';

export interface NodeStatus {
  'nodeUuid'?: (string);
  'fqdn'?: (string);
  'heartbeatAgeMs'?: (number | string | Long);
  'live'?: (boolean);
  'stats'?: (string);
}

export interface NodeStatus__Output {
  'nodeUuid': (string);
  'fqdn': (string);
  'heartbeatAgeMs': (string);
  'live': (boolean);
  'stats': (string);
}
