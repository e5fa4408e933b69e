// Original file: proto/sfdb/v1/queue.proto

export const WorkItemState = {
  WORK_ITEM_STATE_UNSPECIFIED: 'WORK_ITEM_STATE_UNSPECIFIED',
  QUEUED: 'QUEUED',
  CLAIMED: 'CLAIMED',
  SUCCEEDED: 'SUCCEEDED',
  FAILED: 'FAILED',
} as const;

export type WorkItemState =
  | 'WORK_ITEM_STATE_UNSPECIFIED'
  | 0
  | 'QUEUED'
  | 1
  | 'CLAIMED'
  | 2
  | 'SUCCEEDED'
  | 3
  | 'FAILED'
  | 4

export type WorkItemState__Output = typeof WorkItemState[keyof typeof WorkItemState]
