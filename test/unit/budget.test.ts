import { describe, expect, it } from 'vitest';
import { checkBudget, fitRates } from '../../ops/budget.js';
import type { LoadBudget } from '../../ops/budget.js';

describe('load budget', () => {
  it('fits rate ≈ cluster + a·nodes + b·instances exactly on exact data', () => {
    const points = [
      { nodes: 2, instances: 8 },
      { nodes: 4, instances: 8 },
      { nodes: 6, instances: 8 },
      { nodes: 6, instances: 0 },
      { nodes: 6, instances: 32 },
    ].map((shape) => ({ shape, rate: 0.1 + 0.5 * shape.nodes + 0.25 * shape.instances }));
    const fit = fitRates(points);
    expect(fit.cluster).toBeCloseTo(0.1, 9);
    expect(fit.perNode).toBeCloseTo(0.5, 9);
    expect(fit.perInstance).toBeCloseTo(0.25, 9);
    expect(fit.r2).toBeCloseTo(1, 9);
  });

  it('drops a column that never varies instead of inventing a slope', () => {
    const fit = fitRates([2, 4, 6].map((nodes) => ({ shape: { nodes, instances: 8 }, rate: 3.5 * nodes })));
    expect(fit.perNode).toBeCloseTo(3.5, 9);
    expect(fit.perInstance).toBe(0);
  });

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
});
