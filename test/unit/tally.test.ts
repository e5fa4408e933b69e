// A tallied counter (proto/runtime/tally.ts) reads as the prom-client counter it replaces:
// every increment, by series, at every read, and no series before its first increment.
import fc from 'fast-check';
import { Counter, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { TalliedCounter } from '../../proto/runtime/tally.js';

const SPEC = { name: 'x_total', kind: 'counter', help: 'x', labels: ['operation', 'caller_daemon'] } as const;

async function values(registry: Registry): Promise<Map<string, number>> {
  const metric = registry.getSingleMetric('x_total');
  const out = new Map<string, number>();
  for (const v of (await metric?.get())?.values ?? []) out.set(`${v.labels.operation}/${v.labels.caller_daemon}`, v.value);
  return out;
}

describe('TalliedCounter', () => {
  it('reads as a prom-client counter given the same increments, read after any of them', async () => {
    const op = fc.record({ pair: fc.tuple(fc.constantFrom('GetNode', 'ListNodes', 'a/b'), fc.constantFrom('bench', 'x y', '')), by: fc.option(fc.double({ min: 0, max: 10, noNaN: true }), { nil: undefined }), read: fc.boolean() });
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 60 }), async (ops) => {
        const tallied = new Registry();
        const plain = new Registry();
        const counter = new TalliedCounter(SPEC, tallied);
        const reference = new Counter({ name: 'x_total', help: 'x', labelNames: ['operation', 'caller_daemon'], registers: [plain] });
        for (const { pair, by, read } of ops) {
          counter.tally(...pair).inc(by);
          reference.labels(...pair).inc(by);
          if (read) expect(await values(tallied)).toEqual(await values(plain));
        }
        const got = await values(tallied);
        const want = await values(plain);
        expect([...got.keys()].sort()).toEqual([...want.keys()].sort());
        for (const [k, v] of want) expect(got.get(k)).toBeCloseTo(v, 9);
      }),
      { numRuns: 200 },
    );
  });

  it('keeps one series per label values, made by its first increment, at 0 too', async () => {
    const registry = new Registry();
    const counter = new TalliedCounter(SPEC, registry);
    const a = counter.tally('GetNode', 'bench');
    expect(counter.tally('GetNode', 'bench')).toBe(a);
    expect(await values(registry)).toEqual(new Map());
    a.inc(0);
    expect(await values(registry)).toEqual(new Map([['GetNode/bench', 0]]));
    await expect(registry.metrics()).resolves.toContain('x_total{operation="GetNode",caller_daemon="bench"} 0');
  });

  it('refuses label values that do not fit its labels, and a counter spec of another kind', () => {
    const counter = new TalliedCounter(SPEC, new Registry());
    expect(() => counter.tally('GetNode')).toThrow(/1 label values for 2 labels/);
    expect(() => new TalliedCounter({ ...SPEC, kind: 'gauge' }, new Registry())).toThrow(/declared as a gauge/);
  });

  it('drops a sum that would fail the scrape (not finite, negative) and reads the rest', async () => {
    const registry = new Registry();
    const counter = new TalliedCounter(SPEC, registry);
    counter.tally('a', 'b').inc(Number.NaN);
    counter.tally('c', 'd').inc(-1);
    counter.tally('e', 'f').inc(2);
    expect(await values(registry)).toEqual(new Map([['e/f', 2]]));
  });
});
