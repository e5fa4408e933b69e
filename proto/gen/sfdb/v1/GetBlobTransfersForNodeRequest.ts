// Original file: proto/sfdb/v1/blob_transfers.proto

import type { TransferState as _sfdb_v1_TransferState, TransferState__Output as _sfdb_v1_TransferState__Output } from '../../sfdb/v1/TransferState.js';

export interface GetBlobTransfersForNodeRequest {
  'nodeUuid'?: (string);
  /**
   * Which states; empty means the active ones (queued, running).
   */
  'states'?: (_sfdb_v1_TransferState)[];
  'limit'?: (number);
}

export interface GetBlobTransfersForNodeRequest__Output {
  'nodeUuid': (string);
  /**
   * Which states; empty means the active ones (queued, running).
   */
  'states': (_sfdb_v1_TransferState__Output)[];
  'limit': (number);
}
