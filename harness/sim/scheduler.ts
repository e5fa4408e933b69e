// The simulation's time and randomness (harness/sim/): one clock that drives every client
// and daemon of a run, timers kept in a heap, and the seeded PRNG that stands in for
// Math.random while the run lasts. Time moves only when nothing else can: the scheduler
// lets promise callbacks and setImmediate turns run until the process is quiescent, then
// jumps to the earliest timer. A run is therefore a pure function of its seed.
//
// Quiescence: the awaited real setImmediate turn (`realTurn`) resolves in the event loop's
// check phase, after Node has drained every microtask queued before it; the code under
// test's own setImmediate calls go to this scheduler's queue while a run lasts (install()),
// so nothing it schedules runs outside the scheduler's order.
import { abortableSleep } from '@sfdb/proto/runtime/clock';
import type { Clock } from '@sfdb/proto/runtime/clock';

/** A seeded PRNG (sfc32): numbers in [0, 1), the same sequence for the same seed. */
export function seededRandom(seed: number): () => number {
  let a = 0x9e3779b9;
  let b = 0x243f6a88;
  let c = 0xb7e15162;
  let d = seed >>> 0;
  const next = (): number => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    let t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    t = (t + d) | 0;
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 12; i++) next();
  return next;
}

interface Timer {
  at: number;
  order: number;
  fn: () => void;
  cancelled: boolean;
}

/** Something to cancel: a timer that has not fired yet. */
export interface Cancel {
  cancel(): void;
}

const realSetImmediate = globalThis.setImmediate;
/** More turns than this at one sim instant is a spinning loop, not work. */
const MAX_TURNS_PER_INSTANT = 20_000;
const realTurn = (): Promise<void> => new Promise((resolve) => realSetImmediate(resolve));

export class SimScheduler implements Clock {
  private t = 0;
  private order = 0;
  private readonly heap: Timer[] = [];
  private immediates: (() => void)[] = [];
  private restore: (() => void) | undefined;
  /** Timer events run so far (the run's size). */
  events = 0;
  /** Real event-loop turns taken to let the process settle. */
  turns = 0;

  constructor(readonly random: () => number) {}

  now(): number {
    return this.t;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return abortableSleep((fire) => {
      const timer = this.after(ms, fire);
      return () => timer.cancel();
    }, signal);
  }

  /** Runs `fn` `ms` from now (0: after everything runnable now). */
  after(ms: number, fn: () => void): Cancel {
    const timer: Timer = { at: this.t + Math.max(0, ms), order: this.order++, fn, cancelled: false };
    this.push(timer);
    return {
      cancel: () => {
        timer.cancelled = true;
      },
    };
  }

  /** Runs `fn` at this instant, after what is runnable now (as setImmediate would). */
  soon(fn: () => void): void {
    this.immediates.push(fn);
  }

  /**
   * Takes over Math.random and setImmediate until uninstall(), and captures no stack traces
   * meanwhile (every abort makes a DOMException: its stack was a good share of a run's
   * time; a violation's story is its trace). Immediates left when it ends (nothing of the
   * run: the test runner's own) go to the real setImmediate.
   */
  install(): void {
    if (this.restore) return;
    const random = Math.random;
    const setImmediate = globalThis.setImmediate;
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    Math.random = this.random;
    globalThis.setImmediate = ((fn: (...args: unknown[]) => void, ...args: unknown[]) => {
      this.immediates.push(() => fn(...args));
      return { ref: () => undefined, unref: () => undefined, hasRef: () => false };
    }) as unknown as typeof globalThis.setImmediate;
    this.restore = () => {
      Error.stackTraceLimit = stackTraceLimit;
      Math.random = random;
      globalThis.setImmediate = setImmediate;
      for (const fn of this.immediates.splice(0)) setImmediate(fn);
    };
  }

  uninstall(): void {
    this.restore?.();
    this.restore = undefined;
  }

  /**
   * Runs until `end` (sim time), calling `check` whenever the process is quiescent. Throws
   * when the process never settles at one instant (a loop that neither waits nor ends:
   * MAX_TURNS_PER_INSTANT turns without time moving).
   */
  async runUntil(end: number, check?: () => void): Promise<void> {
    let instant = this.t;
    let turnsAtInstant = this.turns;
    for (;;) {
      await this.settle();
      if (this.t !== instant) {
        instant = this.t;
        turnsAtInstant = this.turns;
      } else if (this.turns - turnsAtInstant > MAX_TURNS_PER_INSTANT) {
        throw new Error(`the simulated processes spin at ${(this.t / 1000).toFixed(3)} s: ${MAX_TURNS_PER_INSTANT} turns without time moving`);
      }
      check?.();
      let next = this.heap[0];
      while (next?.cancelled) {
        this.pop();
        next = this.heap[0];
      }
      if (next === undefined || next.at > end) break;
      this.pop();
      this.t = next.at;
      this.events += 1;
      next.fn();
    }
    this.t = Math.max(this.t, end);
  }

  /** Lets every promise callback and queued immediate run. */
  private async settle(): Promise<void> {
    this.turns += 1;
    await realTurn();
    while (this.immediates.length > 0) {
      const batch = this.immediates;
      this.immediates = [];
      for (const fn of batch) fn();
      this.turns += 1;
      await realTurn();
    }
  }

  private push(timer: Timer): void {
    const h = this.heap;
    h.push(timer);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!before(h[i] as Timer, h[p] as Timer)) break;
      [h[i], h[p]] = [h[p] as Timer, h[i] as Timer];
      i = p;
    }
  }

  private pop(): void {
    const h = this.heap;
    const last = h.pop() as Timer;
    if (h.length === 0) return;
    h[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && before(h[l] as Timer, h[m] as Timer)) m = l;
      if (r < h.length && before(h[r] as Timer, h[m] as Timer)) m = r;
      if (m === i) return;
      [h[i], h[m]] = [h[m] as Timer, h[i] as Timer];
      i = m;
    }
  }
}

function before(a: Timer, b: Timer): boolean {
  return a.at < b.at || (a.at === b.at && a.order < b.order);
}
