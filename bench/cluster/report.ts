// The cluster benchmark as Markdown: the modes side by side with their ratios, the
// (operation, caller) pairs, the start, the duties, a sweep's fitted models and the history
// comparison. Pure functions of ClusterResult; docs.ts writes them into BENCHMARKS.md.
import { fitLoad, formatFit } from './fit.js';
import type { FitPoint, LinearFit } from './fit.js';
import { MISS_AFTER_MS, NOTICE_TOLERANCE_MS, PERIOD_TOLERANCE_MS } from './duties.js';
import type { DutyResult } from './duties.js';
import { churnOf } from './options.js';
import type { Shape } from './options.js';
import { EVICT_BOUND_MS, NOTICE_BOUND_MS } from './protocol.js';
import type { Mode } from './protocol.js';
import type { ClusterResult, ModeResult, StartResult } from './results.js';

export const num = (v: number, digits = 1): string =>
  Number.isFinite(v) ? v.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : '–';
const ms = (v: number): string => (Number.isFinite(v) ? Math.round(v).toLocaleString('en-US') : '–');
/** How many times `a` is `b`: "12.3×"; "–" when undefined. */
export function ratio(a: number, b: number): string {
  if (!Number.isFinite(a) || !Number.isFinite(b)) return '–';
  if (b === 0) return a === 0 ? '1.0×' : '∞';
  const r = a / b;
  return `${r >= 10 ? r.toFixed(0) : r.toFixed(1)}×`;
}

function row(cells: readonly string[]): string {
  return `| ${cells.join(' | ')} |`;
}

/** Ratio columns: the first mode against each later one ("naive / anchor"). */
function ratioHeads(modes: readonly Mode[]): string[] {
  const [first, ...rest] = modes;
  return rest.map((m) => `${first} / ${m}`);
}

function ratioCells(values: readonly number[]): string[] {
  const [first = Number.NaN, ...rest] = values;
  return rest.map((v) => ratio(first, v));
}

interface Line {
  label: string;
  value: (m: ModeResult) => number;
  digits?: number;
}

const LINES: Line[] = [
  { label: '**tier RPCs/s** (simulated daemons)', value: (m) => m.tier.rpcPerSecond },
  { label: '**MariaDB statements/s** (Questions, less the benchmark’s own)', value: (m) => m.mariadb.perSecond.Questions },
  { label: 'MariaDB Com_select/s', value: (m) => m.mariadb.perSecond.Com_select },
  { label: 'MariaDB Com_insert/s', value: (m) => m.mariadb.perSecond.Com_insert },
  { label: 'MariaDB Com_update/s', value: (m) => m.mariadb.perSecond.Com_update },
  { label: 'MariaDB Com_delete/s', value: (m) => m.mariadb.perSecond.Com_delete },
  // Absent in runs saved before they were recorded: NaN.
  { label: 'MariaDB Com_stmt_prepare/s', value: (m) => m.mariadb.perSecond.Com_stmt_prepare ?? Number.NaN, digits: 2 },
  { label: 'MariaDB Com_stmt_execute/s', value: (m) => m.mariadb.perSecond.Com_stmt_execute ?? Number.NaN },
  { label: 'tier’s MariaDB seconds/s (its statements, every source)', value: (m) => m.tier.mariadbSeconds?.statements ?? Number.NaN, digits: 4 },
  { label: 'the same charged to callers (every operation, caller pair)', value: (m) => m.tier.mariadbSeconds?.charged ?? Number.NaN, digits: 4 },
  { label: 'tier CPU s/s (all replicas)', value: (m) => m.tier.cpuSecondsPerSecond, digits: 3 },
  { label: 'mariadbd CPU s/s', value: (m) => m.mariadb.cpuSecondsPerSecond, digits: 3 },
  { label: 'simulator CPU s/s (all simulated daemons)', value: (m) => m.simulator.cpuSecondsPerSecond, digits: 3 },
  // Absent in runs saved before it was reported: NaN.
  { label: 'simulator’s longest event-loop stall since ready (warm-up and window), ms', value: (m) => m.simulator.longestStallMs ?? Number.NaN, digits: 0 },
  { label: 'benchmark’s injections, RPCs/s (not above)', value: (m) => m.tier.benchRpcPerSecond, digits: 2 },
];

/** The modes side by side, with the first mode's ratio to each other one. */
export function modesTable(r: ClusterResult): string {
  const modes = r.results.map((m) => m.mode);
  const lines = [row(['', ...modes, ...ratioHeads(modes)]), row(['---', ...modes.map(() => '---:'), ...ratioHeads(modes).map(() => '---:')])];
  for (const l of LINES) {
    const values = r.results.map(l.value);
    lines.push(row([l.label, ...values.map((v) => num(v, l.digits ?? 1)), ...ratioCells(values)]));
  }
  const sources = [...new Set(r.results.flatMap((m) => Object.keys(m.tier.statementsPerSecond)))].sort();
  for (const s of sources) {
    const values = r.results.map((m) => m.tier.statementsPerSecond[s] ?? 0);
    if (values.every((v) => v === 0)) continue;
    lines.push(row([`tier’s statements/s, source ${s}`, ...values.map((v) => num(v)), ...ratioCells(values)]));
  }
  lines.push(row(['every duty within its bound', ...r.results.map((m) => (m.dutiesHeld ? 'yes' : '**no**')), ...ratioHeads(modes).map(() => '')]));
  return lines.join('\n');
}

/** Every (operation, caller) pair any mode called, by the first mode's rate. */
export function pairsTable(r: ClusterResult, limit = Infinity): string {
  const modes = r.results.map((m) => m.mode);
  const keys = new Map<string, { operation: string; caller: string }>();
  for (const m of r.results) for (const p of m.tier.pairs) keys.set(`${p.operation}\u0000${p.callerDaemon}`, { operation: p.operation, caller: p.callerDaemon });
  const rate = (m: ModeResult, op: string, caller: string): number =>
    m.tier.pairs.find((p) => p.operation === op && p.callerDaemon === caller)?.perSecond ?? 0;
  const rows = [...keys.values()]
    .map((k) => ({ ...k, values: r.results.map((m) => rate(m, k.operation, k.caller)) }))
    .sort((a, b) => b.values.reduce((s, v) => s + v, 0) - a.values.reduce((s, v) => s + v, 0) || a.operation.localeCompare(b.operation));
  const lines = [
    row(['operation', 'caller_daemon', ...modes.map((m) => `${m} /s`), ...ratioHeads(modes)]),
    row(['---', '---', ...modes.map(() => '---:'), ...ratioHeads(modes).map(() => '---:')]),
  ];
  for (const x of rows.slice(0, limit)) lines.push(row([x.operation, x.caller, ...x.values.map((v) => num(v, 2)), ...ratioCells(x.values)]));
  if (rows.length > limit) lines.push(row([`… ${rows.length - limit} more`, '', ...modes.map(() => ''), ...ratioHeads(modes).map(() => '')]));
  return lines.join('\n');
}

/**
 * The start of each mode (simulator spawned → every daemon RUNNING): its totals, then its
 * calls per (operation, caller) and per daemon, most first; '' for runs saved without it.
 */
export function startTable(r: ClusterResult, limit = 12): string {
  const measured = r.results.filter((m) => m.start !== undefined);
  if (measured.length === 0) return '';
  const modes = measured.map((m) => m.mode);
  const starts = measured.map((m) => m.start as StartResult);
  const perDaemon = (calls: number, m: ModeResult): string => (m.daemons > 0 ? num(calls / m.daemons, 2) : '—');
  const lines = [row(['the start', ...modes]), row(['---', ...modes.map(() => '---:')])];
  lines.push(row(['seconds until every daemon ran', ...starts.map((x) => num(x.seconds, 1))]));
  lines.push(row(['tier RPCs (per daemon)', ...measured.map((m, i) => `${num(starts[i]?.calls ?? 0, 0)} (${perDaemon(starts[i]?.calls ?? 0, m)})`)]));
  lines.push(row(['RPCs that failed', ...starts.map((x) => num(x.errors.reduce((a, e) => a + e.calls, 0), 0))]));
  lines.push(row(['tier statements', ...starts.map((x) => num(x.statements, 0))]));
  lines.push(row(['tier / mariadbd CPU s', ...starts.map((x) => `${num(x.tierCpuS, 1)} / ${num(x.mariadbCpuS, 1)}`)]));
  const keys = new Map<string, { operation: string; caller: string; total: number }>();
  for (const x of starts)
    for (const p of x.pairs) {
      const k = `${p.operation}\u0000${p.callerDaemon}`;
      const e = keys.get(k) ?? { operation: p.operation, caller: p.callerDaemon, total: 0 };
      e.total += p.calls;
      keys.set(k, e);
    }
  const rows = [...keys.values()].sort((a, b) => b.total - a.total || a.operation.localeCompare(b.operation));
  for (const k of rows.slice(0, limit)) {
    const cells = measured.map((m, i) => {
      const calls = starts[i]?.pairs.find((p) => p.operation === k.operation && p.callerDaemon === k.caller)?.calls ?? 0;
      return `${num(calls, 0)} (${perDaemon(calls, m)})`;
    });
    lines.push(row([`${k.operation}, ${k.caller}`, ...cells]));
  }
  if (rows.length > limit) lines.push(row([`… ${rows.length - limit} more pairs`, ...modes.map(() => '')]));
  for (const [i, x] of starts.entries())
    if (x.errors.length > 0) lines.push('', `Failed during the start (${modes[i]}): ${x.errors.map((e) => `${e.operation} ${e.code} ${num(e.calls, 0)}`).join(', ')}.`);
  return lines.join('\n');
}

function dutyCell(d: DutyResult | undefined): string {
  if (!d || d.held === undefined) return 'not exercised';
  const mark = d.held ? '✓' : `**✗** (${d.misses} ${d.kind === 'notice' ? 'missed' : 'over'}${d.worst ? `, ${d.worst}` : ''})`;
  const split = d.byReplica && d.byReplica.other.samples > 0
    ? `; same replica p50/p99 ${ms(d.byReplica.same.p50Ms)} / ${ms(d.byReplica.same.p99Ms)} (n=${d.byReplica.same.samples}), other ${ms(d.byReplica.other.p50Ms)} / ${ms(d.byReplica.other.p99Ms)} (n=${d.byReplica.other.samples})`
    : '';
  return `${ms(d.p50Ms)} / ${ms(d.p99Ms)} / ${ms(d.maxMs)} (n=${d.samples}) ${mark}${split}`;
}

/** Each duty per mode: p50 / p99 / max ms, sample count, and whether the bound held. */
export function dutiesTable(r: ClusterResult): string {
  const modes = r.results.map((m) => m.mode);
  const duties = r.results[0]?.duties ?? [];
  const lines = [row(['duty', 'bound (ms)', ...modes.map((m) => `${m}: p50 / p99 / max ms`)]), row(['---', '---:', ...modes.map(() => '---')])];
  for (const d of duties) {
    const label = d.kind === 'notice' ? `${d.duty} (notice)` : `${d.duty} (period gap)`;
    lines.push(row([label, ms(d.boundMs), ...r.results.map((m) => dutyCell(m.duties.find((x) => x.duty === d.duty)))]));
  }
  return lines.join('\n');
}

export function boundsText(): string {
  return (
    `Bounds: a notice duty holds when every injection was noticed within ${NOTICE_BOUND_MS} ms (NOTICE_BOUND_MS) + ${NOTICE_TOLERANCE_MS} ms (one idle tick), ` +
    `latency = the simulator's \`noticed\` time − the time just before the injecting RPC was sent (one machine clock); not noticed within ${MISS_AFTER_MS / 1000} s is a miss. ` +
    `Churn: churn-state is a churned instance's state move noticed by its node's sidechannel (the notice bound); static-evict holds when the p99 of the time from a static update ` +
    `to each holding process's drop of the object is ≤ ${EVICT_BOUND_MS} ms (a holder still holding it after ${MISS_AFTER_MS / 1000} s counts as infinite; watched every 5 ms through the cache's snapshot()). ` +
    `A period duty holds when every gap between its consecutive \`period\` events (per node; maintenance cluster-wide) is ≤ period + ${PERIOD_TOLERANCE_MS} ms; ` +
    'the gaps judged are those ending in the window or after it, including the open gap from the last event to the simulator’s stop.'
  );
}

export interface ModeFit {
  mode: Mode;
  tier: LinearFit | undefined;
  mariadb: LinearFit | undefined;
}

/** Points with the base history (the nodes, instances and churn sweeps), fitted per mode. */
export function fitModes(results: readonly ClusterResult[], base: Shape): ModeFit[] {
  const points = results.filter((r) => r.shape.history === base.history);
  const modes = [...new Set(points.flatMap((r) => r.results.map((m) => m.mode)))];
  const fit = (mode: Mode, value: (m: ModeResult) => number): LinearFit | undefined => {
    const pts: FitPoint[] = points.flatMap((r) => {
      const m = r.results.find((x) => x.mode === mode);
      return m ? [{ nodes: r.shape.nodes, instances: r.shape.instances, churn: churnOf(r.shape), rate: value(m) }] : [];
    });
    const distinct = (f: (p: FitPoint) => number | undefined): number => (new Set(pts.map(f)).size > 1 ? 1 : 0);
    const cross = distinct((p) => p.nodes) * distinct((p) => p.churn) * (new Set(pts.filter((p) => (p.churn ?? 0) > 0).map((p) => p.nodes)).size > 1 ? 1 : 0);
    const params = 1 + distinct((p) => p.nodes) + distinct((p) => p.instances) + distinct((p) => p.churn) + cross;
    return pts.length > params ? fitLoad(pts) : undefined;
  };
  return modes.map((mode) => ({ mode, tier: fit(mode, (m) => m.tier.rpcPerSecond), mariadb: fit(mode, (m) => m.mariadb.perSecond.Questions) }));
}

export function fitTable(fits: readonly ModeFit[]): string {
  const cell = (f: LinearFit | undefined): string => (f ? `${formatFit(f)} | ${f.r2.toFixed(3)}` : 'too few points | –');
  const lines = [row(['mode', 'tier RPCs/s ≈', 'R²', 'MariaDB statements/s ≈', 'R²']), row(['---', '---', '---:', '---', '---:'])];
  for (const f of fits) lines.push(row([f.mode, cell(f.tier), cell(f.mariadb)]));
  return lines.join('\n');
}

/** Every sweep point's headline figures, mode by mode. */
export function sweepTable(results: readonly ClusterResult[]): string {
  const modes = [...new Set(results.flatMap((r) => r.results.map((m) => m.mode)))];
  const lines = [
    row(['nodes', 'instances', 'history', 'churn/s', ...modes.flatMap((m) => [`${m} tier RPCs/s`, `${m} MariaDB stmts/s`, `${m} duties`])]),
    row(['---:', '---:', '---:', '---:', ...modes.flatMap(() => ['---:', '---:', '---'])]),
  ];
  for (const r of results) {
    const cells = modes.flatMap((mode) => {
      const m = r.results.find((x) => x.mode === mode);
      return m ? [num(m.tier.rpcPerSecond), num(m.mariadb.perSecond.Questions), m.dutiesHeld ? 'held' : '**missed**'] : ['–', '–', '–'];
    });
    lines.push(row([String(r.shape.nodes), String(r.shape.instances), String(r.shape.history), String(churnOf(r.shape)), ...cells]));
  }
  return lines.join('\n');
}

/** History must not raise steady-state rates by more than this fraction. */
export const HISTORY_NOISE = 0.1;

export interface HistoryRow {
  mode: Mode;
  histories: number[];
  tier: number[];
  mariadb: number[];
  /** Largest rise from the smallest history, as a fraction (tier, MariaDB). */
  tierRise: number;
  mariadbRise: number;
  within: boolean;
}

/** The points at the base nodes and instances, by history: does more history raise the rates? */
export function historyRows(results: readonly ClusterResult[], base: Shape): HistoryRow[] {
  const points = results
    .filter((r) => r.shape.nodes === base.nodes && r.shape.instances === base.instances && churnOf(r.shape) === churnOf(base))
    .sort((a, b) => a.shape.history - b.shape.history);
  if (new Set(points.map((p) => p.shape.history)).size < 2) return [];
  const modes = [...new Set(points.flatMap((r) => r.results.map((m) => m.mode)))];
  return modes.map((mode) => {
    const ms = points.flatMap((p) => {
      const m = p.results.find((x) => x.mode === mode);
      return m ? [{ history: p.shape.history, m }] : [];
    });
    const tier = ms.map((x) => x.m.tier.rpcPerSecond);
    const mariadb = ms.map((x) => x.m.mariadb.perSecond.Questions);
    const rise = (v: number[]): number => Math.max(0, ...v.slice(1).map((x) => (v[0] ? x / v[0] - 1 : x > 0 ? Infinity : 0)));
    const tierRise = rise(tier);
    const mariadbRise = rise(mariadb);
    return { mode, histories: ms.map((x) => x.history), tier, mariadb, tierRise, mariadbRise, within: tierRise <= HISTORY_NOISE && mariadbRise <= HISTORY_NOISE };
  });
}

export function historyTable(rows: readonly HistoryRow[]): string {
  const histories = rows[0]?.histories ?? [];
  const pct = (v: number): string => (Number.isFinite(v) ? `${v >= 0 ? '+' : '−'}${Math.abs(v * 100).toFixed(1)}%` : '∞');
  /** Each later history against the smallest. */
  const changes = (v: readonly number[]): string => v.slice(1).map((x) => pct((v[0] ? x / v[0] : Number.NaN) - 1)).join(', ');
  const lines = [
    row(['mode', ...histories.map((h) => `tier RPCs/s @ history ${h}`), 'change', ...histories.map((h) => `MariaDB stmts/s @ history ${h}`), 'change', `no rise over ${HISTORY_NOISE * 100}%`]),
    row(['---', ...histories.map(() => '---:'), '---:', ...histories.map(() => '---:'), '---:', '---']),
  ];
  for (const r of rows) {
    lines.push(row([r.mode, ...r.tier.map((v) => num(v)), changes(r.tier), ...r.mariadb.map((v) => num(v)), changes(r.mariadb), r.within ? 'yes' : '**no**']));
  }
  return lines.join('\n');
}

/** The static-object cache figures of each mode with a cache (issue 38); '' when none reported them. */
export function cacheTable(r: ClusterResult): string {
  const modes = r.results.filter((m) => m.cache !== undefined);
  if (modes.length === 0) return '';
  const by = (counts: Record<string, number>): string =>
    Object.entries(counts)
      .filter(([, n]) => n > 0)
      .map(([k, n]) => `${k} ${num(n, 0)}`)
      .join(', ') || '0';
  const lines = [row(['static-object cache, simulator start to stop', ...modes.map((m) => m.mode)]), row(['---', ...modes.map(() => '---:')])];
  const cell = (f: (c: NonNullable<ModeResult['cache']>) => string): string[] => modes.map((m) => f(m.cache as NonNullable<ModeResult['cache']>));
  lines.push(row(['first reads (per process and object)', ...cell((c) => num(c.firstReads, 0))]));
  lines.push(row(['later reads: hits', ...cell((c) => num(c.laterHits, 0))]));
  lines.push(row(['later reads: misses', ...cell((c) => num(c.laterMisses, 0))]));
  lines.push(row(['**hit ratio after the first read**', ...cell((c) => (c.laterHits / Math.max(1, c.laterHits + c.laterMisses)).toFixed(4))]));
  lines.push(row(['evictions', ...cell((c) => by(c.evictions))]));
  lines.push(row(['clears', ...cell((c) => by(c.clears))]));
  return lines.join('\n');
}
