// Original file: proto/sfdb/v1/daemon_state.proto

/**
 * An operator stop that outlives the daemon's process. `sf-ctl stop-daemon` sets the hold
 * with STOPPING; the daemon's own writes leave it as it is; `sf-ctl start-daemon` releases
 * it. While a daemon is held, a write of RUNNING or IDLE that does not release the hold is
 * FAILED_PRECONDITION and writes nothing: a daemon restarted by its supervisor learns at
 * its start that it is held, and stays stopped until an operator starts it. With mTLS,
 * only an operator's certificate (sfdb://operator/<name>) may set or release a hold: any
 * other is PERMISSION_DENIED, nothing written (docs/deploying.md, mTLS).
 */
export const OperatorHold = {
  /**
   * Leave the hold as it is: every write but an operator's stop or start.
   */
  OPERATOR_HOLD_UNSPECIFIED: 'OPERATOR_HOLD_UNSPECIFIED',
  /**
   * Hold the daemon stopped (state STOPPING or STOPPED only).
   */
  OPERATOR_HOLD_SET: 'OPERATOR_HOLD_SET',
  /**
   * Release it: the daemon may run again.
   */
  OPERATOR_HOLD_RELEASE: 'OPERATOR_HOLD_RELEASE',
} as const;

/**
 * An operator stop that outlives the daemon's process. `sf-ctl stop-daemon` sets the hold
 * with STOPPING; the daemon's own writes leave it as it is; `sf-ctl start-daemon` releases
 * it. While a daemon is held, a write of RUNNING or IDLE that does not release the hold is
 * FAILED_PRECONDITION and writes nothing: a daemon restarted by its supervisor learns at
 * its start that it is held, and stays stopped until an operator starts it. With mTLS,
 * only an operator's certificate (sfdb://operator/<name>) may set or release a hold: any
 * other is PERMISSION_DENIED, nothing written (docs/deploying.md, mTLS).
 */
export type OperatorHold =
  /**
   * Leave the hold as it is: every write but an operator's stop or start.
   */
  | 'OPERATOR_HOLD_UNSPECIFIED'
  | 0
  /**
   * Hold the daemon stopped (state STOPPING or STOPPED only).
   */
  | 'OPERATOR_HOLD_SET'
  | 1
  /**
   * Release it: the daemon may run again.
   */
  | 'OPERATOR_HOLD_RELEASE'
  | 2

/**
 * An operator stop that outlives the daemon's process. `sf-ctl stop-daemon` sets the hold
 * with STOPPING; the daemon's own writes leave it as it is; `sf-ctl start-daemon` releases
 * it. While a daemon is held, a write of RUNNING or IDLE that does not release the hold is
 * FAILED_PRECONDITION and writes nothing: a daemon restarted by its supervisor learns at
 * its start that it is held, and stays stopped until an operator starts it. With mTLS,
 * only an operator's certificate (sfdb://operator/<name>) may set or release a hold: any
 * other is PERMISSION_DENIED, nothing written (docs/deploying.md, mTLS).
 */
export type OperatorHold__Output = typeof OperatorHold[keyof typeof OperatorHold]
