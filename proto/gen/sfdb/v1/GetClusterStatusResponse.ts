// Original file: proto/sfdb/v1/nodes.proto

import type { ReplicaStatus as _sfdb_v1_ReplicaStatus, ReplicaStatus__Output as _sfdb_v1_ReplicaStatus__Output } from '../../sfdb/v1/ReplicaStatus.js';
import type { NodeStatus as _sfdb_v1_NodeStatus, NodeStatus__Output as _sfdb_v1_NodeStatus__Output } from '../../sfdb/v1/NodeStatus.js';

export interface GetClusterStatusResponse {
  'databaseTime'?: (string);
  'replicas'?: (_sfdb_v1_ReplicaStatus)[];
  'nodes'?: (_sfdb_v1_NodeStatus)[];
}

export interface GetClusterStatusResponse__Output {
  'databaseTime': (string);
  'replicas': (_sfdb_v1_ReplicaStatus__Output)[];
  'nodes': (_sfdb_v1_NodeStatus__Output)[];
}
