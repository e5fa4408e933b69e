// Original file: proto/sfdb/v1/blob_transfers.proto

import type { TransferState as _sfdb_v1_TransferState, TransferState__Output as _sfdb_v1_TransferState__Output } from '../../sfdb/v1/TransferState.js';
import type { Long } from '@grpc/proto-loader';

export interface UpdateBlobTransferRequest {
  'id'?: (string);
  'state'?: (_sfdb_v1_TransferState);
  'bytesDone'?: (number | string | Long);
  'message'?: (string);
}

export interface UpdateBlobTransferRequest__Output {
  'id': (string);
  'state': (_sfdb_v1_TransferState__Output);
  'bytesDone': (string);
  'message': (string);
}
