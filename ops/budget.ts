// The load budget: for every (operation, caller_daemon) pair the shipped daemons cause,
// a rate model `cluster + perNode·nodes + perInstance·instances` (calls/s) fitted from
// measured runs, and a ceiling above it. Derived by `npm run budget:derive`, committed as
// ops/load-budget.json (feed mode, the shipped default) and ops/load-budget.anchor.json
// (the polling fallback), checked by the CI regression run and by load tools.

/** Each mode's committed budget, relative to the repository. */
export const BUDGET_FILES = { feed: 'ops/load-budget.json', anchor: 'ops/load-budget.anchor.json' } as const;

export interface PairBudget {
  operation: string;
  caller_daemon: string;
  /** calls/s independent of size (e.g. the elected maintenance daemon). */
  cluster: number;
  /** calls/s per node. */
  perNode: number;
  /** calls/s per standing instance. */
  perInstance: number;
  /** Fit quality over the derivation runs. */
  r2: number;
}

export interface LoadBudget {
  /** How it was made (command, date, mode, runs) — never typed in by hand. */
  derivation: { command: string; derivedAt: string; mode: string; runs: { nodes: number; instances: number; windowS: number }[] };
  /** ceiling = max(expected × factor, expected + floor): room for noise and phase. */
  ceiling: { factor: number; floor: number };
  /** A pair outside the budget is a violation when its rate is at least this (calls/s). */
  unbudgetedSteadyRate: number;
  pairs: PairBudget[];
}

export interface Shape {
  nodes: number;
  instances: number;
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
  return Math.max(0, b.cluster + b.perNode * shape.nodes + b.perInstance * shape.instances);
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
