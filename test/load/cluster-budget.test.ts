// The load regression check: a small, quiet simulated cluster in the shipped default mode
// (anchor) must meet every duty, keep every (operation, caller) pair under its ceiling in
// ops/load-budget.json, and show no steady pair the budget does not know. A positive
// control proves the check can see: the daemon-state reads must measure one per poll
// interval per polling process.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { checkBudget } from '../../ops/budget.js';
import type { LoadBudget } from '../../ops/budget.js';
import { DEFAULT_RUN } from '../../bench/cluster/options.js';
import { DAEMON_TYPES } from '../../bench/cluster/protocol.js';
import type { ClusterResult } from '../../bench/cluster/results.js';
import { ClusterEnvironment, runCluster } from '../../bench/cluster/run.js';

const SHAPE = { nodes: 3, instances: 4, history: 100 };
const POLL_MS = 2000;

let env: ClusterEnvironment;
let result: ClusterResult;

beforeAll(async () => {
  env = await ClusterEnvironment.start();
  result = await runCluster({ ...DEFAULT_RUN, ...SHAPE, modes: ['anchor'], replicas: 1, warmupS: 8, durationS: 40 }, env);
}, 300_000);

afterAll(async () => {
  await env?.stop();
}, 120_000);

function anchor() {
  const mode = result.results[0];
  if (!mode) throw new Error('the anchor mode did not run');
  return mode;
}

it('meets every duty of WORKLOAD.md', () => {
  const failed = anchor().duties.filter((d) => d.held === false);
  expect(failed).toEqual([]);
  expect(anchor().duties.filter((d) => d.held === true).length).toBeGreaterThanOrEqual(6);
});

it('keeps every (operation, caller) pair within ops/load-budget.json, with no unbudgeted steady pair', () => {
  const budget = JSON.parse(readFileSync('ops/load-budget.json', 'utf8')) as LoadBudget;
  const measured = anchor().tier.pairs.map((p) => ({ operation: p.operation, caller_daemon: p.callerDaemon, rate: p.perSecond }));
  const violations = checkBudget(budget, measured, SHAPE, new Set(DAEMON_TYPES));
  expect(violations).toEqual([]);
});

it('sees what it checks: one daemon-state read per poll interval per polling process', () => {
  const pairs = anchor().tier.pairs;
  for (const daemon of DAEMON_TYPES) {
    const rate = pairs.find((p) => p.operation === 'GetNodeDaemonState' && p.callerDaemon === daemon)?.perSecond ?? 0;
    const expected = SHAPE.nodes / (POLL_MS / 1000);
    expect(rate, daemon).toBeGreaterThan(expected * 0.8);
    expect(rate, daemon).toBeLessThan(expected * 1.2);
  }
});
