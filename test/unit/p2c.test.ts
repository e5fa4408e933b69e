// The p2c picker's choice and counting, with the random source injected: which of two
// drawn endpoints wins, that long-polls are counted apart, and that the counts move
// exactly with grpc-js's onCallStarted / onCallEnded (never below zero, nothing kept
// after a call that failed, was cancelled, or never started).
import { Metadata, experimental, status } from '@grpc/grpc-js';
import fc from 'fast-check';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { BalancerMetrics } from '../../client/metrics.js';
import { EndpointLoad, LONG_POLL_MARK, P2cPicker, chooseTwo } from '../../client/p2c.js';
import type { RandomSource } from '../../client/p2c.js';

/** A random source that answers `values` in turn (and fails the test when it runs out). */
function scripted(...values: number[]): RandomSource {
  let i = 0;
  return () => {
    if (i >= values.length) throw new Error(`the picker drew more than ${values.length} random numbers`);
    return values[i++] as number;
  };
}

function loads(...counts: [calls: number, longPolls: number][]): EndpointLoad[] {
  return counts.map(([calls, longPolls]) => Object.assign(new EndpointLoad(), { calls, longPolls }));
}

/** A leaf picker that always completes on its own (fake) subchannel. */
function leaf(name: string): experimental.Picker {
  const subchannel = { name } as unknown as experimental.PickResult['subchannel'];
  return {
    pick: () => ({ pickResultType: experimental.PickResultType.COMPLETE, subchannel, status: null, onCallStarted: null, onCallEnded: null }),
  };
}

const pickArgs = (longPoll = false): experimental.PickArgs => {
  const metadata = new Metadata();
  metadata.set('x-sfdb-caller-daemon', 'test');
  if (longPoll) metadata.set(LONG_POLL_MARK, '1');
  return { metadata, extraPickInfo: {} };
};

const ended = (result: experimental.PickResult): void => result.onCallEnded?.(status.OK, '', new Metadata());

describe('chooseTwo', () => {
  it('picks the only endpoint without drawing', () => {
    expect(chooseTwo(loads([5, 5]), 'call', scripted())).toEqual({ index: 0, choice: 'single' });
  });

  it('always draws two distinct endpoints, whatever the random numbers', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 9 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (n, r1, r2) => {
        // Every endpoint but one is loaded: whichever index wins must be one of the two drawn.
        const counts = Array.from({ length: n }, (_, i) => [i + 1, 0] as [number, number]);
        const draws: number[] = [];
        const random: RandomSource = () => {
          const r = draws.length === 0 ? r1 : r2;
          draws.push(r);
          return r;
        };
        const { index, choice } = chooseTwo(loads(...counts), 'call', random);
        expect(choice).toBe('less_loaded');
        const a = Math.floor(r1 * n);
        let b = Math.floor(r2 * (n - 1));
        if (b >= a) b += 1;
        expect(a).not.toBe(b);
        expect(index).toBe(Math.min(a, b)); // count i + 1: the lower index has fewer calls
      }),
    );
  });

  it('the endpoint with fewer calls in flight wins, in either order of the draw', () => {
    const l = loads([4, 0], [1, 0], [9, 0]);
    // draws: a = floor(0.0 * 3) = 0; b = floor(0.0 * 2) = 0, bumped to 1 → endpoints 0 and 1
    expect(chooseTwo(l, 'call', scripted(0, 0))).toEqual({ index: 1, choice: 'less_loaded' });
    // a = floor(0.5 * 3) = 1; b = floor(0 * 2) = 0 → endpoints 1 and 0
    expect(chooseTwo(l, 'call', scripted(0.5, 0))).toEqual({ index: 1, choice: 'less_loaded' });
    // a = 2, b = 1: endpoint 1 again beats endpoint 2
    expect(chooseTwo(l, 'call', scripted(0.9, 0.9))).toEqual({ index: 1, choice: 'less_loaded' });
    // a = 2, b = 0: 4 beats 9
    expect(chooseTwo(l, 'call', scripted(0.9, 0.1))).toEqual({ index: 0, choice: 'less_loaded' });
  });

  it('a tie is decided by a third draw', () => {
    const l = loads([2, 0], [2, 0], [0, 0]);
    expect(chooseTwo(l, 'call', scripted(0, 0, 0.2))).toEqual({ index: 0, choice: 'tie' });
    expect(chooseTwo(l, 'call', scripted(0, 0, 0.7))).toEqual({ index: 1, choice: 'tie' });
  });

  it('counts long-polls apart from calls', () => {
    // Endpoint 0 holds many calls but no long-poll; endpoint 1 holds one long-poll.
    const l = loads([50, 0], [0, 1]);
    expect(chooseTwo(l, 'long_poll', scripted(0, 0))).toEqual({ index: 0, choice: 'less_loaded' });
    expect(chooseTwo(l, 'call', scripted(0, 0))).toEqual({ index: 1, choice: 'less_loaded' });
  });
});

describe('P2cPicker', () => {
  const two = (): { a: EndpointLoad; b: EndpointLoad; picker: P2cPicker } => {
    const [a, b] = loads([0, 0], [0, 0]) as [EndpointLoad, EndpointLoad];
    const metrics = new BalancerMetrics(new Registry());
    // Every pick draws a = 0, b = 1, and a tie goes to endpoint 0 (0.1 < 0.5).
    const picker = new P2cPicker(
      [
        { picker: leaf('a'), load: a },
        { picker: leaf('b'), load: b },
      ],
      () => 0.1,
      metrics,
    );
    return { a, b, picker };
  };

  it('counts a call from its start to its end, on the endpoint it chose', () => {
    const { a, b, picker } = two();
    const first = picker.pick(pickArgs());
    expect(first.subchannel).toMatchObject({ name: 'a' });
    expect(a.calls).toBe(0); // picked but not started: not counted yet
    first.onCallStarted?.();
    expect([a.calls, b.calls]).toEqual([1, 0]);
    const second = picker.pick(pickArgs()); // a has one in flight: b wins
    expect(second.subchannel).toMatchObject({ name: 'b' });
    second.onCallStarted?.();
    expect([a.calls, b.calls]).toEqual([1, 1]);
    ended(first);
    second.onCallEnded?.(status.CANCELLED, 'Cancelled on client', new Metadata());
    expect([a.calls, b.calls]).toEqual([0, 0]);
  });

  it('never counts below zero: an end without a start, or a second end, changes nothing', () => {
    const { a, picker } = two();
    const neverStarted = picker.pick(pickArgs());
    ended(neverStarted);
    expect(a.calls).toBe(0);
    neverStarted.onCallStarted?.(); // a start after the end is not counted either
    expect(a.calls).toBe(0);
    const twice = picker.pick(pickArgs());
    twice.onCallStarted?.();
    twice.onCallStarted?.();
    expect(a.calls).toBe(1);
    ended(twice);
    ended(twice);
    expect(a.calls).toBe(0);
  });

  it('counts a long-poll apart and removes its mark before the call is sent', () => {
    const { a, picker } = two();
    const args = pickArgs(true);
    const poll = picker.pick(args);
    poll.onCallStarted?.();
    expect([a.calls, a.longPolls]).toEqual([0, 1]);
    expect(args.metadata.get(LONG_POLL_MARK)).toEqual([]);
    expect(args.metadata.get('x-sfdb-caller-daemon')).toEqual(['test']);
    const call = picker.pick(pickArgs()); // the long-poll does not count against a for calls
    expect(call.subchannel).toMatchObject({ name: 'a' });
    ended(poll);
    expect(a.longPolls).toBe(0);
  });

  it('passes a leaf result that is not COMPLETE through uncounted', () => {
    const load = new EndpointLoad();
    const queue = new experimental.QueuePicker({ exitIdle() {} } as unknown as experimental.LoadBalancer);
    const picker = new P2cPicker([{ picker: queue as unknown as experimental.Picker, load }], Math.random, undefined);
    const result = picker.pick(pickArgs());
    expect(result.pickResultType).toBe(experimental.PickResultType.QUEUE);
    expect(result.onCallStarted).toBeNull();
    expect(load.calls).toBe(0);
  });

  it('counts its picks by kind and by how they were decided', async () => {
    const registry = new Registry();
    const metrics = new BalancerMetrics(registry);
    const [a, b] = loads([0, 0], [3, 0]) as [EndpointLoad, EndpointLoad];
    const picker = new P2cPicker(
      [
        { picker: leaf('a'), load: a },
        { picker: leaf('b'), load: b },
      ],
      scripted(0, 0, 0, 0, 0),
      metrics,
    );
    picker.pick(pickArgs()); // calls 0 vs 3: less_loaded
    picker.pick(pickArgs(true)); // long-polls 0 vs 0: tie (a third draw)
    const text = await registry.metrics();
    expect(text).toContain('database_client_p2c_picks_total{kind="call",choice="less_loaded"} 1');
    expect(text).toContain('database_client_p2c_picks_total{kind="long_poll",choice="tie"} 1');
    expect(text).not.toMatch(/choice="single"/);
  });
});

describe('long-polls of many processes', () => {
  it('spread over the replicas when every process holds one', () => {
    // 300 processes, one channel each (fresh loads), 3 replicas, a seeded random source.
    let seed = 42;
    const random: RandomSource = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const held = [0, 0, 0];
    for (let p = 0; p < 300; p++) {
      const { index } = chooseTwo(loads([0, 0], [0, 0], [0, 0]), 'long_poll', random);
      held[index] = (held[index] as number) + 1;
    }
    expect(held.reduce((s, n) => s + n, 0)).toBe(300);
    for (const n of held) expect(n).toBeGreaterThan(60); // none holds all; each near a third
  });
});
