// Original file: proto/sfdb/v1/blob_transfers.proto

import type { BlobTransfer as _sfdb_v1_BlobTransfer, BlobTransfer__Output as _sfdb_v1_BlobTransfer__Output } from '../../sfdb/v1/BlobTransfer.js';

export interface CreateBlobTransferResponse {
  'transfer'?: (_sfdb_v1_BlobTransfer | null);
  'created'?: (boolean);
}

export interface CreateBlobTransferResponse__Output {
  'transfer': (_sfdb_v1_BlobTransfer__Output | null);
  'created': (boolean);
}
