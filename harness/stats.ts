// Small statistics for latency samples and repeated runs, shared by the benchmarks.

/** Nearest-rank percentile of sorted samples (q in 0..1); NaN for none. */
export function percentile(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length)));
  return sorted[rank - 1] as number;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  const mid = Math.floor(n / 2);
  return n % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Latencies in nanoseconds, appended without per-sample allocation. */
export class Samples {
  private data = new Float64Array(1 << 16);
  private n = 0;

  add(value: number): void {
    if (this.n === this.data.length) {
      const bigger = new Float64Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.n++] = value;
  }

  get count(): number {
    return this.n;
  }

  /** Sorted copy of the samples. */
  sorted(): Float64Array {
    return this.data.slice(0, this.n).sort();
  }
}
