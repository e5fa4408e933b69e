// Original file: proto/sfdb/v1/changes.proto

import type { ChangeKind as _sfdb_v1_ChangeKind, ChangeKind__Output as _sfdb_v1_ChangeKind__Output } from '../../sfdb/v1/ChangeKind.js';
import type { Long } from '@grpc/proto-loader';

export interface Change {
  /**
   * Commit order is not sequence order: a smaller seq may arrive after a larger one.
   */
  'seq'?: (number | string | Long);
  'topic'?: (string);
  /**
   * What changed: an object type's column name ("instance", "node", ...) or one of
   * "daemon_state", "work_item", "blob_transfer", "ipam_reservation", "reference",
   * "cluster_config".
   */
  'objectType'?: (string);
  /**
   * Its id: a uuid, or for a daemon state the daemon name, for a reservation the IPAM
   * uuid, for a reference the target uuid, for cluster config the key.
   */
  'id'?: (string);
  'kind'?: (_sfdb_v1_ChangeKind);
}

export interface Change__Output {
  /**
   * Commit order is not sequence order: a smaller seq may arrive after a larger one.
   */
  'seq': (string);
  'topic': (string);
  /**
   * What changed: an object type's column name ("instance", "node", ...) or one of
   * "daemon_state", "work_item", "blob_transfer", "ipam_reservation", "reference",
   * "cluster_config".
   */
  'objectType': (string);
  /**
   * Its id: a uuid, or for a daemon state the daemon name, for a reservation the IPAM
   * uuid, for a reference the target uuid, for cluster config the key.
   */
  'id': (string);
  'kind': (_sfdb_v1_ChangeKind__Output);
}
