// The daemon framework's metrics, in one module. A daemon process serves these beside
// the client's (see daemons/main.ts).
import { Counter, Gauge, Registry } from 'prom-client';

export const daemonRegistry = new Registry();

export const DAEMON_METRIC_NAMES = {
  periodicTasks: 'sfdb_daemon_periodic_task_interval_seconds',
  loopSteps: 'sfdb_daemon_loop_steps_total',
  loopErrors: 'sfdb_daemon_loop_errors_total',
  statePolls: 'sfdb_daemon_state_polls_total',
  jobs: 'sfdb_daemon_jobs_total',
} as const;

export const periodicTaskGauge = new Gauge({
  name: DAEMON_METRIC_NAMES.periodicTasks,
  help: 'Every periodic database call a daemon declares: its nominal interval, by daemon, task and RPC.',
  labelNames: ['daemon', 'task', 'operation', 'scale'],
  registers: [daemonRegistry],
});

export const loopSteps = new Counter({
  name: DAEMON_METRIC_NAMES.loopSteps,
  help: 'Steps of a daemon loop.',
  labelNames: ['daemon'],
  registers: [daemonRegistry],
});

export const loopErrors = new Counter({
  name: DAEMON_METRIC_NAMES.loopErrors,
  help: 'Errors a daemon loop counted and survived, by error name.',
  labelNames: ['daemon', 'error'],
  registers: [daemonRegistry],
});

export const statePolls = new Counter({
  name: DAEMON_METRIC_NAMES.statePolls,
  help: 'Daemon-state reads (the operator-stop duty), by outcome.',
  labelNames: ['daemon', 'outcome'],
  registers: [daemonRegistry],
});

export const jobs = new Counter({
  name: DAEMON_METRIC_NAMES.jobs,
  help: 'Work items handled by a queues daemon, by queue and outcome.',
  labelNames: ['daemon', 'queue', 'outcome'],
  registers: [daemonRegistry],
});
