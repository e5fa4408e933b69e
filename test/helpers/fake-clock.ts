// A manual clock for time-dependent logic: time moves only when a test advances it.
import { abortableSleep } from '../../proto/runtime/clock.js';
import type { Clock } from '../../proto/runtime/clock.js';

interface Sleeper {
  at: number;
  resolve: () => void;
}

/** Lets pending promise callbacks (fake database answers, loop steps) run. */
export async function flush(rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise((r) => setImmediate(r));
}

/**
 * Waits (in real time, bounded) until `cond` holds: for loops whose steps do real I/O,
 * such as a database round trip, between fake-clock ticks. Not a sleep: it returns as
 * soon as the condition is true.
 */
export async function until(cond: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

export class FakeClock implements Clock {
  private t = 0;
  private sleepers: Sleeper[] = [];

  now(): number {
    return this.t;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return abortableSleep((fire) => {
      const sleeper: Sleeper = { at: this.t + Math.max(0, ms), resolve: fire };
      this.sleepers.push(sleeper);
      return () => {
        this.sleepers = this.sleepers.filter((s) => s !== sleeper);
      };
    }, signal);
  }

  /** Moves time forward by `ms`, waking each sleeper at its own time, in order. */
  async advance(ms: number): Promise<void> {
    const target = this.t + ms;
    await flush();
    for (;;) {
      this.sleepers.sort((a, b) => a.at - b.at);
      const next = this.sleepers[0];
      if (!next || next.at > target) break;
      this.sleepers.shift();
      this.t = next.at;
      next.resolve();
      await flush();
    }
    this.t = target;
    await flush();
  }

  /** Sleepers waiting now. */
  get waiting(): number {
    return this.sleepers.length;
  }
}
