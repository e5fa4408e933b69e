// A hedged call, with a fake clock: a second call goes out only when the first has not
// answered in time, a third only when neither has, the first answer wins and the other is cancelled, and a failure before
// the hedge is due is the caller's to retry.
import { describe, expect, it } from 'vitest';
import { HEDGE_AFTER_MS, HEDGE_MAX_CALLS, hedged } from '../../client/hedge.js';
import type { CallOptions } from '../../client/transport.js';
import { FakeClock, flush } from '../helpers/fake-clock.js';

interface Sent {
  opts: CallOptions;
  answer(value: string): void;
  fail(err: Error): void;
}

function calls() {
  const sent: Sent[] = [];
  const call = (opts: CallOptions): Promise<string> =>
    new Promise((resolve, reject) => {
      sent.push({ opts, answer: resolve, fail: reject });
      opts.signal?.addEventListener('abort', () => reject(new Error('cancelled')), { once: true });
    });
  return { sent, call };
}

describe('hedged', () => {
  it('sends one call when it answers before the hedge is due', async () => {
    const clock = new FakeClock();
    const { sent, call } = calls();
    const result = hedged(call, { clock });
    await clock.advance(HEDGE_AFTER_MS - 1);
    expect(sent).toHaveLength(1);
    sent[0]?.answer('a');
    expect(await result).toBe('a');
    await clock.advance(10_000);
    expect(sent).toHaveLength(1);
  });

  it('sends a second call when the first has not answered in time; the first answer wins and the other is cancelled', async () => {
    const clock = new FakeClock();
    const { sent, call } = calls();
    let hedges = 0;
    const result = hedged(call, { clock, deadlineMs: 900, onHedge: () => hedges++ });
    await clock.advance(HEDGE_AFTER_MS);
    expect(sent).toHaveLength(2);
    expect(hedges).toBe(1);
    expect(sent.map((s) => s.opts.deadlineMs)).toEqual([900, 900]);
    sent[1]?.answer('second');
    expect(await result).toBe('second');
    expect(sent[0]?.opts.signal?.aborted).toBe(true); // the hung first call is cancelled
  });

  it('sends a third call at three times the hedge delay when neither has answered, and no more', async () => {
    const clock = new FakeClock();
    const { sent, call } = calls();
    let hedges = 0;
    const result = hedged(call, { clock, onHedge: () => hedges++ });
    await clock.advance(HEDGE_AFTER_MS);
    expect(sent).toHaveLength(2);
    await clock.advance(2 * HEDGE_AFTER_MS - 1);
    expect(sent).toHaveLength(2);
    await clock.advance(1);
    expect(sent).toHaveLength(HEDGE_MAX_CALLS);
    await clock.advance(60_000);
    expect(sent).toHaveLength(HEDGE_MAX_CALLS);
    expect(hedges).toBe(HEDGE_MAX_CALLS - 1);
    sent[2]?.answer('third');
    expect(await result).toBe('third');
    expect(sent.slice(0, 2).every((s) => s.opts.signal?.aborted)).toBe(true);
  });

  it('sends no hedge with maxCalls 1', async () => {
    const clock = new FakeClock();
    const { sent, call } = calls();
    const result = hedged(call, { clock, maxCalls: 1 });
    await clock.advance(10 * HEDGE_AFTER_MS);
    expect(sent).toHaveLength(1);
    sent[0]?.answer('only');
    expect(await result).toBe('only');
  });

  it('does not hedge a call that failed before the hedge was due: the caller decides what comes next', async () => {
    const clock = new FakeClock();
    const { sent, call } = calls();
    const result = hedged(call, { clock });
    sent[0]?.fail(new Error('unavailable'));
    await expect(result).rejects.toThrow('unavailable');
    await clock.advance(HEDGE_AFTER_MS * 4);
    expect(sent).toHaveLength(1);
  });

  it('waits for the other call when one fails after the hedge went out, and rejects with the last error when both failed', async () => {
    const clock = new FakeClock();
    const { sent, call } = calls();
    const result = hedged(call, { clock });
    let settled = false;
    void result.then(
      () => (settled = true),
      () => (settled = true),
    );
    await clock.advance(HEDGE_AFTER_MS);
    sent[0]?.fail(new Error('deadline'));
    await flush();
    expect(settled).toBe(false);
    sent[1]?.fail(new Error('second deadline'));
    await expect(result).rejects.toThrow('second deadline');
  });

  it('an abort of the caller cancels every call and rejects at once', async () => {
    const clock = new FakeClock();
    const { sent, call } = calls();
    const stop = new AbortController();
    const result = hedged(call, { clock, signal: stop.signal });
    await clock.advance(HEDGE_AFTER_MS);
    stop.abort(new Error('stopping'));
    await expect(result).rejects.toThrow('stopping');
    expect(sent.every((s) => s.opts.signal?.aborted)).toBe(true);
  });
});
