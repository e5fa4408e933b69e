// Original file: proto/sfdb/v1/nodes.proto

import type { Long } from '@grpc/proto-loader';

export interface Node {
  'uuid'?: (string);
  'fqdn'?: (string);
  'ipAddress'?: (string);
  /**
   * Incremented on every update.
   */
  'version'?: (number | string | Long);
  'createdAt'?: (string);
  'updatedAt'?: (string);
}

export interface Node__Output {
  'uuid': (string);
  'fqdn': (string);
  'ipAddress': (string);
  /**
   * Incremented on every update.
   */
  'version': (string);
  'createdAt': (string);
  'updatedAt': (string);
}
