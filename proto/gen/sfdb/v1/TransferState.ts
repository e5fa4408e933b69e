// Original file: proto/sfdb/v1/blob_transfers.proto

export const TransferState = {
  TRANSFER_STATE_UNSPECIFIED: 'TRANSFER_STATE_UNSPECIFIED',
  TRANSFER_QUEUED: 'TRANSFER_QUEUED',
  TRANSFER_RUNNING: 'TRANSFER_RUNNING',
  TRANSFER_COMPLETE: 'TRANSFER_COMPLETE',
  TRANSFER_FAILED: 'TRANSFER_FAILED',
} as const;

export type TransferState =
  | 'TRANSFER_STATE_UNSPECIFIED'
  | 0
  | 'TRANSFER_QUEUED'
  | 1
  | 'TRANSFER_RUNNING'
  | 2
  | 'TRANSFER_COMPLETE'
  | 3
  | 'TRANSFER_FAILED'
  | 4

export type TransferState__Output = typeof TransferState[keyof typeof TransferState]
