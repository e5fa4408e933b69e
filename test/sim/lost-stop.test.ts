// The lost operator stop of issue 36, found by the simulation on the code of its day
// (harness/sim/). Seed 64: replica r1 freezes at 21.120 s; the operator's stop of
// queues@A is written through a live replica at 22.968 s; the change wakes the daemon's
// feed idle, whose state read goes to r1 and fails DEADLINE_EXCEEDED at 27.968 s — and
// with the change already taken off the subscription, nothing reads the state again: the
// stop is never heard. This test fails until the framework retries that read (issue 36,
// deliverable 1). Replay: `npm run bench:sim -- --seed 64`.
import { describe, expect, it } from 'vitest';
import { runSeed } from '../../harness/sim/run.js';
import { printed } from './helpers.js';

describe('the operator stop of a daemon in feed mode, one replica frozen', () => {
  it('seed 64: the operator stop is heard within 2 s of the first moment a live replica could answer', async () => {
    const r = await runSeed(64);
    // The plan the seed draws, whatever the code under test does.
    expect(r.plan.episodes.map((e) => `r${e.replica} ${e.status} at ${Math.round(e.at)} ms`)).toContain('r1 frozen at 21120 ms');
    expect(r.plan.stop.target).toBe('queues');
    expect(r.violations.filter((v) => v.duty === 'stop-heard').map(printed)).toEqual([]);
  });
});
