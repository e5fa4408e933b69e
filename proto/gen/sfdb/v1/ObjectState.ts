// Original file: proto/sfdb/v1/objects.proto

export const ObjectState = {
  OBJECT_STATE_UNSPECIFIED: 'OBJECT_STATE_UNSPECIFIED',
  INITIAL: 'INITIAL',
  PREFLIGHT: 'PREFLIGHT',
  CREATING: 'CREATING',
  CREATED: 'CREATED',
  DELETE_WAIT: 'DELETE_WAIT',
  DELETING: 'DELETING',
  DELETED: 'DELETED',
  ERRORED: 'ERRORED',
} as const;

export type ObjectState =
  | 'OBJECT_STATE_UNSPECIFIED'
  | 0
  | 'INITIAL'
  | 1
  | 'PREFLIGHT'
  | 2
  | 'CREATING'
  | 3
  | 'CREATED'
  | 4
  | 'DELETE_WAIT'
  | 5
  | 'DELETING'
  | 6
  | 'DELETED'
  | 7
  | 'ERRORED'
  | 8

export type ObjectState__Output = typeof ObjectState[keyof typeof ObjectState]
