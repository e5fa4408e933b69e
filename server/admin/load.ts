// The Load page's numbers: (operation, caller_daemon) call rates, MariaDB seconds and pool
// waits of the last minute summed over the live replicas, the costliest first, judged against the load budget for the live cluster size and churn with
// the budget's own formulas (proto/runtime/budget.ts). The churn is the cluster's change rate over
// the same window — each replica's own commits' change rows
// (database_changefeed_changes_total{via="commit"}), summed, as sf-ctl load and the
// Prometheus rules read it — above the budget's quiet change rate (churnAbove). This replica
// reads its counters directly; each live peer's come from its /metrics (the address it
// recorded in the registry). Samples are
// taken only when a Load page asks, at most every LOAD_SAMPLE_MS, and forgotten when no
// page has asked for a while: nothing runs while no page is open.
import { readFileSync, statSync } from 'node:fs';
import {
  CHANGE_COMMIT,
  CHANGE_COUNTER,
  CHANGE_LABEL,
  churnAbove,
  judgeRates,
  parseLoadBudget,
  costedPairs,
} from '@sfdb/proto/runtime/budget';
import type { JudgedRate, LoadBudget, MeasuredPair, PairCost, Shape } from '@sfdb/proto/runtime/budget';
import { systemClock } from '@sfdb/proto/runtime/clock';
import type { Clock } from '@sfdb/proto/runtime/clock';
import { METRIC_NAMES } from '../metric-catalog.js';
import type { Metrics } from '../metrics.js';
import type { PeerClient } from './peers.js';
import type { AdminReads } from './reads.js';

/** A new sample at most this often (a Load page refreshes on the same period). */
export const LOAD_SAMPLE_MS = 5_000;
/** Rates are over the last minute (or what there is of it). */
export const LOAD_WINDOW_MS = 60_000;
/** No page asked for this long: the samples are dropped. */
const FORGET_AFTER_MS = 120_000;

/** The per-pair counters a sample keeps, each by the metric it is read from. */
const PAIR_COUNTERS = { counters: METRIC_NAMES.requests, seconds: METRIC_NAMES.requestQuerySeconds, poolWait: METRIC_NAMES.requestPoolWait } as const;
type PairCounter = keyof typeof PAIR_COUNTERS;
const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)\{([^}]*)\}\s+(\S+)/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** One replica's counter of one metric by pair: `operation\0caller_daemon` → value. */
export type Counters = Map<string, number>;

function labelsOf(text: string): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const pair of text.matchAll(LABEL)) labels[pair[1] as string] = (pair[2] as string).replace(/\\(.)/g, '$1');
  return labels;
}

const pairKeyOf = (labels: Record<string, unknown>): string => `${String(labels['operation'] ?? '')}\u0000${String(labels['caller_daemon'] ?? '')}`;

/**
 * The per-pair counters (requests; MariaDB and pool wait seconds, undefined when the
 * replica does not report them), the replica's own commits' change rows (undefined: it
 * does not report the feed counter) and the process start time in a /metrics text.
 */
export function readExposition(text: string): Omit<ReplicaSample, 'at'> {
  const pairs: Partial<Record<PairCounter, Counters>> = {};
  const byName = new Map(Object.entries(PAIR_COUNTERS).map(([field, name]) => [name, field as PairCounter]));
  let changes: number | undefined;
  let start: number | undefined;
  for (const line of text.split('\n')) {
    if (line.startsWith('process_start_time_seconds ')) start = Number(line.slice('process_start_time_seconds '.length));
    // A counter declared without a sample yet is reported, at zero.
    const declared = line.startsWith('# TYPE ') ? byName.get(line.split(' ')[2] ?? '') : undefined;
    if (declared) pairs[declared] ??= new Map();
    const m = LINE.exec(line);
    if (!m) continue;
    const labels = labelsOf(m[2] ?? '');
    if (m[1] === CHANGE_COUNTER) {
      if (labels[CHANGE_LABEL] === CHANGE_COMMIT) changes = (changes ?? 0) + Number(m[3]);
      continue;
    }
    const field = byName.get(m[1] ?? '');
    if (!field) continue;
    const counters = (pairs[field] ??= new Map());
    const key = pairKeyOf(labels);
    counters.set(key, (counters.get(key) ?? 0) + Number(m[3]));
  }
  return { counters: pairs.counters ?? new Map(), seconds: pairs.seconds, poolWait: pairs.poolWait, changes, start };
}

export interface ReplicaSample {
  at: number;
  start: number | undefined;
  /** Requests by pair. */
  counters: Counters;
  /** MariaDB seconds by pair (database_request_query_seconds_total); undefined: not reported. */
  seconds?: Counters | undefined;
  /** Pool wait seconds by pair (database_request_pool_wait_seconds_total); undefined: not reported. */
  poolWait?: Counters | undefined;
  /** Change rows of its own commits (database_changefeed_changes_total{via="commit"}); undefined: not reported. */
  changes?: number | undefined;
}

export interface Sample {
  at: number;
  replicas: Map<string, ReplicaSample>;
}

/** A pair as measured over the window: calls/s and calls, MariaDB seconds/s, their share, pool wait seconds/s. */
export type MeasuredLoad = MeasuredPair & PairCost & { calls: number };

/** A measured pair with the budget's verdict. */
export type LoadRow = JudgedRate & MeasuredLoad;

export interface LoadReport {
  /** Seconds the rates cover (0: a single sample so far). */
  seconds: number;
  replicas: { id: string; address: string; error?: string }[];
  /** Live nodes, standing instances and churn (changes/s above the quiet cluster's; 0 without a budget's change-rate model). */
  shape: Shape;
  /** The cluster's change rate over the window (changes/s, summed over the replicas); undefined: not measured yet, or no replica reports it. */
  changesPerSecond: number | undefined;
  /** churnModel: the budget has a quiet change rate (changeRate), so churn is judged. */
  budget: { path: string; mode: string; churnModel: boolean; error?: string };
  rows: LoadRow[];
}

/** A counter's increase per pair and per second between two samples, summed over the replicas in both (a restart counts from zero); undefined when none reports it. */
function increases(before: Sample, after: Sample, pick: (r: ReplicaSample) => Counters | undefined): Map<string, { rate: number; calls: number }> | undefined {
  let out: Map<string, { rate: number; calls: number }> | undefined;
  for (const [id, a] of after.replicas) {
    const b = before.replicas.get(id);
    const now = pick(a);
    if (!b || !now) continue;
    const seconds = (a.at - b.at) / 1000;
    if (seconds <= 0) continue;
    const restarted = a.start !== undefined && b.start !== undefined && a.start !== b.start;
    const then = restarted ? undefined : pick(b);
    out ??= new Map();
    for (const [key, value] of now) {
      const was = then?.get(key) ?? 0;
      const delta = value >= was ? value - was : value;
      if (delta <= 0) continue;
      const r = out.get(key) ?? { rate: 0, calls: 0 };
      r.rate += delta / seconds;
      r.calls += delta;
      out.set(key, r);
    }
  }
  return out;
}

/**
 * Per pair between two samples, summed over the replicas in both (a restart counts from
 * zero): calls/s and calls, MariaDB seconds/s and pool wait seconds/s (null when no replica
 * reports them), the costliest first with each pair's share of the seconds (rankByCost).
 */
export function ratesBetween(before: Sample, after: Sample): MeasuredLoad[] {
  const calls = increases(before, after, (r) => r.counters) ?? new Map();
  const seconds = increases(before, after, (r) => r.seconds);
  const waits = increases(before, after, (r) => r.poolWait);
  return costedPairs(calls, seconds, waits);
}

/**
 * The cluster's change rate (changes/s) between two samples: each replica's own commits'
 * change rows over its own elapsed time, summed over the replicas in both (a restart counts
 * from zero); undefined when none of them reports the counter.
 */
export function changeRateBetween(before: Sample, after: Sample): number | undefined {
  let rate: number | undefined;
  for (const [id, a] of after.replicas) {
    const b = before.replicas.get(id);
    if (!b || a.changes === undefined) continue;
    const seconds = (a.at - b.at) / 1000;
    if (seconds <= 0) continue;
    const restarted = a.start !== undefined && b.start !== undefined && a.start !== b.start;
    const was = restarted ? 0 : (b.changes ?? 0);
    rate = (rate ?? 0) + (a.changes >= was ? a.changes - was : a.changes) / seconds;
  }
  return rate;
}

/**
 * A window's rows: the pairs' rates between `base` and `newest`, the cluster's change rate,
 * the churn it makes for the `quiet` shape (churnAbove: 0 while unknown or without the
 * budget's change-rate model), and every pair judged for that shape and churn.
 */
export function judgeWindow(
  budget: LoadBudget | undefined,
  base: Sample | undefined,
  newest: Sample | undefined,
  quiet: Shape,
): { rows: LoadRow[]; changesPerSecond: number | undefined; shape: Shape } {
  const window = newest && base && base !== newest ? { base, newest } : undefined;
  const measured = window ? ratesBetween(window.base, window.newest) : [];
  const changesPerSecond = window ? changeRateBetween(window.base, window.newest) : undefined;
  const shape: Shape = { nodes: quiet.nodes, instances: quiet.instances, churn: budget ? churnAbove(budget, quiet, changesPerSecond ?? 0) : 0 };
  const unjudged = { expected: null, ceiling: null, expectedSeconds: null, secondsCeiling: null, status: '-' as const, over: [] };
  // In the measured order: the costliest first.
  const rows = budget ? judgeRates(budget, measured, shape) : measured.map((m) => ({ ...m, ...unjudged }));
  return { rows, changesPerSecond, shape };
}

export class LoadSampler {
  private samples: Sample[] = [];
  private sampling: Promise<void> | undefined;
  private errors = new Map<string, string>();
  private budget: { mtimeMs: number; value: LoadBudget } | undefined;

  constructor(
    private readonly deps: {
      replicaId: string;
      metrics: Metrics;
      reads: Pick<AdminReads, 'replicas'>;
      peers: Pick<PeerClient, 'metrics'>;
      replicaLiveMs: number;
      budgetPath: string;
      /** Sample times; the peers' answer times are on the same (performance.now) base. */
      clock?: Clock;
    },
  ) {}

  private now(): number {
    return (this.deps.clock ?? systemClock).now();
  }

  /** The report a Load page shows; takes a sample first when the last is LOAD_SAMPLE_MS old. */
  async report(): Promise<LoadReport> {
    const now = this.now();
    const last = this.samples.at(-1);
    if (last && now - last.at > FORGET_AFTER_MS) this.samples = [];
    if (!this.sampling && (!last || now - last.at >= LOAD_SAMPLE_MS - 250)) {
      this.sampling = this.sample().finally(() => (this.sampling = undefined));
    }
    await this.sampling;
    const [quiet, budget] = await Promise.all([this.shape(), Promise.resolve(this.readBudget())]);
    const newest = this.samples.at(-1);
    const base = newest && this.samples.find((s) => newest.at - s.at <= LOAD_WINDOW_MS + LOAD_SAMPLE_MS / 2);
    const value = 'value' in budget ? budget.value : undefined;
    const { rows, changesPerSecond, shape } = judgeWindow(value, base, newest, quiet);
    const { replicas } = await this.deps.reads.replicas();
    return {
      seconds: newest && base ? (newest.at - base.at) / 1000 : 0,
      replicas: this.live(replicas).map((r) => ({ id: r.replica_id, address: r.metrics_address, error: this.errors.get(r.replica_id) })),
      shape,
      changesPerSecond,
      budget: {
        path: this.deps.budgetPath,
        mode: value?.derivation?.mode ?? '',
        churnModel: value?.changeRate !== undefined,
        error: 'error' in budget ? budget.error : undefined,
      },
      rows,
    };
  }

  private live<R extends { replica_id: string; age_us: string }>(rows: readonly R[]): R[] {
    return rows.filter((r) => Number(r.age_us) / 1000 < this.deps.replicaLiveMs);
  }

  private async sample(): Promise<void> {
    const { replicas } = await this.deps.reads.replicas();
    const sample: Sample = { at: this.now(), replicas: new Map() };
    const errors = new Map<string, string>();
    await Promise.all(
      this.live(replicas).map(async (r) => {
        if (r.replica_id === this.deps.replicaId) {
          const own = await this.ownCounters();
          sample.replicas.set(r.replica_id, { at: this.now(), start: undefined, ...own });
          return;
        }
        if (r.metrics_address === '') return void errors.set(r.replica_id, 'no metrics address in the registry');
        const answer = await this.deps.peers.metrics(r.metrics_address);
        if (!answer.ok) return void errors.set(r.replica_id, answer.error);
        sample.replicas.set(r.replica_id, { at: answer.value.at, ...readExposition(answer.value.text) });
      }),
    );
    this.errors = errors;
    this.samples.push(sample);
    const oldest = sample.at - LOAD_WINDOW_MS - 2 * LOAD_SAMPLE_MS;
    this.samples = this.samples.filter((s) => s.at >= oldest);
  }

  /** This replica's per-pair counters and its own commits' change rows, read directly. */
  private async ownCounters(): Promise<Omit<ReplicaSample, 'at' | 'start'>> {
    const { registry } = this.deps.metrics;
    const byPair = async (name: string): Promise<Counters | undefined> => {
      const metric = registry.getSingleMetric(name);
      if (!metric) return undefined;
      const counters: Counters = new Map();
      for (const v of (await metric.get()).values) counters.set(pairKeyOf(v.labels), (counters.get(pairKeyOf(v.labels)) ?? 0) + v.value);
      return counters;
    };
    const [counters = new Map(), seconds, poolWait] = await Promise.all([byPair(PAIR_COUNTERS.counters), byPair(PAIR_COUNTERS.seconds), byPair(PAIR_COUNTERS.poolWait)]);
    const feed = registry.getSingleMetric(CHANGE_COUNTER);
    const changes = feed ? (await feed.get()).values.filter((v) => v.labels[CHANGE_LABEL] === CHANGE_COMMIT).reduce((sum, v) => sum + v.value, 0) : undefined;
    return { counters, seconds, poolWait, changes };
  }

  /** Live nodes and standing instances from this replica's cluster-size gauges (read at most every SFDB_CLUSTER_SIZE_MS). */
  private async shape(): Promise<Shape> {
    const gauge = async (name: string, labels: Record<string, string> = {}): Promise<number> => {
      const metric = this.deps.metrics.registry.getSingleMetric(name);
      if (!metric) return 0;
      const values = (await metric.get()).values.filter((v) => Object.entries(labels).every(([k, x]) => v.labels[k] === x));
      return values.reduce((sum, v) => sum + v.value, 0);
    };
    const [nodes, instances] = await Promise.all([gauge(METRIC_NAMES.clusterNodes, { state: 'live' }), gauge(METRIC_NAMES.clusterInstances)]);
    return { nodes, instances };
  }

  /** The budget file, re-read when it changes; an unreadable one is reported, not fatal. */
  private readBudget(): { value: LoadBudget } | { error: string } {
    try {
      const mtimeMs = statSync(this.deps.budgetPath).mtimeMs;
      if (this.budget?.mtimeMs !== mtimeMs) this.budget = { mtimeMs, value: parseLoadBudget(readFileSync(this.deps.budgetPath, 'utf8')) };
      return { value: this.budget.value };
    } catch (err) {
      this.budget = undefined;
      return { error: (err as NodeJS.ErrnoException).code ?? (err as Error).message };
    }
  }
}
