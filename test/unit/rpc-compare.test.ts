// bench:rpc's judging: a cell pools every phase of a target and in-flight value, and the
// targets are the median of round-by-round ratios over every phase.
import { describe, expect, it } from 'vitest';
import { baselineTable, checkTargets, checkTraced, phaseLine, summarize, tracedTable } from '../../bench/rpc/compare.js';
import type { Target } from '../../bench/rpc/protocol.js';
import { TARGETS, tracedTarget } from '../../bench/rpc/protocol.js';
import type { RoundRecord, TargetRun } from '../../bench/rpc/session.js';

function round(callsPerSecond: number, serverCpuUsPerCall: number, p50Ms = 1): RoundRecord {
  const calls = callsPerSecond; // one-second rounds
  return {
    calls,
    errors: 0,
    firstError: undefined,
    seconds: 1,
    callsPerSecond,
    p50Ms,
    p99Ms: p50Ms * 2,
    clientCpuUs: calls * 10,
    serverCpuUs: calls * serverCpuUsPerCall,
    mariadbCpuUs: calls * 20,
  };
}

function run(target: Target, inflight: number, rounds: RoundRecord[]): TargetRun {
  const calls = rounds.reduce((s, r) => s + r.calls, 0);
  return {
    target,
    inflight,
    rounds,
    summary: { calls, errors: 0, firstError: undefined, seconds: rounds.length, p50Ms: rounds[0]?.p50Ms ?? 0, p99Ms: rounds[0]?.p99Ms ?? 0, allCalls: calls },
    serverCounted: target === 'tier' ? calls : undefined,
  };
}

describe('bench:rpc judging over phases', () => {
  // Phase 1: tier at 0.80× bare; phases 2 and 3: 1.00×. Three rounds each.
  const bare = [1000, 1000, 1000].map((c) => round(c, 100));
  const runs = [
    run('bare', 64, bare),
    run('tier', 64, [800, 800, 800].map((c) => round(c, 130))),
    run('direct', 64, bare),
    run('bare', 64, bare),
    run('tier', 64, [1000, 1000, 1000].map((c) => round(c, 120))),
    run('direct', 64, bare),
    run('bare', 64, bare),
    run('tier', 64, [1000, 1000, 1000].map((c) => round(c, 120))),
    run('direct', 64, bare),
  ];
  const cells = summarize(runs, [64]);

  it('pools every phase into one cell per target and in-flight value', () => {
    const tier = cells.find((c) => c.target === 'tier');
    expect(tier?.phases).toHaveLength(3);
    expect(tier?.rounds).toHaveLength(9);
    expect(tier?.callsPerSecond).toBeCloseTo(8400 / 9);
  });

  it('judges the median of the rounds of every phase, not of one', () => {
    const [throughput, cpu] = checkTargets(cells);
    // Six of nine round ratios are 1.00×: the median holds though one phase did not.
    expect(throughput?.holds).toBe(true);
    expect(throughput?.text).toMatch(/1\.00×/);
    // Server CPU ratios: 1.3 (×3), 1.2 (×6): median 1.2.
    expect(cpu?.holds).toBe(true);
    expect(cpu?.text).toMatch(/1\.20×/);
  });

  it('says the ratio phase by phase', () => {
    expect(phaseLine(cells, 64)).toBe("tier/bare calls/s at 64 in flight, median of each phase's rounds: 0.80×, 1.00×, 1.00×");
    expect(phaseLine(summarize(runs.slice(0, 3), [64]), 64)).toBeUndefined();
  });

  it('fails a target that most phases miss', () => {
    const slow = runs.map((r, i) => (r.target === 'tier' && i > 2 ? run('tier', 64, [900, 900, 900].map((c) => round(c, 140))) : r));
    const [throughput, cpu] = checkTargets(summarize(slow, [64]));
    expect(throughput?.holds).toBe(false);
    expect(cpu?.holds).toBe(false);
  });
});

describe('bench:rpc with tiers that trace (--traced)', () => {
  const targets: Target[] = [...TARGETS, tracedTarget(1), tracedTarget(100)];
  const at = (target: Target, calls: number[], cpu: number): TargetRun => run(target, 64, calls.map((c) => round(c, cpu)));
  const phase = (one: number[], all: number[]): TargetRun[] => [
    at('direct', [2000, 2000, 2000], 0),
    at('bare', [1000, 1000, 1000], 100),
    at('tier', [1000, 1000, 1000], 120),
    at(tracedTarget(1), one, 121),
    at(tracedTarget(100), all, 150),
  ];

  it('compares each with the tier that does not trace, round by round, and judges 1 % within 3 %', () => {
    const cells = summarize([...phase([990, 980, 1000], [800, 800, 800]), ...phase([970, 990, 985], [820, 800, 790])], [64], targets);
    expect(checkTraced(cells)).toEqual([{ text: expect.stringMatching(/0\.99×/) as unknown as string, holds: true }]);
    const table = tracedTable(cells, [64], new Map([[tracedTarget(100), { spans: 6000, calls: 6000 }]]));
    expect(table).toMatch(/\| 64 \| 100 % \| 0\.80× .* \| \+30 µs .* \| 1\.25× .* \| 6,000 \/ 6,000 \|/);
    expect(table).toMatch(/\| 64 \| 1 % \| 0\.99× .* \| – \|/);
  });

  it('fails 1 % that costs more than 3 %, and judges nothing without one', () => {
    const cells = summarize(phase([950, 950, 960], [800, 800, 800]), [64], targets);
    expect(checkTraced(cells)[0]?.holds).toBe(false);
    expect(checkTraced(summarize(phase([950, 950, 960], [800, 800, 800]), [64]))).toEqual([]);
  });
});

describe('bench:rpc against a baseline revision (--baseline)', () => {
  const at = (target: Target, calls: number[], cpu: number): TargetRun => run(target, 64, calls.map((c) => round(c, cpu)));

  it("compares this checkout's tier with the baseline's round by round, and each with bare", () => {
    const targets: Target[] = [...TARGETS, 'baseline'];
    const cells = summarize(
      [at('direct', [2000, 2000], 0), at('bare', [1000, 1000], 100), at('tier', [900, 900], 120), at('baseline', [1000, 1000], 110)],
      [64],
      targets,
    );
    const table = baselineTable(cells, [64]);
    expect(table).toMatch(/\| 64 \| 0\.90× .* \| \+10 µs .* \| 1\.09× .* \| \+0\.000 ms .* \| 0\.90× .* \| 1\.00× .* \|/);
    expect(baselineTable(summarize([at('bare', [1000], 100), at('tier', [900], 120)], [64]), [64]).split('\n')).toHaveLength(2);
  });
});
