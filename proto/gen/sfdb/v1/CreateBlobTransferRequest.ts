// Original file: proto/sfdb/v1/blob_transfers.proto

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
}
