// The load budget from measured runs, pure (npm run budget:derive measures, this fits):
//   1. the quiet runs (no churn) fit every (operation, caller) pair as
//      cluster + perNode·nodes + perInstance·instances, exactly as before churn existed, and
//      the tier's feed change rate the same way (the budget's changeRate: the zero of churn);
//   2. the churned runs fit what the quiet model leaves over, per pair, as
//      perChurn·churn + perNodeChurn·nodes·churn (no constant: no churn, no extra load),
//      where churn = the run's measured change rate less the quiet change rate of its size
//      — the same quantity the rules and sf-ctl load compute from the tier's feed counter.
//      perNodeChurn only when the churned runs have two node counts or more.
// When every run measured the pairs' MariaDB seconds/s (database_request_query_seconds_total),
// each pair gets a seconds model too, fitted by the same two steps from the same runs: its
// seconds ceiling then follows the call ceiling's rule (proto/runtime/budget.ts).
import type { ChangeRateModel, LoadBudget, PairBudget, RateModel } from '../../proto/runtime/budget.js';
import { quietChangeRate } from '../../proto/runtime/budget.js';
import { fitLoad, solve } from './fit.js';

export interface BudgetPoint {
  nodes: number;
  instances: number;
  /** The churn the run was asked for (changes/s); 0: a quiet run. */
  churn: number;
  windowS: number;
  /** calls/s per `operation|caller_daemon`. */
  rates: ReadonlyMap<string, number>;
  /** MariaDB seconds/s per `operation|caller_daemon`; absent: the run did not measure them (an older tier, or saved before). */
  seconds?: ReadonlyMap<string, number>;
  /** The tier's feed change rate in the window (changes/s committed, all replicas). */
  changesPerSecond: number;
}

export interface BudgetMeta {
  command: string;
  derivedAt: string;
  mode: string;
  ceiling: { factor: number; floor: number; secondsFloor?: number };
  unbudgetedSteadyRate: number;
}

/** Coefficients as written: 5 decimals for calls/s, 8 for seconds/s (a pair's statements take ~1 ms). */
const round = (v: number | undefined, digits = 5): number => Number((v ?? 0).toFixed(digits)) || 0;

/** Least squares through the origin: y ≈ Σ coef·x (each row of `x` the columns). */
export function fitThroughOrigin(x: readonly (readonly number[])[], y: readonly number[]): number[] {
  const k = x[0]?.length ?? 0;
  if (y.length < k) throw new Error(`${y.length} points cannot fit ${k} parameters`);
  const xtx = Array.from({ length: k }, (_, p) => Array.from({ length: k }, (_, q) => x.reduce((s, row) => s + (row[p] as number) * (row[q] as number), 0)));
  const xty = Array.from({ length: k }, (_, p) => x.reduce((s, row, i) => s + (row[p] as number) * (y[i] as number), 0));
  return solve(xtx, xty);
}

export function budgetOf(meta: BudgetMeta, points: readonly BudgetPoint[]): LoadBudget {
  const quiet = points.filter((p) => p.churn === 0);
  const churned = points.filter((p) => p.churn > 0);
  if (quiet.length === 0) throw new Error('no quiet run: the budget needs runs without churn');
  const change = fitLoad(quiet.map((p) => ({ nodes: p.nodes, instances: p.instances, rate: p.changesPerSecond })));
  const changeRate: ChangeRateModel = { cluster: round(change.base), perNode: round(change.perNode), perInstance: round(change.perInstance) };
  const churnOf = (p: BudgetPoint): number => Math.max(0, p.changesPerSecond - quietChangeRate({ changeRate }, p));
  const cross = new Set(churned.map((p) => p.nodes)).size > 1;
  if (churned.length > 0 && churned.every((p) => churnOf(p) === 0)) {
    throw new Error('the churned runs changed no faster than the quiet ones: is the feed counter (database_changefeed_changes_total) scraped?');
  }

  // One pair's model of `value` over the runs: the quiet terms from the quiet runs, the churn terms through the origin from the churned ones.
  const modelOf = (value: (p: BudgetPoint) => number, digits: number): RateModel => {
    const fit = fitLoad(quiet.map((p) => ({ nodes: p.nodes, instances: p.instances, rate: value(p) })));
    const model: RateModel = { cluster: round(fit.base, digits), perNode: round(fit.perNode, digits), perInstance: round(fit.perInstance, digits), r2: 1 };
    const quietOf = (p: BudgetPoint): number => model.cluster + model.perNode * p.nodes + model.perInstance * p.instances;
    if (churned.length === 0) {
      model.r2 = Number.isNaN(fit.r2) ? 1 : round(fit.r2);
      return model;
    }
    const x = churned.map((p) => (cross ? [churnOf(p), p.nodes * churnOf(p)] : [churnOf(p)]));
    const [c, d] = fitThroughOrigin(x, churned.map((p) => value(p) - quietOf(p)));
    model.perChurn = round(c, digits);
    if (cross) model.perNodeChurn = round(d, digits);
    // R² of the whole model over every run.
    const fitted = (p: BudgetPoint): number => quietOf(p) + (model.perChurn ?? 0) * churnOf(p) + (model.perNodeChurn ?? 0) * p.nodes * churnOf(p);
    const y = points.map(value);
    const mean = y.reduce((sum, v) => sum + v, 0) / y.length;
    const ssTot = y.reduce((sum, v) => sum + (v - mean) ** 2, 0);
    const ssRes = points.reduce((sum, p) => sum + (value(p) - fitted(p)) ** 2, 0);
    model.r2 = ssTot === 0 ? 1 : round(1 - ssRes / ssTot);
    return model;
  };

  const withSeconds = points.every((p) => p.seconds !== undefined);
  if (withSeconds && meta.ceiling.secondsFloor === undefined) throw new Error('the runs measured MariaDB seconds: the ceiling needs a secondsFloor');
  const keys = [...new Set(points.flatMap((p) => [...p.rates.keys()]))].sort();
  const pairs: PairBudget[] = keys.map((key) => {
    const [operation = '', caller_daemon = ''] = key.split('|');
    const pair: PairBudget = { operation, caller_daemon, ...modelOf((p) => p.rates.get(key) ?? 0, 5) };
    if (withSeconds) pair.seconds = modelOf((p) => p.seconds?.get(key) ?? 0, 8);
    return pair;
  });
  const ceiling = withSeconds ? { ...meta.ceiling } : { factor: meta.ceiling.factor, floor: meta.ceiling.floor };
  return {
    derivation: {
      command: meta.command,
      derivedAt: meta.derivedAt,
      mode: meta.mode,
      runs: points.map((p) => ({ nodes: p.nodes, instances: p.instances, ...(p.churn > 0 ? { churn: p.churn } : {}), windowS: Math.round(p.windowS) })),
    },
    ceiling,
    unbudgetedSteadyRate: meta.unbudgetedSteadyRate,
    ...(churned.length > 0 ? { changeRate } : {}),
    pairs,
  };
}
