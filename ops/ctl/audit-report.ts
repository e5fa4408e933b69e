// `sf-ctl audit`, the pure part: every declared periodic task against what the tier
// measured over the window. The tier's own tasks (database_periodic_task_interval_seconds
// {task,source,duty} on each replica) against its statements by source
// (database_queries_total{source}); the daemons' tasks
// (database_daemon_periodic_task_interval_seconds{daemon,task,operation,scale} on each
// daemon's --metrics-port) against the tier's requests by (operation, caller_daemon), with
// what each call costs the tier (database_request_duration_seconds _sum/_count).
import type { PromSample } from '../prom.js';
import { REQUESTS, windowRates } from './load-report.js';
import type { Window } from './load-report.js';
import { formatAge, formatMs, formatRate, table } from './format.js';

export const TIER_TASKS = 'database_periodic_task_interval_seconds';
export const DAEMON_TASKS = 'database_daemon_periodic_task_interval_seconds';
export const QUERIES = 'database_queries_total';
export const DURATION_SUM = 'database_request_duration_seconds_sum';
export const DURATION_COUNT = 'database_request_duration_seconds_count';

/** Long-polls: their handling time is the time a waiter was held, not work. */
export const LONG_POLL_OPERATIONS: ReadonlySet<string> = new Set(['WaitForChanges']);

export interface TierTaskRow {
  task: string;
  source: string;
  duty: string;
  intervalSeconds: number;
  /** Replicas that declare it (each runs its own). */
  replicas: number;
  /** Σ over those replicas of 1/interval. */
  declaredPerSecond: number;
  /** Every task of the same source, declared (Σ 1/interval) and measured (statements/s). */
  sourceDeclaredPerSecond: number;
  sourceMeasuredPerSecond: number;
}

export type DaemonScale = 'process' | 'elected' | 'job' | string;

export interface DaemonTaskRow {
  daemon: string;
  /** '(undeclared)': the daemon calls this RPC at a rate but declares no task for it. */
  task: string;
  operation: string;
  scale: DaemonScale;
  /** null for undeclared rows. */
  intervalSeconds: number | null;
  /** Daemon processes (endpoints) that declare it. */
  processes: number;
  /**
   * What the declarations add up to: Σ 1/interval per process; one holder for `elected`;
   * null for `job` (per running job) and undeclared rows.
   */
  declaredPerSecond: number | null;
  /** The tier's measured rate of (operation, caller_daemon = daemon), every process of that name. */
  measuredPerSecond: number;
  /** Mean tier handling time of the operation over the window (every caller); null when not called. */
  meanLatencyMs: number | null;
  /** measured × mean latency: tier time this task's RPC costs per second (ms/s); null for a long-poll (its time is held, not worked). */
  costMsPerSecond: number | null;
  /** A long-poll: meanLatencyMs is how long a waiter was held. */
  longPoll: boolean;
}

interface Declared {
  labels: Record<string, string>;
  intervalSeconds: number;
}

function declared(samples: readonly PromSample[], name: string): Declared[] {
  return samples.filter((s) => s.name === name && s.value > 0).map((s) => ({ labels: s.labels, intervalSeconds: s.value }));
}

/** The tier's own periodic tasks, over the replicas' windows. */
export function tierTaskRows(windows: readonly Window[]): TierTaskRow[] {
  const rows = new Map<string, TierTaskRow>();
  for (const w of windows) {
    for (const d of declared(w.after, TIER_TASKS)) {
      const { task = '', source = '', duty = '' } = d.labels;
      const key = `${task}\u0000${source}\u0000${duty}`;
      const row = rows.get(key) ?? { task, source, duty, intervalSeconds: d.intervalSeconds, replicas: 0, declaredPerSecond: 0, sourceDeclaredPerSecond: 0, sourceMeasuredPerSecond: 0 };
      row.replicas += 1;
      row.declaredPerSecond += 1 / d.intervalSeconds;
      row.intervalSeconds = Math.min(row.intervalSeconds, d.intervalSeconds);
      rows.set(key, row);
    }
  }
  const measured = windowRates(windows, QUERIES, ['source']);
  const declaredBySource = new Map<string, number>();
  for (const r of rows.values()) declaredBySource.set(r.source, (declaredBySource.get(r.source) ?? 0) + r.declaredPerSecond);
  return [...rows.values()]
    .map((r) => ({ ...r, sourceDeclaredPerSecond: declaredBySource.get(r.source) ?? 0, sourceMeasuredPerSecond: measured.get(r.source)?.rate ?? 0 }))
    .sort((a, b) => a.source.localeCompare(b.source) || a.task.localeCompare(b.task));
}

/** Mean handling time per operation (ms) over the windows, from the duration histogram's _sum and _count. */
export function meanLatencies(windows: readonly Window[]): Map<string, number> {
  const sums = windowRates(windows, DURATION_SUM, ['operation']);
  const counts = windowRates(windows, DURATION_COUNT, ['operation']);
  const out = new Map<string, number>();
  for (const [op, c] of counts) out.set(op, ((sums.get(op)?.calls ?? 0) / c.calls) * 1000);
  return out;
}

/**
 * The daemons' declared tasks (one scrape per daemon process) against the tier's windows;
 * then, for the daemons seen, the RPCs they call at a rate without declaring them.
 */
export function daemonTaskRows(daemonScrapes: readonly (readonly PromSample[])[], windows: readonly Window[]): DaemonTaskRow[] {
  const pairs = windowRates(windows, REQUESTS, ['operation', 'caller_daemon']);
  const latency = meanLatencies(windows);
  const rows = new Map<string, DaemonTaskRow & { perProcess: number[] }>();
  for (const samples of daemonScrapes) {
    for (const d of declared(samples, DAEMON_TASKS)) {
      const { daemon = '', task = '', operation = '', scale = '' } = d.labels;
      const key = `${daemon}\u0000${task}\u0000${operation}\u0000${scale}`;
      const row = rows.get(key) ?? {
        daemon,
        task,
        operation,
        scale,
        intervalSeconds: d.intervalSeconds,
        processes: 0,
        declaredPerSecond: null,
        measuredPerSecond: 0,
        meanLatencyMs: null,
        costMsPerSecond: null,
        longPoll: LONG_POLL_OPERATIONS.has(operation),
        perProcess: [],
      };
      row.processes += 1;
      row.perProcess.push(1 / d.intervalSeconds);
      row.intervalSeconds = Math.min(row.intervalSeconds ?? Infinity, d.intervalSeconds);
      rows.set(key, row);
    }
  }
  const out: DaemonTaskRow[] = [];
  const declaredPairs = new Set<string>();
  const daemons = new Set<string>();
  const complete = (row: Omit<DaemonTaskRow, 'measuredPerSecond' | 'meanLatencyMs' | 'costMsPerSecond'>): DaemonTaskRow => {
    const measuredPerSecond = pairs.get(`${row.operation}\u0000${row.daemon}`)?.rate ?? 0;
    const meanLatencyMs = latency.get(row.operation) ?? null;
    const costMsPerSecond = meanLatencyMs === null || row.longPoll ? null : measuredPerSecond * meanLatencyMs;
    return { ...row, measuredPerSecond, meanLatencyMs, costMsPerSecond };
  };
  for (const { perProcess, ...row } of rows.values()) {
    declaredPairs.add(`${row.operation}\u0000${row.daemon}`);
    daemons.add(row.daemon);
    const declaredPerSecond =
      row.scale === 'job' ? null : row.scale === 'elected' ? 1 / (row.intervalSeconds as number) : perProcess.reduce((a, b) => a + b, 0);
    out.push(complete({ ...row, declaredPerSecond }));
  }
  for (const key of pairs.keys()) {
    const [operation = '', daemon = ''] = key.split('\u0000');
    if (!daemons.has(daemon) || declaredPairs.has(key)) continue;
    const longPoll = LONG_POLL_OPERATIONS.has(operation);
    out.push(complete({ daemon, task: '(undeclared)', operation, scale: '-', intervalSeconds: null, processes: 0, declaredPerSecond: null, longPoll }));
  }
  return out.sort((a, b) => a.daemon.localeCompare(b.daemon) || b.measuredPerSecond - a.measuredPerSecond || a.task.localeCompare(b.task));
}

function interval(seconds: number | null): string {
  return seconds === null ? '-' : formatAge(seconds * 1000);
}

export function tierTaskTable(rows: readonly TierTaskRow[]): string {
  return table(
    ['task', 'source', 'every', 'replicas', 'declared/s', 'source declared/s', 'source measured/s', 'duty'],
    rows.map((r) => [
      r.task,
      r.source,
      interval(r.intervalSeconds),
      String(r.replicas),
      formatRate(r.declaredPerSecond),
      formatRate(r.sourceDeclaredPerSecond),
      formatRate(r.sourceMeasuredPerSecond),
      r.duty,
    ]),
    [2, 3, 4, 5, 6],
  );
}

export function daemonTaskTable(rows: readonly DaemonTaskRow[]): string {
  return table(
    ['daemon', 'task', 'operation', 'scale', 'every', 'processes', 'declared/s', 'measured/s', 'mean latency', 'tier ms/s'],
    rows.map((r) => [
      r.daemon,
      r.task,
      r.operation,
      r.scale,
      interval(r.intervalSeconds),
      String(r.processes),
      r.scale === 'job' ? 'per job' : formatRate(r.declaredPerSecond),
      formatRate(r.measuredPerSecond),
      r.longPoll && r.meanLatencyMs !== null ? `${formatMs(r.meanLatencyMs)} held` : formatMs(r.meanLatencyMs),
      r.longPoll ? 'long-poll' : formatRate(r.costMsPerSecond),
    ]),
    [4, 5, 6, 7, 8, 9],
  );
}
