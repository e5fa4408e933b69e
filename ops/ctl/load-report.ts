// `sf-ctl load`, the pure part: measured (operation, caller) call rates, MariaDB seconds
// and pool waits from scrape pairs, judged against a load budget for the live cluster size;
// the table (the costliest pair first) and the exit code.
import {
  CHANGE_COMMIT,
  CHANGE_COUNTER,
  CHANGE_LABEL,
  POOL_WAIT_COUNTER,
  QUERY_SECONDS_COUNTER,
  costTotals,
  judgeRates,
  parseLoadBudget,
  costedPairs,
  statusText,
} from '@sfdb/proto/runtime/budget';
import type { JudgedRate, LoadBudget, PairCost, Shape } from '@sfdb/proto/runtime/budget';
import { formatShare } from '@sfdb/proto/runtime/format';
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

/**
 * One pair over the window, summed over replicas: seconds is MariaDB seconds/s
 * (database_request_query_seconds_total), poolWait seconds/s waited for a pool connection
 * (database_request_pool_wait_seconds_total), each null when no replica reports it.
 */
export interface Measured extends PairCost {
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

/**
 * Per (operation, caller_daemon): calls/s and calls in the window, MariaDB seconds/s and
 * their share, pool wait seconds/s; the costliest first (rankByCost). A pair that spent
 * seconds without calls (the tier's own, caller sf-database) is listed with rate 0.
 */
export function measurePairs(windows: readonly Window[]): Measured[] {
  const by = ['operation', 'caller_daemon'];
  const reported = (metric: string): boolean => windows.some((w) => w.after.some((x) => x.name === metric));
  const calls = windowRates(windows, REQUESTS, by);
  const seconds = reported(QUERY_SECONDS_COUNTER) ? windowRates(windows, QUERY_SECONDS_COUNTER, by) : undefined;
  const waits = reported(POOL_WAIT_COUNTER) ? windowRates(windows, POOL_WAIT_COUNTER, by) : undefined;
  return costedPairs(calls, seconds, waits);
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

/** A measured pair with the budget's verdict (expected, ceilings, status, which ceiling it passed). */
export type LoadRow = Measured & JudgedRate;

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

/** The window's totals: MariaDB seconds/s and pool wait seconds/s over every pair (unknown: no replica reports them). */
export function costLine(rows: readonly Measured[]): string {
  const { seconds, poolWait } = costTotals(rows);
  const text = (v: number | null): string => (v === null ? 'unknown' : formatRate(v));
  return `MariaDB seconds/s ${text(seconds)}; pool wait seconds/s ${text(poolWait)}`;
}

/**
 * One line per pair, in the rows' order: calls/s with the budget's expected rate and
 * ceiling, MariaDB seconds/s with its share and seconds ceiling, pool wait seconds/s.
 */
export function loadTable(rows: readonly LoadRow[]): string {
  return table(
    ['operation', 'caller', 'rate/s', 'expected', 'ceiling', 'db s/s', 'db share', 'db s ceiling', 'pool wait s/s', 'status'],
    rows.map((r) => [
      r.operation,
      r.caller_daemon,
      formatRate(r.rate),
      formatRate(r.expected),
      formatRate(r.ceiling),
      formatRate(r.seconds),
      formatShare(r.share),
      formatRate(r.secondsCeiling),
      formatRate(r.poolWait),
      statusText(r),
    ]),
    [2, 3, 4, 5, 6, 7, 8],
  );
}

/** Reads and checks a budget's JSON text; throws on a shape it cannot use. */
export const parseBudget = parseLoadBudget;
