// The load budget: for every (operation, caller_daemon) pair the shipped daemons cause,
// a rate model `cluster + perNode·nodes + perInstance·instances` (calls/s) fitted from
// measured runs, and a ceiling above it. Derived by `npm run budget:derive`, committed as
// ops/load-budget.json, checked by the CI regression run and by load tools.

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

/** Least squares for y ≈ c + n·nodes + i·instances; columns that never vary are dropped. */
export function fitRates(points: { shape: Shape; rate: number }[]): { cluster: number; perNode: number; perInstance: number; r2: number } {
  const varies = (f: (s: Shape) => number): boolean => new Set(points.map((p) => f(p.shape))).size > 1;
  const useNodes = varies((s) => s.nodes);
  const useInstances = varies((s) => s.instances);
  const rows = points.map((p) => [1, ...(useNodes ? [p.shape.nodes] : []), ...(useInstances ? [p.shape.instances] : [])]);
  const y = points.map((p) => p.rate);
  const beta = leastSquares(rows, y);
  let k = 1;
  const cluster = beta[0] ?? 0;
  const perNode = useNodes ? (beta[k++] ?? 0) : 0;
  const perInstance = useInstances ? (beta[k++] ?? 0) : 0;
  const mean = y.reduce((a, b) => a + b, 0) / Math.max(1, y.length);
  const ssTot = y.reduce((a, v) => a + (v - mean) ** 2, 0);
  const ssRes = points.reduce((a, p) => a + (p.rate - (cluster + perNode * p.shape.nodes + perInstance * p.shape.instances)) ** 2, 0);
  return { cluster, perNode, perInstance, r2: ssTot === 0 ? 1 : 1 - ssRes / ssTot };
}

/** Solves the normal equations (XᵀX)β = Xᵀy by Gaussian elimination with pivoting. */
export function leastSquares(x: number[][], y: number[]): number[] {
  const k = x[0]?.length ?? 0;
  const a: number[][] = Array.from({ length: k }, (_, i) =>
    Array.from({ length: k + 1 }, (_, j) => x.reduce((sum, row, r) => sum + (row[i] ?? 0) * (j < k ? (row[j] ?? 0) : (y[r] ?? 0)), 0)),
  );
  for (let col = 0; col < k; col++) {
    let pivot = col;
    for (let r = col + 1; r < k; r++) if (Math.abs(a[r]?.[col] ?? 0) > Math.abs(a[pivot]?.[col] ?? 0)) pivot = r;
    [a[col], a[pivot]] = [a[pivot] as number[], a[col] as number[]];
    const p = a[col]?.[col] ?? 0;
    if (Math.abs(p) < 1e-12) continue;
    for (let r = 0; r < k; r++) {
      if (r === col) continue;
      const f = (a[r]?.[col] ?? 0) / p;
      for (let c = col; c <= k; c++) (a[r] as number[])[c] = (a[r]?.[c] ?? 0) - f * (a[col]?.[c] ?? 0);
    }
  }
  return Array.from({ length: k }, (_, i) => {
    const p = a[i]?.[i] ?? 0;
    return Math.abs(p) < 1e-12 ? 0 : (a[i]?.[k] ?? 0) / p;
  });
}
