// Original file: proto/sfdb/v1/blob_transfers.proto

import type { TransferState as _sfdb_v1_TransferState, TransferState__Output as _sfdb_v1_TransferState__Output } from '../../sfdb/v1/TransferState.js';
import type { LeaseFence as _sfdb_v1_LeaseFence, LeaseFence__Output as _sfdb_v1_LeaseFence__Output } from '../../sfdb/v1/LeaseFence.js';
import type { Long } from '@grpc/proto-loader';

export interface UpdateBlobTransferRequest {
  'id'?: (string);
  'state'?: (_sfdb_v1_TransferState);
  'bytesDone'?: (number | string | Long);
  'message'?: (string);
  /**
   * Optional: write only while this lease is held (docs/contract.md, "Fenced writes").
   */
  'fence'?: (_sfdb_v1_LeaseFence | null);
}

export interface UpdateBlobTransferRequest__Output {
  'id': (string);
  'state': (_sfdb_v1_TransferState__Output);
  'bytesDone': (string);
  'message': (string);
  /**
   * Optional: write only while this lease is held (docs/contract.md, "Fenced writes").
   */
  'fence': (_sfdb_v1_LeaseFence__Output | null);
}
