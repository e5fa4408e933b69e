// Original file: proto/sfdb/v1/blob_transfers.proto

import type { TransferState as _sfdb_v1_TransferState, TransferState__Output as _sfdb_v1_TransferState__Output } from '../../sfdb/v1/TransferState.js';
import type { Long } from '@grpc/proto-loader';

export interface BlobTransfer {
  'id'?: (string);
  'blobUuid'?: (string);
  /**
   * The node that receives the blob.
   */
  'nodeUuid'?: (string);
  /**
   * Where it comes from: a node uuid, or empty for an external source.
   */
  'sourceNodeUuid'?: (string);
  'state'?: (_sfdb_v1_TransferState);
  'bytesDone'?: (number | string | Long);
  'bytesTotal'?: (number | string | Long);
  'message'?: (string);
  'createdAt'?: (string);
  'updatedAt'?: (string);
}

export interface BlobTransfer__Output {
  'id': (string);
  'blobUuid': (string);
  /**
   * The node that receives the blob.
   */
  'nodeUuid': (string);
  /**
   * Where it comes from: a node uuid, or empty for an external source.
   */
  'sourceNodeUuid': (string);
  'state': (_sfdb_v1_TransferState__Output);
  'bytesDone': (string);
  'bytesTotal': (string);
  'message': (string);
  'createdAt': (string);
  'updatedAt': (string);
}
