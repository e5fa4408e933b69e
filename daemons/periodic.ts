// Every periodic database call of a daemon is declared here, with its interval and the
// duty it serves, so load tools can compare what is declared against what the tier
// measures (database_requests_total{operation,caller_daemon}).
import { MAX_WAIT_MS } from '@sfdb/proto/topics';
import { periodicTaskGauge } from './metrics.js';
import type { DaemonSettings } from './settings.js';

/** What a task's rate multiplies with. */
export type TaskScale =
  /** once per daemon process */
  | 'process'
  /** once per cluster: only the elected holder of a lease runs it */
  | 'elected'
  /** once per running job (claim renewals) */
  | 'job';

export interface PeriodicTask {
  /** The daemon's name (its caller_daemon label). */
  daemon: string;
  task: string;
  /** The RPC it calls (the operation label). */
  operation: string;
  /** Nominal interval: the steadiest rate the task settles to (an adaptive task: its slowest step). */
  intervalMs: number;
  /** Fastest rate, for adaptive tasks (e.g. dequeue backoff starts at 200 ms); defaults to intervalMs. */
  minIntervalMs?: number;
  scale: TaskScale;
  duty: string;
}

export class PeriodicTaskRegistry {
  private readonly tasks = new Map<string, PeriodicTask>();

  /** Declares (or re-declares) a task; keyed by daemon and task name. */
  declare(task: PeriodicTask): void {
    this.tasks.set(`${task.daemon}\u0000${task.task}`, Object.freeze({ ...task }));
    periodicTaskGauge.set({ daemon: task.daemon, task: task.task, operation: task.operation, scale: task.scale }, task.intervalMs / 1000);
  }

  list(): PeriodicTask[] {
    return [...this.tasks.values()].sort((a, b) => `${a.daemon}/${a.task}`.localeCompare(`${b.daemon}/${b.task}`));
  }
}

/** The process-wide registry. */
export const periodicTasks = new PeriodicTaskRegistry();

/** Every periodic database call declared in this process. */
export function listPeriodicTasks(): PeriodicTask[] {
  return periodicTasks.list();
}

/** The framework's own periodic calls of a daemon: its state poll, and in feed mode its long-poll. */
export function declareFrameworkTasks(daemon: string, settings: DaemonSettings, feed: boolean): void {
  if (feed) {
    periodicTasks.declare({
      daemon,
      task: 'change-feed-wait',
      operation: 'WaitForChanges',
      intervalMs: MAX_WAIT_MS,
      scale: 'process',
      duty: "hear an operator stop (or, held, an operator start) of this daemon and its work's changes (one long-poll per process, re-asked when it answers)",
    });
  }
  periodicTasks.declare({
    daemon,
    task: 'daemon-state-poll',
    operation: 'GetNodeDaemonState',
    intervalMs: settings.daemonStatePollMs,
    scale: 'process',
    duty: feed
      ? 'notice an operator stop of this daemon, or while held an operator start (fallback: only while the change feed is unavailable)'
      : 'notice an operator stop of this daemon, or while held an operator start',
  });
}
