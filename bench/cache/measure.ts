// A closed loop of `concurrency` callers, each reading a random uuid and at once the next.
// A warm-up is not counted; a call counts when it completes inside the measured window.
// Deadlines are checked inline (not with timers): cached reads resolve in microtasks and
// would starve a timer.
import { Samples, percentile } from '../../harness/stats.js';

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
