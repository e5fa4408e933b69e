// The order of the targets in each round of a phase (main.ts). A target measured right after
// another may run while that one's server and load client are still settling (a collection
// once its load stops, its pool going idle). In a fixed order, or one only turned round by
// round, each target would always follow the same one, and a comparison of two targets
// would carry whatever that costs in every round. Each round is therefore a shuffle of its
// own, drawn from a PRNG seeded by the phase and the round: a run's orders are the same
// every time it is run.
import { seededRandom } from '../../harness/sim/scheduler.js';

/** The targets in the order round `round` (0-based) of phase `phase` (1-based) measures them. */
export function roundOrder<T>(targets: readonly T[], phase: number, round: number): T[] {
  const random = seededRandom(phase * 1_000 + round);
  const order = [...targets];
  // Fisher–Yates.
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j] as T, order[i] as T];
  }
  return order;
}
