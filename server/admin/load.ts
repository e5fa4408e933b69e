// The Load page's numbers: (operation, caller_daemon) rates of the last minute summed over
// the live replicas, judged against the load budget for the live cluster size with the
// budget's own formulas (proto/budget.ts). This replica reads its counters directly; each
// live peer's come from its /metrics (the address it recorded in the registry). Samples are
// taken only when a Load page asks, at most every LOAD_SAMPLE_MS, and forgotten when no
// page has asked for a while: nothing runs while no page is open.
import { readFileSync, statSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { judgeRates, parseLoadBudget } from '../../proto/budget.js';
import type { JudgedRate, LoadBudget, Shape } from '../../proto/budget.js';
import { METRIC_NAMES } from '../metrics.js';
import type { Metrics } from '../metrics.js';
import type { PeerClient } from './peers.js';
import type { AdminReads } from './reads.js';

/** A new sample at most this often (a Load page refreshes on the same period). */
export const LOAD_SAMPLE_MS = 5_000;
/** Rates are over the last minute (or what there is of it). */
export const LOAD_WINDOW_MS = 60_000;
/** No page asked for this long: the samples are dropped. */
const FORGET_AFTER_MS = 120_000;

const REQUESTS = METRIC_NAMES.requests;
const LINE = new RegExp(`^${REQUESTS}\\{([^}]*)\\}\\s+(\\S+)`);
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** One replica's request counters: `operation\0caller_daemon` → count. */
export type Counters = Map<string, number>;

/** The request counters and process start time in a /metrics text. */
export function readExposition(text: string): { counters: Counters; start: number | undefined } {
  const counters: Counters = new Map();
  let start: number | undefined;
  for (const line of text.split('\n')) {
    if (line.startsWith('process_start_time_seconds ')) start = Number(line.slice('process_start_time_seconds '.length));
    const m = LINE.exec(line);
    if (!m) continue;
    const labels: Record<string, string> = {};
    for (const pair of (m[1] ?? '').matchAll(LABEL)) labels[pair[1] as string] = (pair[2] as string).replace(/\\(.)/g, '$1');
    const key = `${labels['operation'] ?? ''}\u0000${labels['caller_daemon'] ?? ''}`;
    counters.set(key, (counters.get(key) ?? 0) + Number(m[2]));
  }
  return { counters, start };
}

interface ReplicaSample {
  at: number;
  start: number | undefined;
  counters: Counters;
}

interface Sample {
  at: number;
  replicas: Map<string, ReplicaSample>;
}

export interface LoadRow extends JudgedRate {
  calls: number;
}

export interface LoadReport {
  /** Seconds the rates cover (0: a single sample so far). */
  seconds: number;
  replicas: { id: string; address: string; error?: string }[];
  shape: Shape;
  budget: { path: string; mode: string; error?: string };
  rows: LoadRow[];
}

/** Rates per pair between two samples, summed over the replicas in both (a restart counts from zero). */
export function ratesBetween(before: Sample, after: Sample): { operation: string; caller_daemon: string; rate: number; calls: number }[] {
  const rates = new Map<string, { rate: number; calls: number }>();
  for (const [id, a] of after.replicas) {
    const b = before.replicas.get(id);
    if (!b) continue;
    const seconds = (a.at - b.at) / 1000;
    if (seconds <= 0) continue;
    const restarted = a.start !== undefined && b.start !== undefined && a.start !== b.start;
    for (const [key, value] of a.counters) {
      const was = restarted ? 0 : (b.counters.get(key) ?? 0);
      const calls = value >= was ? value - was : value;
      if (calls <= 0) continue;
      const r = rates.get(key) ?? { rate: 0, calls: 0 };
      r.rate += calls / seconds;
      r.calls += calls;
      rates.set(key, r);
    }
  }
  return [...rates].map(([key, r]) => {
    const [operation = '', caller_daemon = ''] = key.split('\u0000');
    return { operation, caller_daemon, ...r };
  });
}

export class LoadSampler {
  private samples: Sample[] = [];
  private sampling: Promise<void> | undefined;
  private errors = new Map<string, string>();
  private budget: { mtimeMs: number; value: LoadBudget } | undefined;

  constructor(
    private readonly deps: { replicaId: string; metrics: Metrics; reads: AdminReads; peers: PeerClient; replicaLiveMs: number; budgetPath: string },
  ) {}

  /** The report a Load page shows; takes a sample first when the last is LOAD_SAMPLE_MS old. */
  async report(): Promise<LoadReport> {
    const now = performance.now();
    const last = this.samples.at(-1);
    if (last && now - last.at > FORGET_AFTER_MS) this.samples = [];
    if (!this.sampling && (!last || now - last.at >= LOAD_SAMPLE_MS - 250)) {
      this.sampling = this.sample().finally(() => (this.sampling = undefined));
    }
    await this.sampling;
    const [shape, budget] = await Promise.all([this.shape(), Promise.resolve(this.readBudget())]);
    const newest = this.samples.at(-1);
    const base = newest && this.samples.find((s) => newest.at - s.at <= LOAD_WINDOW_MS + LOAD_SAMPLE_MS / 2);
    const measured = newest && base && base !== newest ? ratesBetween(base, newest) : [];
    const rows = 'value' in budget ? judgeRates(budget.value, measured, shape) : measured.map((m) => ({ ...m, expected: null, ceiling: null, status: '-' as const }));
    rows.sort((a, b) => b.rate - a.rate || a.operation.localeCompare(b.operation) || a.caller_daemon.localeCompare(b.caller_daemon));
    const { replicas } = await this.deps.reads.replicas();
    return {
      seconds: newest && base ? (newest.at - base.at) / 1000 : 0,
      replicas: this.live(replicas).map((r) => ({ id: r.replica_id, address: r.metrics_address, error: this.errors.get(r.replica_id) })),
      shape,
      budget: { path: this.deps.budgetPath, mode: 'value' in budget ? budget.value.derivation?.mode ?? '' : '', error: 'error' in budget ? budget.error : undefined },
      rows,
    };
  }

  private live<R extends { replica_id: string; age_us: string }>(rows: readonly R[]): R[] {
    return rows.filter((r) => Number(r.age_us) / 1000 < this.deps.replicaLiveMs);
  }

  private async sample(): Promise<void> {
    const { replicas } = await this.deps.reads.replicas();
    const sample: Sample = { at: performance.now(), replicas: new Map() };
    const errors = new Map<string, string>();
    await Promise.all(
      this.live(replicas).map(async (r) => {
        if (r.replica_id === this.deps.replicaId) {
          sample.replicas.set(r.replica_id, { at: performance.now(), start: undefined, counters: await this.ownCounters() });
          return;
        }
        if (r.metrics_address === '') return void errors.set(r.replica_id, 'no metrics address in the registry');
        const answer = await this.deps.peers.metrics(r.metrics_address);
        if (!answer.ok) return void errors.set(r.replica_id, answer.error);
        const { counters, start } = readExposition(answer.value.text);
        sample.replicas.set(r.replica_id, { at: answer.value.at, start, counters });
      }),
    );
    this.errors = errors;
    this.samples.push(sample);
    const oldest = sample.at - LOAD_WINDOW_MS - 2 * LOAD_SAMPLE_MS;
    this.samples = this.samples.filter((s) => s.at >= oldest);
  }

  private async ownCounters(): Promise<Counters> {
    const metric = this.deps.metrics.registry.getSingleMetric(REQUESTS);
    const counters: Counters = new Map();
    if (!metric) return counters;
    for (const v of (await metric.get()).values) {
      counters.set(`${String(v.labels['operation'] ?? '')}\u0000${String(v.labels['caller_daemon'] ?? '')}`, v.value);
    }
    return counters;
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
