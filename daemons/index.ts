// The daemon framework and the reference daemons.
export { Daemon } from './daemon.js';
export type { StopReason } from './hooks.js';
export type { DaemonDb, DaemonOptions, DaemonState, WorkChanges } from './types.js';
export type { DaemonHooks, IdleContext } from './hooks.js';
export { HELD_MESSAGE, startCommand } from './operator-hold.js';
export { QueuesDaemon } from './queues.js';
export type { JobContext, JobHandler, QueuesDb, QueuesDaemonOptions } from './queues.js';
export { ClusterDaemon, MAINTENANCE_LEASE } from './cluster.js';
export type { ClusterDb } from './cluster.js';
export { AgentDaemon, nodeStats } from './agent.js';
export type { AgentDb, NodeStats } from './agent.js';
export { DequeueBackoff, WorkerPool, outcomeOf } from './dequeue.js';
export type { BatchOutcome } from './dequeue.js';
export { periodicTasks, listPeriodicTasks } from './periodic.js';
export type { PeriodicTask, PeriodicTaskRegistry, TaskScale } from './periodic.js';
export { daemonSettings, DaemonSettingsError, DEFAULT_DAEMON_SETTINGS, LOG_LEVELS } from './settings.js';
export type { DaemonSettings, LogLevel } from './settings.js';
export { daemonRegistry } from './metrics.js';
