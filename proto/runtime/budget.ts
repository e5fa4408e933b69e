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
//
// A pair may also carry a model of the MariaDB seconds per second its calls cause
// (database_request_query_seconds_total), fitted the same way from the same runs, and so a
// seconds ceiling beside its call ceiling, with the same headroom rule (its own floor, in
// seconds/s): a pair whose calls are as many as ever but whose statements got slower (a
// lock, a lost index, a scan that grew) is over budget too.

/** A per-second quantity of one pair as the cluster's size and churn set it. */
export interface RateModel {
  /** Per second independent of size (e.g. the elected maintenance daemon). */
  cluster: number;
  /** Per second per node. */
  perNode: number;
  /** Per second per standing instance. */
  perInstance: number;
  /** Per second per unit of churn (changes/s above the quiet cluster's); absent: 0. */
  perChurn?: number;
  /** Per second per node per unit of churn; absent: 0. */
  perNodeChurn?: number;
  /** Fit quality over the derivation runs. */
  r2: number;
}

/** A pair's calls/s model (the fields of RateModel, in calls/s) and, optionally, its MariaDB seconds/s model. */
export interface PairBudget extends RateModel {
  operation: string;
  caller_daemon: string;
  /** MariaDB seconds per second its calls cause (statement sent → result, shared batches split); absent: no seconds ceiling. */
  seconds?: RateModel;
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

/**
 * The tier's per-call cost counters, by (operation, caller_daemon): the MariaDB seconds a
 * pair's calls caused (its seconds model is fitted from, and judged against, this one), and
 * their wait for a pool connection (shown beside it by the load tools, not budgeted). The
 * tier's own statements count under caller_daemon "sf-database" with their source as
 * operation (no calls: not in the budget).
 */
export const QUERY_SECONDS_COUNTER = 'database_request_query_seconds_total';
export const POOL_WAIT_COUNTER = 'database_request_pool_wait_seconds_total';

export interface LoadBudget {
  /** How it was made (command, date, mode, runs) — never typed in by hand. */
  derivation: { command: string; derivedAt: string; mode: string; runs: { nodes: number; instances: number; churn?: number; windowS: number }[] };
  /**
   * ceiling = max(expected × factor, expected + floor): room for noise and phase. A pair's
   * seconds ceiling is the same rule over its seconds model, with secondsFloor (MariaDB
   * seconds/s) for floor; present whenever a pair carries a seconds model.
   */
  ceiling: { factor: number; floor: number; secondsFloor?: number };
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
  /** MariaDB seconds/s its calls caused over the window; absent or null: not measured (not judged). */
  seconds?: number | null;
}

export function pairKey(p: { operation: string; caller_daemon: string }): string {
  return `${p.operation}|${p.caller_daemon}`;
}

export function expectedRate(b: RateModel, shape: Shape): number {
  const churn = shape.churn ?? 0;
  const churnTerms = churn > 0 ? (b.perChurn ?? 0) * churn + (b.perNodeChurn ?? 0) * shape.nodes * churn : 0;
  return Math.max(0, b.cluster + b.perNode * shape.nodes + b.perInstance * shape.instances + churnTerms);
}

export function ceilingOf(budget: LoadBudget, b: PairBudget, shape: Shape): number {
  const expected = expectedRate(b, shape);
  return Math.max(expected * budget.ceiling.factor, expected + budget.ceiling.floor);
}

/** The MariaDB seconds/s the budget expects of a pair; null when it carries no seconds model. */
export function expectedSeconds(b: PairBudget, shape: Shape): number | null {
  return b.seconds ? expectedRate(b.seconds, shape) : null;
}

/** A pair's seconds ceiling: max(expected × factor, expected + secondsFloor); null without a seconds model. */
export function secondsCeilingOf(budget: LoadBudget, b: PairBudget, shape: Shape): number | null {
  const expected = expectedSeconds(b, shape);
  const floor = budget.ceiling.secondsFloor;
  return expected === null || floor === undefined ? null : Math.max(expected * budget.ceiling.factor, expected + floor);
}

/**
 * over-ceiling: calls/s above the call ceiling; over-seconds: MariaDB seconds/s above the
 * seconds ceiling (one pair may have both); unbudgeted: a steady pair the budget lacks.
 */
export interface Violation {
  kind: 'over-ceiling' | 'over-seconds' | 'unbudgeted';
  operation: string;
  caller_daemon: string;
  rate: number;
  ceiling?: number;
  seconds?: number | null;
  secondsCeiling?: number;
}

/**
 * Pairs over their call ceiling or their seconds ceiling, and pairs not in the budget that
 * show a steady rate, the highest rate first. Callers outside `callers` (e.g. the
 * benchmark's own injections, `bench`) are ignored.
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
    const secondsCeiling = secondsCeilingOf(budget, b, shape);
    if (secondsCeiling !== null && m.seconds !== undefined && m.seconds !== null && m.seconds > secondsCeiling) {
      violations.push({ kind: 'over-seconds', ...m, secondsCeiling });
    }
  }
  return violations.sort((a, b) => b.rate - a.rate);
}

/** What the load tools measure of a pair beyond its calls: MariaDB seconds/s, their share, pool wait seconds/s (null: not reported). */
export interface PairCost {
  seconds: number | null;
  /** Of every pair's seconds, the tier's own included; null without seconds or when none were spent. */
  share: number | null;
  poolWait: number | null;
}

/**
 * The pairs with their shares of all MariaDB seconds, the costliest first: by seconds/s,
 * then by calls/s (pairs that ran no statement, such as long-polls, and every pair when no
 * replica reports seconds), then by name. sf-ctl load and the admin Load page both list so.
 */
export function rankByCost<M extends MeasuredPair & PairCost>(rows: readonly M[]): M[] {
  const all = rows.reduce((sum, r) => sum + (r.seconds ?? 0), 0);
  return rows
    .map((r) => ({ ...r, share: r.seconds !== null && all > 0 ? r.seconds / all : null }))
    .sort((a, b) => (b.seconds ?? 0) - (a.seconds ?? 0) || b.rate - a.rate || a.operation.localeCompare(b.operation) || a.caller_daemon.localeCompare(b.caller_daemon));
}

/** One counter's per-second rate by pair, keyed `operation\0caller_daemon`, with its increase (`calls`, whatever it counts). */
export type PairRates = ReadonlyMap<string, { rate: number; calls: number }>;

/**
 * The pairs of any of the three counters, ranked (rankByCost): calls/s and calls from
 * `calls`, MariaDB seconds/s from `seconds` and pool wait seconds/s from `waits` (null where
 * those are undefined: no replica reports them; 0 for a pair they do not list).
 */
export function costedPairs(calls: PairRates, seconds: PairRates | undefined, waits: PairRates | undefined): (MeasuredPair & PairCost & { calls: number })[] {
  const keys = new Set([...calls.keys(), ...(seconds?.keys() ?? []), ...(waits?.keys() ?? [])]);
  return rankByCost(
    [...keys].map((key) => {
      const [operation = '', caller_daemon = ''] = key.split('\u0000');
      return {
        operation,
        caller_daemon,
        rate: calls.get(key)?.rate ?? 0,
        calls: calls.get(key)?.calls ?? 0,
        seconds: seconds ? (seconds.get(key)?.rate ?? 0) : null,
        share: null,
        poolWait: waits ? (waits.get(key)?.rate ?? 0) : null,
      };
    }),
  );
}

/** MariaDB seconds/s and pool wait seconds/s over every pair; null where no pair reports them. */
export function costTotals(rows: readonly PairCost[]): { seconds: number | null; poolWait: number | null } {
  const sum = (f: (r: PairCost) => number | null): number | null =>
    rows.reduce<number | null>((acc, r) => {
      const v = f(r);
      return v === null ? acc : (acc ?? 0) + v;
    }, null);
  return { seconds: sum((r) => r.seconds), poolWait: sum((r) => r.poolWait) };
}

/** Reads and checks a budget's JSON text; throws on a shape it cannot use. */
export function parseLoadBudget(text: string): LoadBudget {
  const b = JSON.parse(text) as Partial<LoadBudget>;
  const okModel = (x: Record<string, unknown>): boolean =>
    ['cluster', 'perNode', 'perInstance'].every((k) => typeof x[k] === 'number') && ['perChurn', 'perNodeChurn'].every((k) => x[k] === undefined || typeof x[k] === 'number');
  const okPair = (p: unknown): boolean => {
    const x = p as Record<string, unknown>;
    const seconds = x['seconds'];
    return (
      typeof x['operation'] === 'string' &&
      typeof x['caller_daemon'] === 'string' &&
      okModel(x) &&
      (seconds === undefined || (typeof seconds === 'object' && seconds !== null && okModel(seconds as Record<string, unknown>)))
    );
  };
  if (!Array.isArray(b.pairs) || !b.pairs.every(okPair)) {
    throw new Error('pairs: expected a list of {operation, caller_daemon, cluster, perNode, perInstance[, perChurn, perNodeChurn][, seconds: {the same}]}');
  }
  const m = b.changeRate as Record<string, unknown> | undefined;
  if (m !== undefined && !['cluster', 'perNode', 'perInstance'].every((k) => typeof m[k] === 'number')) {
    throw new Error('changeRate: expected {cluster, perNode, perInstance}');
  }
  if (typeof b.ceiling?.factor !== 'number' || typeof b.ceiling.floor !== 'number') throw new Error('ceiling: expected {factor, floor}');
  if (b.pairs.some((p) => p.seconds !== undefined) && typeof b.ceiling.secondsFloor !== 'number') {
    throw new Error('ceiling: a pair has a seconds model, so secondsFloor (seconds/s) is expected');
  }
  if (typeof b.unbudgetedSteadyRate !== 'number') throw new Error('unbudgetedSteadyRate: expected a number');
  return b as LoadBudget;
}

/**
 * ok: within its ceilings; OVER: above its call ceiling or its seconds ceiling (`over` says
 * which); unbudgeted: a budget caller's pair the budget does not list, at a steady rate;
 * rare: such a pair below the steady rate; '-': a caller the budget does not cover (sf-ctl,
 * bench, test, the tier's own sf-database…), not judged.
 */
export type RateStatus = 'ok' | 'OVER' | 'unbudgeted' | 'rare' | '-';

/** Which ceiling an OVER pair passed: its calls/s, its MariaDB seconds/s, or both. */
export type OverWhat = 'calls' | 'seconds';

export interface JudgedRate extends MeasuredPair {
  expected: number | null;
  ceiling: number | null;
  /** MariaDB seconds/s the budget expects, and its ceiling; null: the pair has no seconds model. */
  expectedSeconds: number | null;
  secondsCeiling: number | null;
  status: RateStatus;
  /** The ceilings passed (empty unless status is OVER). */
  over: OverWhat[];
}

/** Every measured pair with its expected rate and seconds, their ceilings and its status (checkBudget decides). */
export function judgeRates<M extends MeasuredPair>(budget: LoadBudget, measured: readonly M[], shape: Shape): (M & JudgedRate)[] {
  const callers = new Set(budget.pairs.map((p) => p.caller_daemon));
  const byKey = new Map(budget.pairs.map((p) => [pairKey(p), p]));
  const violations = new Map<string, Set<Violation['kind']>>();
  for (const v of checkBudget(budget, [...measured], shape, callers)) violations.set(pairKey(v), (violations.get(pairKey(v)) ?? new Set()).add(v.kind));
  return measured.map((m) => {
    const b = byKey.get(pairKey(m));
    const v = violations.get(pairKey(m)) ?? new Set();
    const over: OverWhat[] = [...(v.has('over-ceiling') ? ['calls' as const] : []), ...(v.has('over-seconds') ? ['seconds' as const] : [])];
    let status: RateStatus;
    if (!callers.has(m.caller_daemon)) status = '-';
    else if (over.length > 0) status = 'OVER';
    else if (v.has('unbudgeted')) status = 'unbudgeted';
    else status = b ? 'ok' : 'rare';
    return {
      ...m,
      expected: b ? expectedRate(b, shape) : null,
      ceiling: b ? ceilingOf(budget, b, shape) : null,
      expectedSeconds: b ? expectedSeconds(b, shape) : null,
      secondsCeiling: b ? secondsCeilingOf(budget, b, shape) : null,
      status,
      over,
    };
  });
}

/** A status as the load tools print it: OVER names the ceiling passed ('OVER calls', 'OVER db s', 'OVER calls+db s'). */
export function statusText(r: Pick<JudgedRate, 'status' | 'over'>): string {
  if (r.status !== 'OVER') return r.status;
  return `OVER ${r.over.map((o) => (o === 'calls' ? 'calls' : 'db s')).join('+')}`.trimEnd();
}
