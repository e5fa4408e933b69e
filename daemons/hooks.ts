// Hooks into a daemon's loop (DaemonOptions.hooks), for whoever runs daemons with more
// around them: the cluster benchmark's simulator wraps the idle (its naive mode reads the
// node on every tick) and reports the moment an operator stop is noticed; sf-daemon says on
// its stdout when it is held stopped by an operator, and when that hold is released.

/** Why a daemon stops: an operator's stop (its state set STOPPING), a signal, or a stop() call. */
export type StopReason = 'operator' | 'signal' | 'requested';

/** What a wrapper of the idle is handed of its daemon. */
export interface IdleContext {
  readonly stopping: boolean;
  countError(err: unknown): void;
}

/** None by default. */
export interface DaemonHooks {
  /** Wraps the idle; `frameworkIdle` is the framework's own (feed or polling). */
  idle?(ms: number, frameworkIdle: (ms: number) => Promise<void>, daemon: IdleContext): Promise<void>;
  /** Told of every stop request as it is made, before the loop ends. */
  stopRequested?(reason: StopReason, alreadyStopping: boolean): void;
  /** Told when the daemon starts waiting, held stopped by an operator (true), and when released (false). */
  operatorHold?(held: boolean): void;
}
