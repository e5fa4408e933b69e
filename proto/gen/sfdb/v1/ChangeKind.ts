// Original file: proto/sfdb/v1/changes.proto

export const ChangeKind = {
  CHANGE_KIND_UNSPECIFIED: 'CHANGE_KIND_UNSPECIFIED',
  CHANGE_CREATED: 'CHANGE_CREATED',
  CHANGE_UPDATED: 'CHANGE_UPDATED',
  CHANGE_DELETED: 'CHANGE_DELETED',
  /**
   * A state moved (object state, daemon state, work item, transfer).
   */
  CHANGE_STATE: 'CHANGE_STATE',
  /**
   * A daemon recorded its own state: SetNodeDaemonState called by that daemon (its caller
   * node and daemon metadata are the state's) with no operator hold changed. News to
   * whoever watches the daemon; the daemon itself knows it, and its long-poll may ask not
   * to be woken by it (WaitForChangesRequest.quiet_reports). A client that does not know
   * this kind reads it as any change: something changed, re-read it.
   */
  CHANGE_REPORTED: 'CHANGE_REPORTED',
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
  /**
   * A daemon recorded its own state: SetNodeDaemonState called by that daemon (its caller
   * node and daemon metadata are the state's) with no operator hold changed. News to
   * whoever watches the daemon; the daemon itself knows it, and its long-poll may ask not
   * to be woken by it (WaitForChangesRequest.quiet_reports). A client that does not know
   * this kind reads it as any change: something changed, re-read it.
   */
  | 'CHANGE_REPORTED'
  | 5

export type ChangeKind__Output = typeof ChangeKind[keyof typeof ChangeKind]
