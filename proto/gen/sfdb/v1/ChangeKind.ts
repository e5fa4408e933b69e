// Original file: proto/sfdb/v1/database.proto

export const ChangeKind = {
  CHANGE_KIND_UNSPECIFIED: 'CHANGE_KIND_UNSPECIFIED',
  CHANGE_CREATED: 'CHANGE_CREATED',
  CHANGE_UPDATED: 'CHANGE_UPDATED',
  CHANGE_DELETED: 'CHANGE_DELETED',
  /**
   * A state moved (object state, daemon state, work item, transfer).
   */
  CHANGE_STATE: 'CHANGE_STATE',
} as const;

export type ChangeKind =
  | 'CHANGE_KIND_UNSPECIFIED'
  | 0
  | 'CHANGE_CREATED'
  | 1
  | 'CHANGE_UPDATED'
  | 2
  | 'CHANGE_DELETED'
  | 3
  /**
   * A state moved (object state, daemon state, work item, transfer).
   */
  | 'CHANGE_STATE'
  | 4

export type ChangeKind__Output = typeof ChangeKind[keyof typeof ChangeKind]
