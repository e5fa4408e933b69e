// Original file: proto/sfdb/v1/nodes.proto

import type { Long } from '@grpc/proto-loader';

export interface UpdateNodeRequest {
  'uuid'?: (string);
  'fqdn'?: (string);
  'ipAddress'?: (string);
  /**
   * Which of fqdn, ip_address to write; at least one.
   */
  'updateMask'?: (string)[];
  /**
   * When non-zero, the update happens only if the node is at this version (else Conflict).
   */
  'expectedVersion'?: (number | string | Long);
}

export interface UpdateNodeRequest__Output {
  'uuid': (string);
  'fqdn': (string);
  'ipAddress': (string);
  /**
   * Which of fqdn, ip_address to write; at least one.
   */
  'updateMask': (string)[];
  /**
   * When non-zero, the update happens only if the node is at this version (else Conflict).
   */
  'expectedVersion': (string);
}
