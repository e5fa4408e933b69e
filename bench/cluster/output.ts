// A finished run as files: the JSON it is saved as (everything needed to render it again),
// the Markdown report, the SVG chart, and the parts of our docs/BENCHMARKS.md section.
import type { Machine, Part, RunMeta } from './docs.js';
import type { From } from '../../harness/built.js';
import { metaLines } from './docs.js';
import { loadChart } from './chart.js';
import { STATUS_COUNTERS } from './measure.js';
import { churnOf } from './options.js';
import type { ClusterOptions, Sweeps } from './options.js';
import { HISTORY_NOISE, boundsText, cacheTable, dutiesTable, fitModes, fitTable, historyRows, historyTable, modesTable, pairsTable, startTable, sweepTable } from './report.js';
import type { HistoryRow, ModeFit } from './report.js';
import type { ClusterResult } from './results.js';

/** The JSON file of a run. */
export interface SavedRun {
  command: string;
  /** ISO time the run started. */
  date: string;
  machine: Machine;
  loadBefore: string;
  loadAfter: string;
  options: Omit<ClusterOptions, 'log'>;
  sweeps: Sweeps;
  results: ClusterResult[];
  /** How the tier replicas ran; a run saved without it ran them under tsx. */
  tier?: From;
  /** Derived (fitModes, historyRows), kept for readers of the JSON; re-rendering recomputes them. */
  fits?: ModeFit[];
  history?: HistoryRow[];
}

export interface Rendered {
  markdown: string;
  svg: string;
  /** The docs parts this run writes: modes for a plain run, sweep and history for a sweep. */
  parts: Partial<Record<Part, string>>;
  fits: ModeFit[];
  history: HistoryRow[];
}

export function shapeTitle(r: ClusterResult): string {
  const churn = churnOf(r.shape) > 0 ? `, churn ${r.shape.churnInstances ?? 0} instances/s + ${r.shape.churnStatic ?? 0} static updates/s` : '';
  return `${r.shape.nodes} nodes, ${r.shape.instances} instances, history ${r.shape.history}${churn}, ${r.replicas} replicas`;
}

function setupLine(r: ClusterResult): string {
  return (
    `- Setup: ${shapeTitle(r)} (${r.cluster.networks} networks); ${r.results[0]?.daemons ?? '?'} simulated daemons; ` +
    `${r.warmupS} s warm-up, then a ${r.durationS} s window per mode; one injection every ${r.injectEveryMs / 1000} s; seeding took ${r.seedSeconds.toFixed(0)} s.`
  );
}

function calibrationLine(r: ClusterResult): string {
  const counts = (c: Record<string, number>): string => STATUS_COUNTERS.filter((k) => (c[k] ?? 0) > 0).map((k) => `${k} ${c[k]}`).join(', ') || 'nothing';
  const inj = Object.entries(r.calibration.injections)
    .map(([duty, cost]) => `${duty}: ${counts(cost.counts)} (the tier counted ${cost.tierStatements}${cost.clean ? '' : '; no quiet repetition'})`)
    .join('; ');
  return `- The benchmark's own statements, measured before the first mode and taken off: one SHOW GLOBAL STATUS = ${counts(r.calibration.showStatus)}; per injection — ${inj}.`;
}

/** The start's table with its caption, or nothing for runs saved without it. */
function startPart(r: ClusterResult): string[] {
  const table = startTable(r);
  return table === '' ? [] : ['The start, from spawning the simulator until every daemon had recorded RUNNING (calls, not per second; in brackets per simulated daemon of the cluster, whatever its type), summed over replicas:', '', table, ''];
}

/** The cache figures with their caption, or nothing when no mode reported them. */
function cachePart(r: ClusterResult): string[] {
  const table = cacheTable(r);
  return table === '' ? [] : ['The static-object caches of the simulated processes (each object’s first read in a process apart from its later reads):', '', table, ''];
}

/** Everything about one shape. */
export function shapeReport(r: ClusterResult): string {
  return [
    setupLine(r),
    calibrationLine(r),
    ...(r.skipped ?? []).map((x) => `- **${x.mode} not measured**: the simulator refused it (${x.reason.replace(/\s+/g, ' ')}).`),
    '',
    modesTable(r),
    '',
    '(operation, caller_daemon) pairs, RPCs/s over the window, summed over replicas:',
    '',
    pairsTable(r),
    '',
    ...startPart(r),
    ...cachePart(r),
    'Duties: p50 / p99 / max latency in ms (n = samples) and whether the bound held:',
    '',
    dutiesTable(r),
    '',
    boundsText(),
  ].join('\n');
}

export function renderRun(saved: SavedRun, files: string[]): Rendered {
  const base = saved.options;
  const meta: RunMeta = {
    command: saved.command,
    date: new Date(saved.date),
    machine: saved.machine,
    loadBefore: saved.loadBefore,
    loadAfter: saved.loadAfter,
    files,
    simulator: base.simMain,
    tier: saved.tier ?? 'source',
  };
  const sweeping = Object.keys(saved.sweeps).length > 0;
  const fits = sweeping ? fitModes(saved.results, base) : [];
  const history = sweeping ? historyRows(saved.results, base) : [];
  const parts: Partial<Record<Part, string>> = {};
  const body: string[] = [`# Cluster benchmark, ${saved.date}`, '', ...metaLines(meta), ''];
  for (const r of saved.results) body.push(`## ${shapeTitle(r)}`, '', shapeReport(r), '');
  const first = saved.results[0];
  if (!sweeping && first) {
    parts.modes = [`### Modes side by side: ${shapeTitle(first)}`, '', ...metaLines(meta), shapeReport(first)].join('\n');
  }
  if (fits.length > 0) {
    const text = [
      sweepTable(saved.results.filter((r) => r.shape.history === base.history)),
      '',
      'Fitted by least squares over the points above (nodes swept at the base instances, instances at the base nodes, churn at the base nodes and at the largest node count, all at the base history; churn = instance lifecycles/s + static updates/s):',
      '',
      fitTable(fits),
    ].join('\n');
    body.push('## Sweep', '', text, '');
    parts.sweep = ['### Sweep: load against nodes, instances and churn', '', ...metaLines(meta), '', text].join('\n');
  }
  if (history.length > 0) {
    const text = [
      historyTable(history),
      '',
      `History must not raise steady-state rates: a rise of more than ${HISTORY_NOISE * 100}% over the smallest history fails ` +
        "(this machine's run-to-run noise is of that order); a fall is noise as well.",
    ].join('\n');
    body.push('## History', '', text, '');
    parts.history = ['### History: does retained history raise steady-state load?', '', ...metaLines(meta), '', text].join('\n');
  }
  return { markdown: body.join('\n'), svg: loadChart(saved.results, base, fits), parts, fits, history };
}
