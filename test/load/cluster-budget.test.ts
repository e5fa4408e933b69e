// The load regression check: a small, quiet simulated cluster in the shipped default mode
// (feed) and in its polling fallback (anchor), one run each on the same seeded cluster,
// must meet every duty, keep every (operation, caller) pair under its ceiling in its
// mode's committed budget (ops/load-budget.json, ops/load-budget.anchor.json), and show
// no steady pair the budget does not know. Positive controls prove the check can see:
// anchor's daemon-state reads measure one per poll interval per polling process; feed's
// are gone, and every daemon type holds its long-poll.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUDGET_FILES, checkBudget } from '../../ops/budget.js';
import type { LoadBudget } from '../../ops/budget.js';
import { DEFAULT_RUN } from '../../bench/cluster/options.js';
import { DAEMON_TYPES } from '../../bench/cluster/protocol.js';
import type { ClusterResult, ModeResult } from '../../bench/cluster/results.js';
import { ClusterEnvironment, runCluster } from '../../bench/cluster/run.js';

const SHAPE = { nodes: 3, instances: 4, history: 100 };
const POLL_MS = 2000;

let env: ClusterEnvironment;
let result: ClusterResult;

beforeAll(async () => {
  env = await ClusterEnvironment.start();
  result = await runCluster({ ...DEFAULT_RUN, ...SHAPE, modes: ['feed', 'anchor'], replicas: 1, warmupS: 8, durationS: 40 }, env);
}, 400_000);

afterAll(async () => {
  await env?.stop();
}, 120_000);

function mode(name: 'feed' | 'anchor'): ModeResult {
  const m = result.results.find((r) => r.mode === name);
  if (!m) throw new Error(`the ${name} mode did not run`);
  return m;
}

function rate(m: ModeResult, operation: string, daemon: string): number {
  return m.tier.pairs.find((p) => p.operation === operation && p.callerDaemon === daemon)?.perSecond ?? 0;
}

describe.each(['feed', 'anchor'] as const)('%s', (name) => {
  it('meets every duty of WORKLOAD.md', () => {
    const failed = mode(name).duties.filter((d) => d.held === false);
    expect(failed).toEqual([]);
    expect(mode(name).duties.filter((d) => d.held === true).length).toBeGreaterThanOrEqual(6);
  });

  it(`keeps every (operation, caller) pair within ${BUDGET_FILES[name]}, with no unbudgeted steady pair`, () => {
    const budget = JSON.parse(readFileSync(BUDGET_FILES[name], 'utf8')) as LoadBudget;
    expect(budget.derivation.mode).toBe(name);
    const measured = mode(name).tier.pairs.map((p) => ({ operation: p.operation, caller_daemon: p.callerDaemon, rate: p.perSecond }));
    const violations = checkBudget(budget, measured, SHAPE, new Set(DAEMON_TYPES));
    expect(violations).toEqual([]);
  });
});

it('sees what it checks (anchor): one daemon-state read per poll interval per polling process', () => {
  for (const daemon of DAEMON_TYPES) {
    const r = rate(mode('anchor'), 'GetNodeDaemonState', daemon);
    const expected = SHAPE.nodes / (POLL_MS / 1000);
    expect(r, daemon).toBeGreaterThan(expected * 0.8);
    expect(r, daemon).toBeLessThan(expected * 1.2);
  }
});

it('sees what it checks (feed): no daemon polls its state, and every daemon type holds a long-poll', () => {
  for (const daemon of DAEMON_TYPES) {
    // Reads only when its own state changed (an operator stop injected now and then).
    expect(rate(mode('feed'), 'GetNodeDaemonState', daemon), daemon).toBeLessThan(rate(mode('anchor'), 'GetNodeDaemonState', daemon) * 0.2);
    expect(rate(mode('feed'), 'WaitForChanges', daemon), daemon).toBeGreaterThan(0);
  }
});
