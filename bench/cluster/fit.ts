// Ordinary least squares for `rate ≈ base + a·nodes + b·instances + c·churn + d·nodes·churn`
// over the points of a sweep (churn: changes per second cluster-wide, docs/workload.md "Churn").
// Pure; small enough that the normal equations are solved directly.

export interface FitPoint {
  nodes: number;
  instances: number;
  /** Cluster changes per second (0 or absent: the quiet cluster). */
  churn?: number;
  rate: number;
}

export interface LinearFit {
  base: number;
  /** Per node; undefined when the points do not vary the node count. */
  perNode: number | undefined;
  /** Per standing instance; undefined when the points do not vary the instance count. */
  perInstance: number | undefined;
  /** Per unit of churn; undefined when the points do not vary the churn. */
  perChurn: number | undefined;
  /**
   * Per node per unit of churn (d of nodes·churn); undefined unless the churned points
   * have at least two node counts (else it cannot be told apart from c).
   */
  perNodeChurn: number | undefined;
  /** Coefficient of determination, 1 − SSres/SStot; 1 when every rate is equal and fitted exactly. */
  r2: number;
  /** Points the fit used. */
  n: number;
  /** rate − fitted, point by point. */
  residuals: number[];
}

/** Solves the square system `m·x = v` by Gaussian elimination with partial pivoting. */
export function solve(m: readonly (readonly number[])[], v: readonly number[]): number[] {
  const n = v.length;
  const a = m.map((row, i) => [...row, v[i] as number]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(a[r]![col]!) > Math.abs(a[pivot]![col]!)) pivot = r;
    if (Math.abs(a[pivot]![col]!) < 1e-12) throw new Error('singular system: the points do not determine the model');
    [a[col], a[pivot]] = [a[pivot]!, a[col]!];
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const f = a[r]![col]! / a[col]![col]!;
      for (let c = col; c <= n; c++) a[r]![c]! -= f * a[col]![c]!;
    }
  }
  return a.map((row, i) => row[n]! / row[i]!);
}

/**
 * Least squares over design rows `x` (each row without the constant) and targets `y`:
 * [intercept, coefficient per column].
 */
export function leastSquares(x: readonly (readonly number[])[], y: readonly number[]): number[] {
  const k = (x[0]?.length ?? 0) + 1;
  if (y.length < k) throw new Error(`${y.length} points cannot fit ${k} parameters`);
  const xtx = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  const xty = new Array<number>(k).fill(0);
  x.forEach((row, i) => {
    const r = [1, ...row];
    for (let p = 0; p < k; p++) {
      xty[p]! += r[p]! * y[i]!;
      for (let q = 0; q < k; q++) xtx[p]![q]! += r[p]! * r[q]!;
    }
  });
  return solve(xtx, xty);
}

function varies(values: readonly number[]): boolean {
  return values.some((v) => v !== values[0]);
}

/**
 * Fits `rate ≈ base + a·nodes + b·instances + c·churn + d·nodes·churn`. A dimension the
 * points hold constant is left out of the model (its coefficient undefined): it cannot be
 * told apart from base; so is d unless the points with churn have two node counts or more.
 */
export function fitLoad(points: readonly FitPoint[]): LinearFit {
  if (points.length === 0) throw new Error('no points to fit');
  const churnOf = (p: FitPoint): number => p.churn ?? 0;
  const useNodes = varies(points.map((p) => p.nodes));
  const useInstances = varies(points.map((p) => p.instances));
  const useChurn = varies(points.map(churnOf));
  const useCross = useNodes && useChurn && varies(points.filter((p) => churnOf(p) > 0).map((p) => p.nodes));
  const columns: ((p: FitPoint) => number)[] = [
    ...(useNodes ? [(p: FitPoint) => p.nodes] : []),
    ...(useInstances ? [(p: FitPoint) => p.instances] : []),
    ...(useChurn ? [churnOf] : []),
    ...(useCross ? [(p: FitPoint) => p.nodes * churnOf(p)] : []),
  ];
  const y = points.map((p) => p.rate);
  const coef = leastSquares(points.map((p) => columns.map((c) => c(p))), y);
  const base = coef[0] as number;
  let k = 1;
  const next = (used: boolean): number | undefined => (used ? coef[k++] : undefined);
  const perNode = next(useNodes);
  const perInstance = next(useInstances);
  const perChurn = next(useChurn);
  const perNodeChurn = next(useCross);
  const fitted = points.map(
    (p) => base + (perNode ?? 0) * p.nodes + (perInstance ?? 0) * p.instances + (perChurn ?? 0) * churnOf(p) + (perNodeChurn ?? 0) * p.nodes * churnOf(p),
  );
  const residuals = y.map((v, i) => v - (fitted[i] as number));
  const mean = y.reduce((s, v) => s + v, 0) / y.length;
  const ssTot = y.reduce((s, v) => s + (v - mean) ** 2, 0);
  const ssRes = residuals.reduce((s, r) => s + r * r, 0);
  const r2 = ssTot === 0 ? (ssRes < 1e-9 ? 1 : Number.NaN) : 1 - ssRes / ssTot;
  return { base, perNode, perInstance, perChurn, perNodeChurn, r2, n: points.length, residuals };
}

/** The model as text: `12.3 + 4.56·nodes + 0.78·instances + 2.00·churn + 0.10·nodes·churn`. */
export function formatFit(fit: LinearFit, digits = 2): string {
  // Rounded first, so a coefficient of −1e-15 prints as 0.00, not −0.00.
  const round = (v: number): number => Number(v.toFixed(digits)) || 0;
  const term = (v: number | undefined, name: string): string =>
    v === undefined ? '' : ` ${round(v) < 0 ? '−' : '+'} ${Math.abs(round(v)).toFixed(digits)}·${name}`;
  const base = round(fit.base);
  return `${base < 0 ? '−' : ''}${Math.abs(base).toFixed(digits)}${term(fit.perNode, 'nodes')}${term(fit.perInstance, 'instances')}${term(fit.perChurn, 'churn')}${term(fit.perNodeChurn, 'nodes·churn')}`;
}
