// Verdicts per series: a least-squares slope over the samples after the warm-up, and the
// last sample against the post-warm-up median. Gauges that must be empty when nothing is
// asked of the tier (in flight, waiters) are judged on every quiet sample instead.
import { median } from '../../harness/stats.js';
import type { SoakSample } from './sample.js';

export type Verdict = 'flat' | 'growing' | 'zero' | 'NOT ZERO' | 'too few samples';

export interface SeriesVerdict {
  key: string;
  label: string;
  /** Samples judged (after the warm-up; every quiet sample for the zero rules). */
  n: number;
  slopePerMin: number;
  median: number;
  final: number;
  verdict: Verdict;
  /** The rule, in words. */
  rule: string;
}

/** A limit: absolute, or a fraction of the post-warm-up median. */
type Limit = { abs: number } | { rel: number };

type Rule =
  | { kind: 'zero' }
  /** Flat: slope per minute below `slope`, and the final sample at most `band` above the median. */
  | { kind: 'flat'; slope: Limit; band: Limit };

export interface Series {
  key: string;
  label: string;
  value(s: SoakSample): number;
  rule: Rule;
}

const flat = (slope: Limit, band: Limit): Rule => ({ kind: 'flat', slope, band });
const ZERO: Rule = { kind: 'zero' };
const COUNT = flat({ abs: 0.2 }, { abs: 3 });

export const SERIES: readonly Series[] = [
  { key: 'rssMb', label: 'replica RSS, MB (quiet)', value: (s) => s.quiet.rssMb, rule: flat({ abs: 1 }, { rel: 0.1 }) },
  { key: 'rssFloor', label: 'replica RSS floor, MB (lowest reading of the interval)', value: (s) => s.memory.rssMin, rule: flat({ abs: 1 }, { rel: 0.1 }) },
  { key: 'heapFloor', label: 'heap used floor, MB (lowest reading of the interval)', value: (s) => s.memory.heapMin, rule: flat({ abs: 1 }, { rel: 0.25 }) },
  { key: 'heapUsedMb', label: 'heap used, MB (quiet)', value: (s) => s.quiet.heapUsedMb, rule: flat({ abs: 1 }, { rel: 0.25 }) },
  { key: 'heapTotalMb', label: 'heap total (reserved), MB (quiet)', value: (s) => s.quiet.heapTotalMb, rule: flat({ abs: 1 }, { rel: 0.25 }) },
  { key: 'externalMb', label: 'external memory, MB (quiet)', value: (s) => s.quiet.externalMb, rule: flat({ abs: 0.5 }, { rel: 0.25 }) },
  { key: 'openFds', label: 'open fds (quiet)', value: (s) => s.quiet.openFds, rule: COUNT },
  { key: 'activeHandles', label: 'active handles (quiet)', value: (s) => s.quiet.activeHandles, rule: COUNT },
  { key: 'inFlightQuiet', label: 'requests in flight (quiet)', value: (s) => s.quiet.inFlight, rule: ZERO },
  { key: 'waitersQuiet', label: 'change-feed waiters (quiet)', value: (s) => s.quiet.waiters, rule: ZERO },
  { key: 'poolBusyQuiet', label: 'pool connections busy (quiet)', value: (s) => s.quiet.poolBusy, rule: ZERO },
  { key: 'waitersLoad', label: 'change-feed waiters (load)', value: (s) => s.load.waiters, rule: COUNT },
  { key: 'poolConnections', label: 'pool connections (load)', value: (s) => s.load.poolConnections, rule: flat({ abs: 0.2 }, { abs: 2 }) },
  { key: 'mariadbConnections', label: 'MariaDB connections (quiet)', value: (s) => s.quiet.mariadbConnections, rule: flat({ abs: 0.2 }, { abs: 2 }) },
  { key: 'p99Ms', label: 'client p99 latency, ms', value: (s) => s.calls.p99Ms, rule: flat({ rel: 0.05 }, { rel: 1 }) },
];

/** Least-squares slope of y over x; NaN for fewer than two points. */
export function slope(xs: readonly number[], ys: readonly number[]): number {
  const n = xs.length;
  if (n < 2) return Number.NaN;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    const dx = (xs[i] as number) - mx;
    num += dx * ((ys[i] as number) - my);
    den += dx * dx;
  }
  return den === 0 ? Number.NaN : num / den;
}

function limitOf(limit: Limit, m: number): number {
  return 'abs' in limit ? limit.abs : limit.rel * m;
}

function limitText(limit: Limit): string {
  return 'abs' in limit ? String(limit.abs) : `${limit.rel * 100} % of the median`;
}

function ruleText(rule: Rule): string {
  if (rule.kind === 'zero') return '0 at every quiet sample';
  return `slope < ${limitText(rule.slope)} per min, final ≤ median + ${limitText(rule.band)}`;
}

export function judgeSeries(series: Series, samples: readonly SoakSample[], warmupMin: number): SeriesVerdict {
  const rule = series.rule;
  const judged = rule.kind === 'zero' ? samples : samples.filter((s) => s.minute > warmupMin);
  const xs = judged.map((s) => s.minute);
  const ys = judged.map((s) => series.value(s));
  const m = median(ys);
  const final = ys[ys.length - 1] ?? Number.NaN;
  const k = slope(xs, ys);
  const out = { key: series.key, label: series.label, n: judged.length, slopePerMin: k, median: m, final, rule: ruleText(rule) };
  if (rule.kind === 'zero') return { ...out, verdict: ys.length === 0 ? 'too few samples' : ys.every((y) => y === 0) ? 'zero' : 'NOT ZERO' };
  if (judged.length < 3) return { ...out, verdict: 'too few samples' };
  const isFlat = k < limitOf(rule.slope, m) && final <= m + limitOf(rule.band, m);
  return { ...out, verdict: isFlat ? 'flat' : 'growing' };
}

export function judgeAll(samples: readonly SoakSample[], warmupMin: number): SeriesVerdict[] {
  return SERIES.map((s) => judgeSeries(s, samples, warmupMin));
}
