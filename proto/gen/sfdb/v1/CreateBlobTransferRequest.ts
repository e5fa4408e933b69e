// Original file: proto/sfdb/v1/blob_transfers.proto

import type { LeaseFence as _sfdb_v1_LeaseFence, LeaseFence__Output as _sfdb_v1_LeaseFence__Output } from '../../sfdb/v1/LeaseFence.js';
import type { Long } from '@grpc/proto-loader';

export interface CreateBlobTransferRequest {
  /**
   * Chosen by the client (a uuid): creation is idempotent.
   */
  'id'?: (string);
  'blobUuid'?: (string);
  'nodeUuid'?: (string);
  'sourceNodeUuid'?: (string);
  'bytesTotal'?: (number | string | Long);
  /**
   * Optional: write only while this lease is held (docs/contract.md, "Fenced writes").
   */
  'fence'?: (_sfdb_v1_LeaseFence | null);
}

export interface CreateBlobTransferRequest__Output {
  /**
   * Chosen by the client (a uuid): creation is idempotent.
   */
  'id': (string);
  'blobUuid': (string);
  'nodeUuid': (string);
  'sourceNodeUuid': (string);
  'bytesTotal': (string);
  /**
   * Optional: write only while this lease is held (docs/contract.md, "Fenced writes").
   */
  'fence': (_sfdb_v1_LeaseFence__Output | null);
}
