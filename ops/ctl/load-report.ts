// `sf-ctl load`, the pure part: measured (operation, caller) rates from scrape pairs,
// judged against a load budget for the live cluster size; the table and the exit code.
import { CHANGE_COMMIT, CHANGE_COUNTER, CHANGE_LABEL, judgeRates, parseLoadBudget } from '@sfdb/proto/runtime/budget';
import type { LoadBudget, RateStatus, Shape } from '@sfdb/proto/runtime/budget';
import { addMaps, counterDelta, sumBy, total } from '../prom.js';
import type { PromSample } from '../prom.js';
import { EXIT } from './cli.js';
import { formatRate, table } from './format.js';

export const REQUESTS = 'database_requests_total';
export const INSTANCES_GAUGE = 'database_cluster_instances';

/** Two scrapes of one replica, `seconds` apart (before = [] when its counters restarted). */
export interface Window {
  before: readonly PromSample[];
  after: readonly PromSample[];
  seconds: number;
}

export interface Measured {
  operation: string;
  caller_daemon: string;
  /** calls/s over the window, summed over replicas (each over its own elapsed time). */
  rate: number;
  /** Calls counted in the window, summed over replicas. */
  calls: number;
}

/**
 * Rates of `metric` by `labels` over each window, summed over windows. A counter that went
 * down counts from zero (counterDelta): never negative. Keys that did not move are left out.
 */
export function windowRates(windows: readonly Window[], metric: string, labels: readonly string[]): Map<string, { rate: number; calls: number }> {
  const rates: Map<string, number>[] = [];
  const calls: Map<string, number>[] = [];
  for (const w of windows) {
    const delta = counterDelta(sumBy(w.before, metric, labels), sumBy(w.after, metric, labels));
    calls.push(delta);
    rates.push(new Map([...delta].map(([k, v]) => [k, w.seconds > 0 ? v / w.seconds : 0])));
  }
  const rateSum = addMaps(rates);
  const out = new Map<string, { rate: number; calls: number }>();
  for (const [key, n] of addMaps(calls)) if (n > 0) out.set(key, { rate: rateSum.get(key) ?? 0, calls: n });
  return out;
}

/** Per (operation, caller_daemon): calls/s and calls in the window, highest rate first. */
export function measurePairs(windows: readonly Window[]): Measured[] {
  const out: Measured[] = [];
  for (const [key, v] of windowRates(windows, REQUESTS, ['operation', 'caller_daemon'])) {
    const [operation = '', caller_daemon = ''] = key.split('\u0000');
    out.push({ operation, caller_daemon, ...v });
  }
  return out.sort((a, b) => b.rate - a.rate || a.operation.localeCompare(b.operation) || a.caller_daemon.localeCompare(b.caller_daemon));
}

/**
 * Standing instances as the replicas report them: the largest `database_cluster_instances`
 * over the scrapes that carry it; undefined when none does (an older replica).
 */
export function instancesFrom(scrapes: readonly (readonly PromSample[])[]): number | undefined {
  let best: number | undefined;
  for (const s of scrapes) {
    if (!s.some((x) => x.name === INSTANCES_GAUGE)) continue;
    const n = total(s, INSTANCES_GAUGE);
    best = best === undefined ? n : Math.max(best, n);
  }
  return best;
}

/**
 * The cluster's change rate (changes/s): the change rows each replica committed itself
 * (database_changefeed_changes_total{via="commit"}) over its window, summed; undefined when
 * no replica reports the counter (an older replica, or the feed off).
 */
export function changeRateOf(windows: readonly Window[]): number | undefined {
  if (!windows.some((w) => w.after.some((x) => x.name === CHANGE_COUNTER))) return undefined;
  return windowRates(windows, CHANGE_COUNTER, [CHANGE_LABEL]).get(CHANGE_COMMIT)?.rate ?? 0;
}

/** A pair's verdict: ok, OVER, unbudgeted, rare, or '-' (proto/runtime/budget.ts judgeRates). */
export type PairStatus = RateStatus;

export interface LoadRow extends Measured {
  expected: number | null;
  ceiling: number | null;
  status: PairStatus;
}

/** The budget's callers: every caller_daemon it lists. */
export function budgetCallers(budget: LoadBudget): Set<string> {
  return new Set(budget.pairs.map((p) => p.caller_daemon));
}

/** Every measured pair with its expected rate, ceiling and status: the budget's own judgement. */
export function judgeLoad(budget: LoadBudget, measured: readonly Measured[], shape: Shape): LoadRow[] {
  return judgeRates(budget, measured, shape);
}

/** 1 when a pair is over its ceiling or unbudgeted at a steady rate, else 0. */
export function loadExitCode(rows: readonly LoadRow[]): number {
  return rows.some((r) => r.status === 'OVER' || r.status === 'unbudgeted') ? EXIT.failed : EXIT.ok;
}

export function loadTable(rows: readonly LoadRow[]): string {
  return table(
    ['operation', 'caller', 'rate/s', 'expected', 'ceiling', 'status'],
    rows.map((r) => [r.operation, r.caller_daemon, formatRate(r.rate), formatRate(r.expected), formatRate(r.ceiling), r.status]),
    [2, 3, 4],
  );
}

/** Reads and checks a budget's JSON text; throws on a shape it cannot use. */
export const parseBudget = parseLoadBudget;
