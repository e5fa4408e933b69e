// The figures of a run: one cell per target × in-flight value (every phase and round
// pooled), the comparisons round by round (the tiers that trace against the one that does
// not, when the run has them), and the targets.
import type { LayerCost, Target } from './protocol.js';
import { TARGETS, tracedPercent } from './protocol.js';
import type { RoundRecord, TargetRun } from './session.js';
import { median, percentile } from '../../harness/stats.js';

const LABELS: Record<string, string> = {
  direct: 'direct (mysql2 pool, no gRPC)',
  bare: 'bare (grpc-js passthrough)',
  tier: 'tier (sf-database + typed client)',
  baseline: 'tier at the baseline revision (--baseline)',
};

export function labelOf(target: Target): string {
  const percent = tracedPercent(target);
  if (percent === undefined) return LABELS[target] ?? target;
  return percent === 0 ? 'tier started as the traced ones, no SDK (--traced 0)' : `tier tracing, ${percent} % sampled`;
}

export interface Cell {
  target: Target;
  inflight: number;
  /** Calls measured / seconds measured, every round together. */
  callsPerSecond: number;
  /** Percentiles of every measured call's latency within a phase; with several phases, the median of the phases'. */
  p50Ms: number;
  p99Ms: number;
  /** CPU per measured call, µs (totals over every round's window / calls). */
  clientCpuUs: number;
  serverCpuUs: number;
  mariadbCpuUs: number;
  /** One load client session per phase, in the order run. */
  phases: TargetRun[];
  /** Every phase's rounds in the order run: round i of two targets ran in the same round of a phase. */
  rounds: RoundRecord[];
  errors: number;
}

export function summarize(runs: readonly TargetRun[], inflight: readonly number[], targets: readonly Target[] = TARGETS): Cell[] {
  const cells: Cell[] = [];
  for (const n of inflight) {
    for (const target of targets) {
      const phases = runs.filter((r) => r.target === target && r.inflight === n);
      if (phases.length === 0) continue;
      const rounds = phases.flatMap((r) => r.rounds);
      const calls = phases.reduce((sum, r) => sum + r.summary.calls, 0);
      const seconds = phases.reduce((sum, r) => sum + r.summary.seconds, 0);
      const total = (f: (r: RoundRecord) => number): number => rounds.reduce((sum, r) => sum + f(r), 0);
      cells.push({
        target,
        inflight: n,
        callsPerSecond: calls / seconds,
        p50Ms: median(phases.map((r) => r.summary.p50Ms)),
        p99Ms: median(phases.map((r) => r.summary.p99Ms)),
        clientCpuUs: total((r) => r.clientCpuUs) / calls,
        serverCpuUs: total((r) => r.serverCpuUs) / calls,
        mariadbCpuUs: total((r) => r.mariadbCpuUs) / calls,
        phases,
        rounds,
        errors: phases.reduce((sum, r) => sum + r.summary.errors, 0),
      });
    }
  }
  return cells;
}

const int = (v: number): string => (Number.isFinite(v) ? Math.round(v).toLocaleString('en-US') : '–');
const ms = (v: number): string => (Number.isFinite(v) ? v.toFixed(3) : '–');
const signedMs = (v: number): string => (Number.isFinite(v) ? `${v >= 0 ? '+' : '−'}${Math.abs(v).toFixed(3)} ms` : '–');
const signedUs = (v: number): string => (Number.isFinite(v) ? `${v >= 0 ? '+' : '−'}${Math.abs(v).toFixed(0)} µs` : '–');
const ratio = (v: number): string => (Number.isFinite(v) ? `${v.toFixed(2)}×` : '–');

function cellOf(cells: readonly Cell[], target: Target, inflight: number): Cell | undefined {
  return cells.find((c) => c.target === target && c.inflight === inflight);
}

export function resultTable(cells: readonly Cell[]): string {
  const lines = [
    '| target | in flight | calls/s | p50 ms | p99 ms | CPU µs/call: client / server / mariadbd | calls/s per round, min – max | errors |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const c of cells) {
    const perRound = c.rounds.map((r) => r.callsPerSecond);
    const spread = `${int(Math.min(...perRound))} – ${int(Math.max(...perRound))}`;
    const cpu = `${int(c.clientCpuUs)} / ${int(c.serverCpuUs)} / ${int(c.mariadbCpuUs)}`;
    lines.push(
      `| ${labelOf(c.target)} | ${c.inflight} | ${int(c.callsPerSecond)} | ${ms(c.p50Ms)} | ${ms(c.p99Ms)} | ${cpu} | ${spread} | ${c.errors} |`,
    );
  }
  return lines.join('\n');
}

interface Paired {
  median: number;
  /** The middle half of the rounds' values. */
  q1: number;
  q3: number;
}

/**
 * Two targets compared round by round: rounds of the same index run in the same round of
 * a phase, one target after another, so they share the machine's load of the moment. The
 * median over the rounds and the middle half of them.
 */
function paired(a: Cell, b: Cell, f: (x: RoundRecord, y: RoundRecord) => number): Paired {
  return pairedRounds(a.rounds, b.rounds, f);
}

function pairedRounds(a: readonly RoundRecord[], b: readonly RoundRecord[], f: (x: RoundRecord, y: RoundRecord) => number): Paired {
  const each: number[] = [];
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    each.push(f(a[i] as RoundRecord, b[i] as RoundRecord));
  }
  const sorted = [...each].sort((x, y) => x - y);
  return { median: median(each), q1: percentile(sorted, 0.25), q3: percentile(sorted, 0.75) };
}

function spread(p: Paired, format: (v: number) => string): string {
  return `${format(p.median)} (${format(p.q1)} … ${format(p.q3)})`;
}

const throughputRatio = (x: RoundRecord, y: RoundRecord): number => x.callsPerSecond / y.callsPerSecond;
const p50Difference = (x: RoundRecord, y: RoundRecord): number => x.p50Ms - y.p50Ms;
const serverCpuDifference = (x: RoundRecord, y: RoundRecord): number => x.serverCpuUs / x.calls - y.serverCpuUs / y.calls;
const serverCpuRatio = (x: RoundRecord, y: RoundRecord): number => x.serverCpuUs / x.calls / (y.serverCpuUs / y.calls);

export function ratioTable(cells: readonly Cell[], inflight: readonly number[]): string {
  const lines = [
    '| in flight | tier/bare calls/s | tier/direct calls/s | p50 tier − bare | p50 bare − direct | server CPU/call tier − bare |',
    '|---:|---:|---:|---:|---:|---:|',
  ];
  for (const n of inflight) {
    const d = cellOf(cells, 'direct', n);
    const b = cellOf(cells, 'bare', n);
    const t = cellOf(cells, 'tier', n);
    if (!d || !b || !t) continue;
    lines.push(
      `| ${n} | ${spread(paired(t, b, throughputRatio), ratio)} | ${spread(paired(t, d, throughputRatio), ratio)} | ` +
        `${spread(paired(t, b, p50Difference), signedMs)} | ${spread(paired(b, d, p50Difference), signedMs)} | ` +
        `${spread(paired(t, b, serverCpuDifference), signedUs)} |`,
    );
  }
  return lines.join('\n');
}

/**
 * tier/bare throughput phase by phase (each phase its own load client processes and
 * connections): how much of the spread is the phase rather than the round.
 */
export function phaseLine(cells: readonly Cell[], inflight: number): string | undefined {
  const b = cellOf(cells, 'bare', inflight);
  const t = cellOf(cells, 'tier', inflight);
  if (!b || !t || t.phases.length < 2) return undefined;
  const each = t.phases.map((phase, i) => {
    const bare = b.phases[i];
    return bare ? ratio(pairedRounds(phase.rounds, bare.rounds, throughputRatio).median) : '–';
  });
  return `tier/bare calls/s at ${inflight} in flight, median of each phase's rounds: ${each.join(', ')}`;
}

export interface TargetCheck {
  text: string;
  /** undefined: not measured in this run (in-flight value missing). */
  holds: boolean | undefined;
}

/** The targets, judged on the median of the round-by-round comparisons. */
export function checkTargets(cells: readonly Cell[]): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const b64 = cellOf(cells, 'bare', 64);
  const t64 = cellOf(cells, 'tier', 64);
  // Issue 19's targets (issue 8 asked 0.9×): the tier's throughput and its server CPU per call against bare's.
  const throughput = 'tier throughput ≥ 0.95× bare at 64 in flight';
  const cpu = "tier server CPU per call ≤ 1.25× bare's at 64 in flight";
  if (b64 && t64) {
    const r = paired(t64, b64, throughputRatio);
    checks.push({ text: `${throughput}: ${spread(r, ratio)}`, holds: r.median >= 0.95 });
    const c = paired(t64, b64, serverCpuRatio);
    checks.push({ text: `${cpu}: ${spread(c, ratio)}`, holds: c.median <= 1.25 });
  } else {
    checks.push({ text: `${throughput}: not measured`, holds: undefined });
    checks.push({ text: `${cpu}: not measured`, holds: undefined });
  }
  const b1 = cellOf(cells, 'bare', 1);
  const t1 = cellOf(cells, 'tier', 1);
  const latency = 'tier p50 ≤ bare p50 + 0.1 ms at 1 in flight';
  if (b1 && t1) {
    const d = paired(t1, b1, p50Difference);
    checks.push({ text: `${latency}: ${spread(d, signedMs)}`, holds: d.median <= 0.1 });
  } else {
    checks.push({ text: `${latency}: not measured`, holds: undefined });
  }
  return checks;
}

/** Did the tier's database_requests_total grow by exactly the calls the client made? (Every tier's, tracing or not.) */
export function countCheck(cells: readonly Cell[]): string {
  const runs = cells.filter((c) => c.target === 'tier' || c.target === 'baseline' || tracedPercent(c.target) !== undefined).flatMap((c) => c.phases);
  const off = runs.filter((r) => r.serverCounted !== r.summary.allCalls);
  const metric = '`database_requests_total{operation="GetNode",caller_daemon="bench"}`';
  if (off.length === 0) {
    return `Check: for every tier load client the tier's ${metric} grew by exactly the calls it completed, warm-up included (no client-side cache; every call counted once).`;
  }
  const details = off.map((r) => `${r.serverCounted ?? '?'} counted for ${r.summary.allCalls} calls`).join('; ');
  return `Check **failed**: ${metric} did not grow by the calls made (${details}).`;
}

/**
 * This checkout's tier against the baseline revision's (--baseline), round by round: what
 * the change between them costs, and each against bare.
 */
export function baselineTable(cells: readonly Cell[], inflight: readonly number[]): string {
  const lines = [
    `| in flight | tier/baseline calls/s | server CPU/call tier − baseline | server CPU/call tier ÷ baseline | p50 tier − baseline | tier/bare calls/s | baseline/bare calls/s |`,
    '|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const n of inflight) {
    const t = cellOf(cells, 'tier', n);
    const base = cellOf(cells, 'baseline', n);
    const b = cellOf(cells, 'bare', n);
    if (!t || !base || !b) continue;
    lines.push(
      `| ${n} | ${spread(paired(t, base, throughputRatio), ratio)} | ${spread(paired(t, base, serverCpuDifference), signedUs)} | ` +
        `${spread(paired(t, base, serverCpuRatio), ratio)} | ${spread(paired(t, base, p50Difference), signedMs)} | ` +
        `${spread(paired(t, b, throughputRatio), ratio)} | ${spread(paired(base, b, throughputRatio), ratio)} |`,
    );
  }
  return lines.join('\n');
}

/** What a tracing tier exported over the run: spans its OTLP sink received, calls its counter counted (every operation). */
export interface Exported {
  spans: number;
  calls: number;
}

/**
 * Each tracing tier against the one that does not, round by round: throughput, server CPU
 * per call and p50 — what tracing costs at its sampling — and the spans it exported.
 */
export function tracedTable(cells: readonly Cell[], inflight: readonly number[], exported: ReadonlyMap<Target, Exported>): string {
  const lines = [
    '| in flight | sampled | traced/tier calls/s | server CPU/call traced − tier | server CPU/call traced ÷ tier | p50 traced − tier | spans exported / calls served (whole run) |',
    '|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const n of inflight) {
    const off = cellOf(cells, 'tier', n);
    for (const c of cells.filter((x) => x.inflight === n && tracedPercent(x.target) !== undefined)) {
      if (!off) continue;
      const e = exported.get(c.target);
      const spans = e ? `${int(e.spans)} / ${int(e.calls)}` : '–';
      const percent = tracedPercent(c.target);
      lines.push(
        `| ${n} | ${percent === 0 ? 'no SDK (control)' : `${percent} %`} | ${spread(paired(c, off, throughputRatio), ratio)} | ${spread(paired(c, off, serverCpuDifference), signedUs)} | ` +
          `${spread(paired(c, off, serverCpuRatio), ratio)} | ${spread(paired(c, off, p50Difference), signedMs)} | ${spans} |`,
      );
    }
  }
  return lines.join('\n');
}

/** Issue 39's target for a tier sampling 1 % of its calls, when the run has one. */
export function checkTraced(cells: readonly Cell[]): TargetCheck[] {
  const t64 = cellOf(cells, 'tier', 64);
  const traced = cellOf(cells, 'traced 1%', 64);
  if (!traced) return [];
  const text = 'tier tracing at 1 % sampled: throughput within 3 % of the tier without tracing at 64 in flight';
  if (!t64) return [{ text: `${text}: not measured`, holds: undefined }];
  const r = paired(traced, t64, throughputRatio);
  return [{ text: `${text}: ${spread(r, ratio)}`, holds: r.median >= 0.97 }];
}

/** What the tracing layer alone costs a call (trace-layer.ts), without an SDK and at each sampling. */
export function layerTable(costs: readonly LayerCost[]): string {
  const us = (v: number): string => `${v.toFixed(2)} µs`;
  return [
    '| tracing layer alone, per call (no export) | tier: its span from the metadata to its end | tier, a caller\'s unsampled trace (traceparent flags 00) | client: its span and its attempt\'s trace context |',
    '|---|---:|---:|---:|',
    ...costs.map((c) => `| ${c.percent === undefined ? 'no SDK' : `${c.percent} % sampled`} | ${us(c.tierUs)} | ${us(c.tierUnsampledCallerUs)} | ${us(c.clientUs)} |`),
  ].join('\n');
}
