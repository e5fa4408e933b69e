// A closed loop of `concurrency` callers, each reading a random uuid and at once the next.
// A warm-up is not counted; a call counts when it completes inside the measured window.
// Deadlines are checked inline (not with timers): cached reads resolve in microtasks and
// would starve a timer.

/** Latencies in milliseconds, appended without per-sample allocation. */
class Samples {
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

  sorted(): Float64Array {
    return this.data.slice(0, this.n).sort();
  }
}

/** Nearest-rank percentile of sorted samples (q in 0..1). */
function percentile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length))) - 1] as number;
}

export interface LoopResult {
  calls: number;
  seconds: number;
  readsPerSecond: number;
  p50Us: number;
  p99Us: number;
}

/** Runs the loop; `read` must answer something other than undefined (a found object). */
export async function closedLoop(
  read: (uuid: string) => Promise<unknown>,
  uuids: readonly string[],
  concurrency: number,
  warmupMs: number,
  measureMs: number,
): Promise<LoopResult> {
  const samples = new Samples();
  const start = performance.now();
  const from = start + warmupMs;
  const end = from + measureMs;
  const caller = async (): Promise<void> => {
    for (;;) {
      const t0 = performance.now();
      if (t0 >= end) return;
      const uuid = uuids[Math.floor(Math.random() * uuids.length)] as string;
      if ((await read(uuid)) === undefined) throw new Error(`${uuid}: not found`);
      const t1 = performance.now();
      if (t1 >= from && t1 <= end) samples.add(t1 - t0);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, caller));
  const sorted = samples.sorted();
  const seconds = measureMs / 1000;
  return {
    calls: samples.count,
    seconds,
    readsPerSecond: samples.count / seconds,
    p50Us: percentile(sorted, 0.5) * 1000,
    p99Us: percentile(sorted, 0.99) * 1000,
  };
}
