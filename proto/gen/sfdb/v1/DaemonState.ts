// Original file: proto/sfdb/v1/daemon_state.proto

export const DaemonState = {
  DAEMON_STATE_UNSPECIFIED: 'DAEMON_STATE_UNSPECIFIED',
  STARTING: 'STARTING',
  RUNNING: 'RUNNING',
  IDLE: 'IDLE',
  STOPPING: 'STOPPING',
  STOPPED: 'STOPPED',
  ERROR: 'ERROR',
} as const;

export type DaemonState =
  | 'DAEMON_STATE_UNSPECIFIED'
  | 0
  | 'STARTING'
  | 1
  | 'RUNNING'
  | 2
  | 'IDLE'
  | 3
  | 'STOPPING'
  | 4
  | 'STOPPED'
  | 5
  | 'ERROR'
  | 6

export type DaemonState__Output = typeof DaemonState[keyof typeof DaemonState]
