// The load regression check: a small simulated cluster with a little churn (docs/workload.md
// "Churn": instance lifecycles and static updates) in the shipped default mode (feed) and
// in its polling fallback (anchor), one run each on the same seeded cluster, must meet
// every duty, keep every (operation, caller) pair under its ceiling in its mode's committed
// budget (ops/load-budget.json, ops/load-budget.anchor.json) at the churn the tier's own
// feed counter measured, and show no steady pair the budget does not know. Positive
// controls prove the check can see: anchor's daemon-state reads measure one per poll
// interval per polling process; feed's are gone, and every daemon type holds its
// long-poll; a feed run with a planted wake-everyone subscription (every node's
// sidechannel woken by every instance change in the cluster) fails the same check; and a
// feed run with a planted slow statement (every node's heartbeat row held locked in spells
// from a connection of the test's own, bench/cluster/slow.ts) fails it on MariaDB seconds,
// naming NodeHeartbeat/resources over its seconds ceiling while every call ceiling holds.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUDGET_FILES } from '../../ops/budget.js';
import { checkBudget, churnAbove, pairKey } from '../../proto/runtime/budget.js';
import type { LoadBudget, Violation } from '../../proto/runtime/budget.js';
import { DEFAULT_RUN } from '../../bench/cluster/options.js';
import { DAEMON_TYPES } from '../../bench/cluster/protocol.js';
import type { ClusterResult, ModeResult } from '../../bench/cluster/results.js';
import { ClusterEnvironment, runCluster } from '../../bench/cluster/run.js';

const SHAPE = { nodes: 3, instances: 4, history: 100 };
/** A small churn: one lifecycle every 4 s and one static update every 4 s, instances living 20 s. */
const CHURN = { churnInstances: 0.25, churnStatic: 0.25, churnLifetimeS: 20 };
const POLL_MS = 2000;

let env: ClusterEnvironment;
let result: ClusterResult;
let planted: ClusterResult;
let slowed: ClusterResult;

beforeAll(async () => {
  env = await ClusterEnvironment.start();
  const run = { ...DEFAULT_RUN, ...SHAPE, ...CHURN, replicas: 1, warmupS: 10 };
  result = await runCluster({ ...run, modes: ['feed', 'anchor'], durationS: 40 }, env);
  planted = await runCluster({ ...run, modes: ['feed'], durationS: 30, plant: 'wake-everyone' }, env);
  slowed = await runCluster({ ...run, modes: ['feed'], durationS: 30, slow: 'heartbeat-lock' }, env);
}, 900_000);

afterAll(async () => {
  await env?.stop();
}, 120_000);

function mode(name: 'feed' | 'anchor', from: ClusterResult = result): ModeResult {
  const m = from.results.find((r) => r.mode === name);
  if (!m) throw new Error(`the ${name} mode did not run`);
  return m;
}

function rate(m: ModeResult, operation: string, daemon: string): number {
  return m.tier.pairs.find((p) => p.operation === operation && p.callerDaemon === daemon)?.perSecond ?? 0;
}

/**
 * The check CI runs: every pair of `m` against `name`'s committed budget, at the churn the
 * feed counter measured — its calls/s against its call ceiling, its MariaDB seconds/s
 * against its seconds ceiling.
 */
function budgetViolations(name: 'feed' | 'anchor', m: ModeResult): Violation[] {
  const budget = JSON.parse(readFileSync(BUDGET_FILES[name], 'utf8')) as LoadBudget;
  expect(budget.derivation.mode).toBe(name);
  // The replicas report MariaDB seconds, and the budget judges them.
  expect(m.tier.pairSeconds).toBeDefined();
  expect(budget.pairs.filter((p) => p.seconds !== undefined).length).toBe(budget.pairs.length);
  const seconds = new Map((m.tier.pairSeconds ?? []).map((p) => [pairKey({ operation: p.operation, caller_daemon: p.callerDaemon }), p.perSecond]));
  const measured = m.tier.pairs.map((p) => {
    const pair = { operation: p.operation, caller_daemon: p.callerDaemon };
    return { ...pair, rate: p.perSecond, seconds: seconds.get(pairKey(pair)) ?? 0 };
  });
  const shape = { ...SHAPE, churn: churnAbove(budget, SHAPE, m.tier.changesPerSecond ?? Number.NaN) };
  return checkBudget(budget, measured, shape, new Set(DAEMON_TYPES));
}

/**
 * Duties not judged by their verdict here. The polling fallback's cache forgets an updated
 * object by TTL only: anchor cannot meet the eviction bound. Feed's eviction is a p99 bound,
 * and this short run sees a handful of evictions (one static update every 4 s), whose p99 is
 * their max: one slow answer on a loaded CI machine would decide it. Here every holder must
 * drop the object (no miss) with a median within the bound; the p99 is the benchmark's, over
 * enough samples (docs/BENCHMARKS.md, "Churn").
 */
const NOT_HELD: Record<'feed' | 'anchor', readonly string[]> = { feed: ['static-evict'], anchor: ['static-evict'] };

describe.each(['feed', 'anchor'] as const)('%s', (name) => {
  it('meets every duty of docs/workload.md, the churn’s included', () => {
    const failed = mode(name).duties.filter((d) => d.held === false && !NOT_HELD[name].includes(d.duty));
    expect(failed).toEqual([]);
    expect(mode(name).duties.filter((d) => d.held === true).length).toBeGreaterThanOrEqual(7);
    // The churn ran and its state moves were judged.
    expect(mode(name).duties.find((d) => d.duty === 'churn-state')?.held).toBe(true);
    expect(mode(name).tier.changesPerSecond).toBeGreaterThan(0);
  });

  if (name === 'feed') {
    it('drops every held copy of an updated blob or node: no holder missed, median within the bound', () => {
      const evict = mode('feed').duties.find((d) => d.duty === 'static-evict');
      expect(evict?.samples).toBeGreaterThan(0);
      expect(evict?.misses).toBe(0);
      expect(evict?.p50Ms).toBeLessThanOrEqual(evict?.boundMs ?? 0);
    });
  }

  it(`keeps every (operation, caller) pair within ${BUDGET_FILES[name]} at the measured churn, with no unbudgeted steady pair`, () => {
    expect(budgetViolations(name, mode(name))).toEqual([]);
  });
});

it('fails the check with a planted wake-everyone subscription (feed)', () => {
  const m = mode('feed', planted);
  // The defect ran: every sidechannel re-read its instances on changes anywhere in the cluster.
  expect(m.duties.find((d) => d.duty === 'churn-state')?.held).toBe(true);
  const violations = budgetViolations('feed', m);
  expect(violations.filter((v) => v.caller_daemon === 'sidechannel').length).toBeGreaterThan(0);
  // The planted daemon is what fails, nothing else.
  expect(violations.filter((v) => v.caller_daemon !== 'sidechannel')).toEqual([]);
});

it('fails the check on MariaDB seconds with a planted slow statement (feed): NodeHeartbeat/resources over its seconds ceiling, every call ceiling held', () => {
  const m = mode('feed', slowed);
  const violations = budgetViolations('feed', m);
  const over = violations.filter((v) => v.kind === 'over-seconds');
  expect(over.map(pairKey)).toEqual(['NodeHeartbeat|resources']);
  expect(over[0]?.seconds).toBeGreaterThan(over[0]?.secondsCeiling ?? Infinity);
  // The calls were as many as ever: no call ceiling passed, no unbudgeted pair. Long-polls
  // (WaitForChanges) aside: their calls follow the feed's wake-ups, which the held rows
  // bunch and shift, and this 30 s run sees a dozen of each daemon's (net's once measured
  // 14 against a ceiling of 12.5); their ceilings are judged by the feed run above.
  const longPollOver = (v: Violation): boolean => v.kind === 'over-ceiling' && v.operation === 'WaitForChanges';
  expect(violations.filter((v) => v.kind !== 'over-seconds' && !longPollOver(v))).toEqual([]);
  // The same pair was within its seconds ceiling without the lock.
  const unslowed = mode('feed').tier.pairSeconds?.find((p) => p.operation === 'NodeHeartbeat' && p.callerDaemon === 'resources')?.perSecond ?? 0;
  expect(unslowed).toBeLessThan(over[0]?.secondsCeiling ?? 0);
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
