// A small load budget with a seconds model, shared by the tests of the budget's seconds
// ceilings and of the load tools that show them.
import type { LoadBudget } from '../../proto/runtime/budget.js';

/**
 * Heartbeats (resources): 0.25 calls/s and 0.0005 MariaDB s/s per node; GetNode (cleaner):
 * 0.1 calls/s, no seconds model. Ceilings ×1.5, floors 0.2 calls/s and 0.05 s/s.
 */
export const SECONDS_BUDGET: LoadBudget = {
  derivation: { command: 'test', derivedAt: '', mode: 'feed', runs: [] },
  ceiling: { factor: 1.5, floor: 0.2, secondsFloor: 0.05 },
  unbudgetedSteadyRate: 1 / 60,
  pairs: [
    { operation: 'NodeHeartbeat', caller_daemon: 'resources', cluster: 0, perNode: 0.25, perInstance: 0, r2: 1, seconds: { cluster: 0, perNode: 0.0005, perInstance: 0, r2: 1 } },
    { operation: 'GetNode', caller_daemon: 'cleaner', cluster: 0.1, perNode: 0, perInstance: 0, r2: 1 },
  ],
};
