// A simulated run is a pure function of its seed (harness/sim/): replayed, the same
// plan, the same violations, the same trace, and Math.random back as it was.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OwnStateWatcher } from '../../daemons/own-state.js';
import { runSeed } from '../../harness/sim/run.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a seed replays exactly', () => {
  it('two runs of a seed that breaks a duty give the same violations and trace', async () => {
    const random = Math.random;
    // The lost stop planted back (a change heard on the state topic owes no read), and seed
    // 64, whose stop it loses (test/sim/lost-stop.test.ts).
    vi.spyOn(OwnStateWatcher.prototype as unknown as Record<string, () => void>, 'heard').mockImplementation(() => undefined);
    const a = await runSeed(64, { traceLines: 200 });
    const b = await runSeed(64, { traceLines: 200 });
    expect(a.violations.length).toBeGreaterThan(0);
    expect(b.plan).toEqual(a.plan);
    expect(b.events).toBe(a.events);
    expect(b.violations).toEqual(a.violations);
    expect(Math.random).toBe(random);
  });

  it('a seed run after others is the same as run alone', async () => {
    const alone = await runSeed(7, { traceLines: 200 });
    await runSeed(8);
    await runSeed(9);
    const after = await runSeed(7, { traceLines: 200 });
    expect(after.events).toBe(alone.events);
    expect(after.violations).toEqual(alone.violations);
  });
});
