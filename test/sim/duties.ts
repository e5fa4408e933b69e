// The duties over a range of the simulation's seeds (harness/sim/), one test per duty, so
// a failure names its duty and prints each violating seed with its trace and the command
// that replays it. SIM_SEED=<n> runs that one seed instead. CI runs seeds 1-1000 in two
// files of 500 (duties-1, duties-2), one per core. On the code of issue 36's day the two
// operator-stop duties failed in 53 and 21 of seeds 1-1000 (the lost stop:
// test/sim/lost-stop.test.ts; its STOPPED report, not retried when it lands on a silent
// replica). With the own-state watcher, its hedged reads and retried report, and the
// balancer parting a poll from its watch, six seeds still hear a stop late: OPEN_LATE_STOPS
// below, each named and left open (issue 36's closing note), so that any other seed that
// breaks the duty — or one of these fixed — fails the test.
import { beforeAll, describe, expect, it } from 'vitest';
import { runSeed } from '../../harness/sim/run.js';
import type { Duty, RunResult } from '../../harness/sim/run.js';
import { printed } from './helpers.js';

/**
 * The seeds of 1-1000 whose operator stop is still heard late, with what each shows. Open
 * work: a fixed one is taken off this list; a new one is a regression.
 */
const OPEN_LATE_STOPS: ReadonlyMap<number, string> = new Map([
  [158, 'feed mode, heard 5.3 s after a live replica could answer'],
  [227, 'polling, 2.7 s against the 2.2 s of a poll and a tick'],
  [260, 'feed mode, 5.2 s'],
  [610, 'polling, 7.9 s: a poll failed and the interval doubled'],
  [825, 'feed mode, 3.0 s'],
  [883, 'feed mode, 2.5 s'],
]);

/** Declares the duty tests over seeds from..to (inclusive). */
export function dutyTests(from: number, to: number): void {
  const only = process.env['SIM_SEED'];
  const seeds = only ? [Number(only)] : Array.from({ length: to - from + 1 }, (_, i) => from + i);
  const results: RunResult[] = [];

  beforeAll(async () => {
    for (const seed of seeds) results.push(await runSeed(seed));
  }, 900_000);

  /** Every violation of `duty` over the seeds, printed (at most 5, then a count). */
  const violationsOf = (duty: Duty): string[] => {
    const all = results.flatMap((r) => r.violations.filter((v) => v.duty === duty));
    return all.length <= 5 ? all.map(printed) : [...all.slice(0, 5).map(printed), `… and ${all.length - 5} more seeds`];
  };

  describe(`the duties over ${only ? `seed ${only}` : `seeds ${from}-${to}`}`, () => {
    it('ran every seed', () => {
      expect(results.map((r) => r.seed)).toEqual(seeds);
    });
    it('stop-heard: an operator stop is heard within 2 s of the first moment a live replica could answer (but the open seeds)', () => {
      const open = [...OPEN_LATE_STOPS.keys()].filter((seed) => seeds.includes(seed));
      const late = results.flatMap((r) => r.violations.filter((v) => v.duty === 'stop-heard')).filter((v) => !OPEN_LATE_STOPS.has(v.seed));
      expect(late.map(printed)).toEqual([]);
      // Each open seed still late: one fixed is taken off the list (and said in BENCHMARKS).
      const stillLate = results.filter((r) => open.includes(r.seed) && r.violations.some((v) => v.duty === 'stop-heard')).map((r) => r.seed);
      expect(stillLate).toEqual(open);
    });
    it('stop-recorded: a stopped daemon records STOPPED within its stop timeout', () => {
      expect(violationsOf('stop-recorded')).toEqual([]);
    });
    it('item-lost: every claimed item is resolved or released, never lost', () => {
      expect(violationsOf('item-lost')).toEqual([]);
    });
    it('item-fence: no job works on past its fence; the tier accepts one Resolve per item', () => {
      expect(violationsOf('item-fence')).toEqual([]);
    });
    it('lease-two-holders: never two keepers holding a lease at once', () => {
      expect(violationsOf('lease-two-holders')).toEqual([]);
    });
    it('cache-stale: no cached object served past its bound after an update', () => {
      expect(violationsOf('cache-stale')).toEqual([]);
    });
  });
}
