import { describe, expect, it } from 'vitest';
import { checkBudget } from '../../ops/budget.js';
import type { LoadBudget } from '../../ops/budget.js';

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
});
