// Original file: proto/sfdb/v1/nodes.proto

import type { Long } from '@grpc/proto-loader';

export interface ReplicaStatus {
  'replicaId'?: (string);
  'address'?: (string);
  'startedAt'?: (string);
  'heartbeatAgeMs'?: (number | string | Long);
  'live'?: (boolean);
  /**
   * host:port of the replica's HTTP endpoint (/metrics, /healthz, /readyz).
   */
  'metricsAddress'?: (string);
}

export interface ReplicaStatus__Output {
  'replicaId': (string);
  'address': (string);
  'startedAt': (string);
  'heartbeatAgeMs': (string);
  'live': (boolean);
  /**
   * host:port of the replica's HTTP endpoint (/metrics, /healthz, /readyz).
   */
  'metricsAddress': (string);
}
