// What the simulation's tests share (harness/sim/): seeds run in order until a violation
// of a duty shows, and a violation printed as the report wants it.
import { replayCommand, runSeed } from '../../harness/sim/run.js';
import type { Duty, RunResult, Violation } from '../../harness/sim/run.js';

/** A violation as printed: the seed, the duty, what broke, the trace, and how to replay it. */
export function printed(v: Violation): string {
  return [`seed ${v.seed}: ${v.duty} at ${(v.at / 1000).toFixed(3)} s: ${v.message}`, ...v.trace, `replay: ${replayCommand(v.seed)}`].join('\n');
}

/** Runs seeds from..to-1; answers the first violation of `duty` and how many seeds it took. */
export async function firstViolation(duty: Duty, from: number, to: number): Promise<{ violation: Violation | undefined; seeds: number }> {
  for (let seed = from; seed < to; seed++) {
    const r: RunResult = await runSeed(seed);
    const v = r.violations.find((x) => x.duty === duty);
    if (v) return { violation: v, seeds: seed - from + 1 };
  }
  return { violation: undefined, seeds: to - from };
}
