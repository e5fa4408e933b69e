import { describe, expect, it } from 'vitest';
import { budgetOf, fitThroughOrigin } from '../../bench/cluster/budget-fit.js';
import type { BudgetPoint } from '../../bench/cluster/budget-fit.js';
import { checkBudget, churnAbove, expectedRate, expectedSeconds, judgeRates, parseLoadBudget, quietChangeRate, secondsCeilingOf, statusText } from '../../proto/runtime/budget.js';
import type { LoadBudget } from '../../proto/runtime/budget.js';
import { SECONDS_BUDGET } from '../helpers/budget.js';

describe('load budget', () => {
  const budget: LoadBudget = {
    derivation: { command: 'test', derivedAt: '', mode: 'anchor', runs: [] },
    ceiling: { factor: 1.5, floor: 0.2 },
    unbudgetedSteadyRate: 1 / 60,
    pairs: [{ operation: 'GetNodeDaemonState', caller_daemon: 'queues', cluster: 0, perNode: 0.5, perInstance: 0, r2: 1 }],
  };

  it('flags a pair over its ceiling and an unbudgeted steady pair, ignoring other callers', () => {
    const shape = { nodes: 4, instances: 8 };
    const v = checkBudget(
      budget,
      [
        { operation: 'GetNodeDaemonState', caller_daemon: 'queues', rate: 2.9 }, // ceiling max(3, 2.2) = 3
        { operation: 'GetNode', caller_daemon: 'queues', rate: 5 },
        { operation: 'ListLeases', caller_daemon: 'queues', rate: 0.001 }, // not steady
        { operation: 'Enqueue', caller_daemon: 'bench', rate: 9 },
      ],
      shape,
      new Set(['queues']),
    );
    expect(v).toEqual([{ kind: 'unbudgeted', operation: 'GetNode', caller_daemon: 'queues', rate: 5 }]);
    const over = checkBudget(budget, [{ operation: 'GetNodeDaemonState', caller_daemon: 'queues', rate: 3.1 }], shape, new Set(['queues']));
    expect(over).toEqual([{ kind: 'over-ceiling', operation: 'GetNodeDaemonState', caller_daemon: 'queues', rate: 3.1, ceiling: 3 }]);
  });

  it('adds the churn terms only when there is churn: a quiet cluster is judged as before', () => {
    const pair = { operation: 'GetObjectState', caller_daemon: 'sidechannel', cluster: 0.1, perNode: 0.2, perInstance: 0.01, perChurn: 3, perNodeChurn: 0.5, r2: 1 };
    expect(expectedRate(pair, { nodes: 4, instances: 10 })).toBeCloseTo(0.1 + 0.8 + 0.1, 12);
    expect(expectedRate(pair, { nodes: 4, instances: 10, churn: 0 })).toBeCloseTo(1, 12);
    expect(expectedRate(pair, { nodes: 4, instances: 10, churn: 2 })).toBeCloseTo(1 + 6 + 4, 12);
    // A budget without churn terms (older, or a pair churn does not touch) ignores churn.
    const quiet = { ...budget.pairs[0]!, perChurn: undefined };
    expect(expectedRate(quiet, { nodes: 4, instances: 0, churn: 5 })).toBe(2);
    const churned = { ...budget, pairs: [{ ...budget.pairs[0]!, perChurn: 1 }] };
    expect(checkBudget(churned, [{ operation: 'GetNodeDaemonState', caller_daemon: 'queues', rate: 5 }], { nodes: 4, instances: 8, churn: 2 }, new Set(['queues']))).toEqual([]);
    expect(checkBudget(churned, [{ operation: 'GetNodeDaemonState', caller_daemon: 'queues', rate: 5 }], { nodes: 4, instances: 8 }, new Set(['queues']))).toHaveLength(1);
  });

  it('reads churn as the measured change rate above the quiet cluster’s, never below 0', () => {
    const withModel = { changeRate: { cluster: 0.5, perNode: 0.25, perInstance: 0.1 } };
    expect(quietChangeRate(withModel, { nodes: 4, instances: 10 })).toBeCloseTo(2.5, 12);
    expect(churnAbove(withModel, { nodes: 4, instances: 10 }, 4)).toBeCloseTo(1.5, 12);
    expect(churnAbove(withModel, { nodes: 4, instances: 10 }, 1)).toBe(0);
    expect(churnAbove({}, { nodes: 4, instances: 10 }, 40)).toBe(0);
    expect(() => parseLoadBudget(JSON.stringify({ ...budget, changeRate: { cluster: 1 } }))).toThrow(/changeRate/);
    expect(() => parseLoadBudget(JSON.stringify({ ...budget, pairs: [{ ...budget.pairs[0], perChurn: 'x' }] }))).toThrow(/pairs/);
    expect(parseLoadBudget(JSON.stringify({ ...budget, ...withModel })).changeRate).toEqual(withModel.changeRate);
  });
});

describe('budget derivation', () => {
  // Known truth: the quiet change rate is 1 + 0.5·nodes + 0.1·instances; a churned run adds
  // its churn on top. A pair: 0.2 + 0.3·nodes + 0.05·instances + 2·churn + 0.25·nodes·churn.
  const changes = (nodes: number, instances: number, churn: number): number => 1 + 0.5 * nodes + 0.1 * instances + churn;
  const truth = (nodes: number, instances: number, churn: number): number => 0.2 + 0.3 * nodes + 0.05 * instances + 2 * churn + 0.25 * nodes * churn;
  const point = (nodes: number, instances: number, churn: number): BudgetPoint => ({
    nodes,
    instances,
    churn,
    windowS: 40,
    changesPerSecond: changes(nodes, instances, churn),
    rates: new Map([
      ['GetObjectState|sidechannel', truth(nodes, instances, churn)],
      ['NodeHeartbeat|resources', 0.1 * nodes],
    ]),
  });
  const meta = { command: 'test', derivedAt: 'now', mode: 'feed', ceiling: { factor: 1.5, floor: 0.2 }, unbudgetedSteadyRate: 0.01667 };
  const quietRuns = [point(2, 4, 0), point(3, 4, 0), point(4, 4, 0), point(3, 0, 0), point(3, 8, 0)];

  it('recovers the quiet terms from the quiet runs and c, d from the churned runs', () => {
    const b = budgetOf(meta, [...quietRuns, point(3, 4, 1), point(4, 4, 1), point(3, 4, 2), point(4, 4, 2)]);
    expect(b.changeRate).toEqual({ cluster: 1, perNode: 0.5, perInstance: 0.1 });
    const pair = b.pairs.find((p) => p.operation === 'GetObjectState');
    expect(pair).toMatchObject({ cluster: 0.2, perNode: 0.3, perInstance: 0.05, perChurn: 2, perNodeChurn: 0.25, r2: 1 });
    // A pair churn does not move gets no churn load.
    expect(b.pairs.find((p) => p.operation === 'NodeHeartbeat')).toMatchObject({ perNode: 0.1, perChurn: 0, perNodeChurn: 0 });
    expect(b.derivation.runs.filter((r) => r.churn !== undefined)).toHaveLength(4);
  });

  it('without churned runs derives the quiet budget alone, with no change-rate model', () => {
    const b = budgetOf(meta, quietRuns);
    expect(b.changeRate).toBeUndefined();
    expect(b.pairs.find((p) => p.operation === 'GetObjectState')).toMatchObject({ cluster: 0.2, perNode: 0.3, perInstance: 0.05, r2: 1 });
    expect(b.pairs.every((p) => p.perChurn === undefined && p.perNodeChurn === undefined)).toBe(true);
    expect(() => budgetOf(meta, [point(3, 4, 1)])).toThrow(/quiet/);
  });

  it('fits through the origin', () => {
    expect(fitThroughOrigin([[1], [2], [3]], [2, 4, 6])[0]).toBeCloseTo(2, 12);
    expect(() => fitThroughOrigin([[1, 2]], [3])).toThrow(/cannot fit/);
  });
});

describe('seconds ceilings', () => {
  const budget = SECONDS_BUDGET;
  const shape = { nodes: 4, instances: 0 };
  const callers = new Set(['resources', 'cleaner']);

  it('uses the call ceiling’s rule with the seconds floor, and only where a pair has a seconds model', () => {
    const [heartbeat, getNode] = budget.pairs as [LoadBudget['pairs'][0], LoadBudget['pairs'][0]];
    expect(expectedSeconds(heartbeat, shape)).toBeCloseTo(0.002, 12);
    expect(secondsCeilingOf(budget, heartbeat, shape)).toBeCloseTo(0.052, 12); // max(0.003, 0.002 + 0.05)
    expect(secondsCeilingOf({ ...budget, ceiling: { factor: 1.5, floor: 0.2, secondsFloor: 0 } }, heartbeat, { nodes: 400, instances: 0 })).toBeCloseTo(0.3, 12); // 0.2 × 1.5
    expect(expectedSeconds(getNode, shape)).toBeNull();
    expect(secondsCeilingOf(budget, getNode, shape)).toBeNull();
  });

  it('names a pair over its seconds ceiling while its calls are within theirs, and judges no seconds it was not given', () => {
    const measured = [
      { operation: 'NodeHeartbeat', caller_daemon: 'resources', rate: 1, seconds: 0.4 }, // calls ceiling 1.5; seconds ceiling 0.052
      { operation: 'GetNode', caller_daemon: 'cleaner', rate: 0.1, seconds: 9 }, // no seconds model: not judged on seconds
    ];
    expect(checkBudget(budget, measured, shape, callers)).toEqual([
      { kind: 'over-seconds', operation: 'NodeHeartbeat', caller_daemon: 'resources', rate: 1, seconds: 0.4, secondsCeiling: expect.closeTo(0.052, 12) as number },
    ]);
    expect(checkBudget(budget, [{ ...measured[0]!, seconds: 0.05 }], shape, callers)).toEqual([]);
    expect(checkBudget(budget, [{ ...measured[0]!, seconds: null }], shape, callers)).toEqual([]);
    // Over both: two violations of the one pair.
    expect(checkBudget(budget, [{ ...measured[0]!, rate: 2 }], shape, callers).map((v) => v.kind)).toEqual(['over-ceiling', 'over-seconds']);
  });

  it('says which ceiling an OVER pair passed', () => {
    const judged = judgeRates(
      budget,
      [
        { operation: 'NodeHeartbeat', caller_daemon: 'resources', rate: 2, seconds: 0.4 },
        { operation: 'GetNode', caller_daemon: 'cleaner', rate: 1, seconds: 0 },
      ],
      shape,
    );
    expect(judged.map((r) => [r.status, r.over, statusText(r)])).toEqual([
      ['OVER', ['calls', 'seconds'], 'OVER calls+db s'],
      ['OVER', ['calls'], 'OVER calls'],
    ]);
    expect(judged[0]?.secondsCeiling).toBeCloseTo(0.052, 12);
    expect(statusText(judgeRates(budget, [{ operation: 'NodeHeartbeat', caller_daemon: 'resources', rate: 1, seconds: 1 }], shape)[0]!)).toBe('OVER db s');
  });

  it('refuses a seconds model without a seconds floor, or of the wrong shape', () => {
    expect(parseLoadBudget(JSON.stringify(budget)).ceiling.secondsFloor).toBe(0.05);
    expect(() => parseLoadBudget(JSON.stringify({ ...budget, ceiling: { factor: 1.5, floor: 0.2 } }))).toThrow(/secondsFloor/);
    const bad = { ...budget, pairs: [{ ...budget.pairs[0], seconds: { cluster: 'x' } }] };
    expect(() => parseLoadBudget(JSON.stringify(bad))).toThrow(/pairs/);
  });
});

describe('deriving seconds models', () => {
  // Known truth: calls 0.1·nodes; seconds 0.0004·nodes + 0.00002·instances + 0.001·churn.
  const point = (nodes: number, instances: number, churn: number, withSeconds = true): BudgetPoint => ({
    nodes,
    instances,
    churn,
    windowS: 40,
    changesPerSecond: 1 + churn,
    rates: new Map([['NodeHeartbeat|resources', 0.1 * nodes]]),
    ...(withSeconds ? { seconds: new Map([['NodeHeartbeat|resources', 0.0004 * nodes + 0.00002 * instances + 0.001 * churn]]) } : {}),
  });
  const meta = { command: 'test', derivedAt: 'now', mode: 'feed', ceiling: { factor: 1.5, floor: 0.2, secondsFloor: 0.05 }, unbudgetedSteadyRate: 0.01667 };
  const runs = [point(2, 4, 0), point(3, 4, 0), point(4, 4, 0), point(3, 0, 0), point(3, 8, 0), point(3, 4, 1), point(3, 4, 2)];

  it('fits each pair’s seconds the way its calls are fitted, and keeps the floor', () => {
    const b = budgetOf(meta, runs);
    expect(b.ceiling).toEqual({ factor: 1.5, floor: 0.2, secondsFloor: 0.05 });
    const p = b.pairs[0];
    expect(p).toMatchObject({ perNode: 0.1 });
    expect(p?.seconds).toMatchObject({ cluster: 0, perNode: 0.0004, perInstance: 0.00002, perChurn: 0.001, r2: 1 });
    expect(parseLoadBudget(JSON.stringify(b)).pairs[0]?.seconds?.perNode).toBe(0.0004);
  });

  it('derives no seconds model when a run did not measure seconds (an older tier), nor a floor', () => {
    const b = budgetOf(meta, [...runs.slice(1), point(2, 4, 0, false)]);
    expect(b.pairs[0]?.seconds).toBeUndefined();
    expect(b.ceiling).toEqual({ factor: 1.5, floor: 0.2 });
    expect(() => budgetOf({ ...meta, ceiling: { factor: 1.5, floor: 0.2 } }, runs)).toThrow(/secondsFloor/);
  });
});
