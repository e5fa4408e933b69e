// The daemon framework's metrics, declared in one catalogue (DAEMON_METRICS) and made from
// it (the scheme: proto/runtime/metrics.ts). A daemon process serves these beside the client's
// (see daemons/main.ts).
import { Registry } from 'prom-client';
import { makeCounter, makeGauge } from '@sfdb/proto/runtime/metrics';

export const daemonRegistry = new Registry();

export const DAEMON_METRICS = {
  periodicTasks: {
    name: 'database_daemon_periodic_task_interval_seconds',
    kind: 'gauge',
    help: 'Every periodic database call a daemon declares: its nominal interval, by daemon, task and RPC.',
    labels: ['daemon', 'task', 'operation', 'scale'],
  },
  loopSteps: { name: 'database_daemon_loop_steps_total', kind: 'counter', help: 'Steps of a daemon loop.', labels: ['daemon'] },
  loopErrors: {
    name: 'database_daemon_loop_errors_total',
    kind: 'counter',
    help: 'Errors a daemon loop counted and survived, by error name.',
    labels: ['daemon', 'error'],
  },
  statePolls: {
    name: 'database_daemon_state_polls_total',
    kind: 'counter',
    help: 'Daemon-state reads (the operator-stop duty), by outcome.',
    labels: ['daemon', 'outcome'],
  },
  stateRetries: {
    name: 'database_daemon_state_retries_total',
    kind: 'counter',
    help: 'A daemon\'s own-state calls sent again: a read or a report not answered in 250 ms and hedged, or one that failed and was retried with backoff (call: read or report; kind: hedge or retry).',
    labels: ['daemon', 'call', 'kind'],
  },
  operatorHold: {
    name: 'database_daemon_operator_hold',
    kind: 'gauge',
    help: 'A daemon whose process waits, held stopped by an operator, until sf-ctl start-daemon (1), or not (0).',
    labels: ['daemon'],
  },
  jobs: {
    name: 'database_daemon_jobs_total',
    kind: 'counter',
    help: 'Work items handled by a queues daemon, by queue and outcome.',
    labels: ['daemon', 'queue', 'outcome'],
  },
} as const;

export const periodicTaskGauge = makeGauge(DAEMON_METRICS.periodicTasks, daemonRegistry);
export const loopSteps = makeCounter(DAEMON_METRICS.loopSteps, daemonRegistry);
export const loopErrors = makeCounter(DAEMON_METRICS.loopErrors, daemonRegistry);
export const statePolls = makeCounter(DAEMON_METRICS.statePolls, daemonRegistry);
export const stateRetries = makeCounter(DAEMON_METRICS.stateRetries, daemonRegistry);
export const operatorHold = makeGauge(DAEMON_METRICS.operatorHold, daemonRegistry);
export const jobs = makeCounter(DAEMON_METRICS.jobs, daemonRegistry);
