import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { roundOrder } from '../../bench/rpc/order.js';

describe('bench:rpc round order', () => {
  it('is a permutation of the targets, the same for the same phase and round', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string(), { maxLength: 10 }), fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 0, max: 100 }), (targets, phase, round) => {
        const order = roundOrder(targets, phase, round);
        expect([...order].sort()).toEqual([...targets].sort());
        expect(roundOrder(targets, phase, round)).toEqual(order);
      }),
    );
  });

  it('gives every target every other as its predecessor within a run of 12 phases of 3 rounds', () => {
    const targets = ['direct', 'bare', 'tier', 'traced 0%', 'traced 1%'];
    const follows = new Map(targets.map((t) => [t, new Set<string>()]));
    for (let phase = 1; phase <= 12; phase++) {
      for (let round = 0; round < 3; round++) {
        const order = roundOrder(targets, phase, round);
        for (let i = 1; i < order.length; i++) follows.get(order[i] as string)?.add(order[i - 1] as string);
      }
    }
    for (const t of targets) expect([...(follows.get(t) ?? [])].sort()).toEqual(targets.filter((x) => x !== t).sort());
  });
});
