// The load budget's model, pure: for every (operation, caller_daemon) pair the shipped
// daemons cause, a rate model `cluster + perNode·nodes + perInstance·instances +
// perChurn·churn + perNodeChurn·nodes·churn` (calls/s) fitted from measured runs, and a
// ceiling above it. churn is the cluster's change rate above the quiet cluster's: the
// tier's own feed counter (database_changefeed_changes_total{via="commit"}, summed over
// replicas) less the budget's `changeRate` model of a quiet cluster of that size, at least
// 0 (churnAbove). With no churn (or a budget without churn terms) the model is the quiet
// one. Here, in proto/, the one home of these formulas, so that the ops tools (sf-ctl load,
// the Prometheus rules) and the tier (the admin view's Load page) import and judge rates
// with the same ones. The committed budgets are ops/load-budget.json (feed mode) and
// ops/load-budget.anchor.json (polling fallback), named in ops/budget.ts.

export interface PairBudget {
  operation: string;
  caller_daemon: string;
  /** calls/s independent of size (e.g. the elected maintenance daemon). */
  cluster: number;
  /** calls/s per node. */
  perNode: number;
  /** calls/s per standing instance. */
  perInstance: number;
  /** calls/s per unit of churn (changes/s above the quiet cluster's); absent: 0. */
  perChurn?: number;
  /** calls/s per node per unit of churn; absent: 0. */
  perNodeChurn?: number;
  /** Fit quality over the derivation runs. */
  r2: number;
}

/** The quiet cluster's feed change rate (changes/s committed, all replicas): the zero of churn. */
export interface ChangeRateModel {
  cluster: number;
  perNode: number;
  perInstance: number;
}

/** The feed counter the cluster change rate is read from, its label, and the label's value for a replica's own commits. */
export const CHANGE_COUNTER = 'database_changefeed_changes_total';
export const CHANGE_LABEL = 'via';
export const CHANGE_COMMIT = 'commit';

export interface LoadBudget {
  /** How it was made (command, date, mode, runs) — never typed in by hand. */
  derivation: { command: string; derivedAt: string; mode: string; runs: { nodes: number; instances: number; churn?: number; windowS: number }[] };
  /** ceiling = max(expected × factor, expected + floor): room for noise and phase. */
  ceiling: { factor: number; floor: number };
  /** A pair outside the budget is a violation when its rate is at least this (calls/s). */
  unbudgetedSteadyRate: number;
  /** The quiet cluster's change rate; absent: the budget has no churn terms (churn is taken as 0). */
  changeRate?: ChangeRateModel;
  pairs: PairBudget[];
}

export interface Shape {
  nodes: number;
  instances: number;
  /** Changes/s above the quiet cluster's (churnAbove); absent: 0, the quiet cluster. */
  churn?: number;
}

/** The quiet cluster's change rate at `shape` (0 without a model). */
export function quietChangeRate(budget: Pick<LoadBudget, 'changeRate'>, shape: Shape): number {
  const m = budget.changeRate;
  return m ? Math.max(0, m.cluster + m.perNode * shape.nodes + m.perInstance * shape.instances) : 0;
}

/** churn: the measured change rate (changes/s) above the quiet cluster's, at least 0; 0 without a model. */
export function churnAbove(budget: Pick<LoadBudget, 'changeRate'>, shape: Shape, changesPerSecond: number): number {
  if (!budget.changeRate || !Number.isFinite(changesPerSecond)) return 0;
  return Math.max(0, changesPerSecond - quietChangeRate(budget, shape));
}

export interface MeasuredPair {
  operation: string;
  caller_daemon: string;
  /** calls/s over the window. */
  rate: number;
}

export function pairKey(p: { operation: string; caller_daemon: string }): string {
  return `${p.operation}|${p.caller_daemon}`;
}

export function expectedRate(b: PairBudget, shape: Shape): number {
  const churn = shape.churn ?? 0;
  const churnTerms = churn > 0 ? (b.perChurn ?? 0) * churn + (b.perNodeChurn ?? 0) * shape.nodes * churn : 0;
  return Math.max(0, b.cluster + b.perNode * shape.nodes + b.perInstance * shape.instances + churnTerms);
}

export function ceilingOf(budget: LoadBudget, b: PairBudget, shape: Shape): number {
  const expected = expectedRate(b, shape);
  return Math.max(expected * budget.ceiling.factor, expected + budget.ceiling.floor);
}

export interface Violation {
  kind: 'over-ceiling' | 'unbudgeted';
  operation: string;
  caller_daemon: string;
  rate: number;
  ceiling?: number;
}

/**
 * Pairs over their ceiling, and pairs not in the budget that show a steady rate.
 * Callers outside `callers` (e.g. the benchmark's own injections, `bench`) are ignored.
 */
export function checkBudget(budget: LoadBudget, measured: MeasuredPair[], shape: Shape, callers: ReadonlySet<string>): Violation[] {
  const byKey = new Map(budget.pairs.map((p) => [pairKey(p), p]));
  const violations: Violation[] = [];
  for (const m of measured) {
    if (!callers.has(m.caller_daemon)) continue;
    const b = byKey.get(pairKey(m));
    if (!b) {
      if (m.rate >= budget.unbudgetedSteadyRate) violations.push({ kind: 'unbudgeted', ...m });
      continue;
    }
    const ceiling = ceilingOf(budget, b, shape);
    if (m.rate > ceiling) violations.push({ kind: 'over-ceiling', ...m, ceiling });
  }
  return violations.sort((a, b) => b.rate - a.rate);
}

/** Reads and checks a budget's JSON text; throws on a shape it cannot use. */
export function parseLoadBudget(text: string): LoadBudget {
  const b = JSON.parse(text) as Partial<LoadBudget>;
  const okPair = (p: unknown): boolean => {
    const x = p as Record<string, unknown>;
    return (
      typeof x['operation'] === 'string' &&
      typeof x['caller_daemon'] === 'string' &&
      ['cluster', 'perNode', 'perInstance'].every((k) => typeof x[k] === 'number') &&
      ['perChurn', 'perNodeChurn'].every((k) => x[k] === undefined || typeof x[k] === 'number')
    );
  };
  if (!Array.isArray(b.pairs) || !b.pairs.every(okPair)) {
    throw new Error('pairs: expected a list of {operation, caller_daemon, cluster, perNode, perInstance[, perChurn, perNodeChurn]}');
  }
  const m = b.changeRate as Record<string, unknown> | undefined;
  if (m !== undefined && !['cluster', 'perNode', 'perInstance'].every((k) => typeof m[k] === 'number')) {
    throw new Error('changeRate: expected {cluster, perNode, perInstance}');
  }
  if (typeof b.ceiling?.factor !== 'number' || typeof b.ceiling.floor !== 'number') throw new Error('ceiling: expected {factor, floor}');
  if (typeof b.unbudgetedSteadyRate !== 'number') throw new Error('unbudgetedSteadyRate: expected a number');
  return b as LoadBudget;
}

/**
 * ok: within the ceiling; OVER: above it; unbudgeted: a budget caller's pair the budget
 * does not list, at a steady rate; rare: such a pair below the steady rate; '-': a caller
 * the budget does not cover (sf-ctl, bench, test…), not judged.
 */
export type RateStatus = 'ok' | 'OVER' | 'unbudgeted' | 'rare' | '-';

export interface JudgedRate extends MeasuredPair {
  expected: number | null;
  ceiling: number | null;
  status: RateStatus;
}

/** Every measured pair with its expected rate, ceiling and status (checkBudget decides). */
export function judgeRates<M extends MeasuredPair>(budget: LoadBudget, measured: readonly M[], shape: Shape): (M & JudgedRate)[] {
  const callers = new Set(budget.pairs.map((p) => p.caller_daemon));
  const byKey = new Map(budget.pairs.map((p) => [pairKey(p), p]));
  const violations = new Map(checkBudget(budget, [...measured], shape, callers).map((v) => [pairKey(v), v.kind]));
  return measured.map((m) => {
    const b = byKey.get(pairKey(m));
    const v = violations.get(pairKey(m));
    let status: RateStatus;
    if (!callers.has(m.caller_daemon)) status = '-';
    else if (v === 'over-ceiling') status = 'OVER';
    else if (v === 'unbudgeted') status = 'unbudgeted';
    else status = b ? 'ok' : 'rare';
    return { ...m, expected: b ? expectedRate(b, shape) : null, ceiling: b ? ceilingOf(budget, b, shape) : null, status };
  });
}
