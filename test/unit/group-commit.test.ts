// GroupCommit's window, size cut, per-call answers and drain, on a fake clock and a fake
// kind (the statements themselves are tested against MariaDB in
// test/integration/group-commit.test.ts).
import { describe, expect, it } from 'vitest';
import { ALONE, GroupCommit, Refusal } from '../../server/db/group-commit.js';
import type { BatchKind, RowAnswer } from '../../server/db/group-commit.js';
import { NotFoundError, UnavailableError } from '../../server/errors.js';
import { FakeClock, flush } from '../helpers/fake-clock.js';

/** A kind whose batch doubles each number, refuses -100 and below, hands back other negatives, and records what ran. */
class Doubler implements BatchKind<number, number> {
  readonly name = 'doubler';
  readonly batches: number[][] = [];
  readonly alones: number[] = [];
  batchError: unknown;

  async batch(rows: readonly number[]): Promise<RowAnswer<number>[]> {
    this.batches.push([...rows]);
    if (this.batchError !== undefined) throw this.batchError;
    return rows.map((r) => (r <= -100 ? new Refusal(new NotFoundError('row', `${r} does not exist`)) : r < 0 ? ALONE : r * 2));
  }

  async alone(row: number): Promise<number> {
    this.alones.push(row);
    if (row === -1 || row <= -100) throw new NotFoundError('row', `${row} does not exist`);
    return row * 2;
  }
}

function setup(
  windowMs = 5,
  maxCalls = 100,
  periodicWindowMs = 50,
  wallOffset = 0,
): { gc: GroupCommit; clock: FakeClock; kind: Doubler; observed: { calls: number; wait: number }[]; alone: number[] } {
  const clock = new FakeClock();
  const observed: { calls: number; wait: number }[] = [];
  const alone: number[] = [];
  const gc = new GroupCommit({ windowMs, periodicWindowMs, maxCalls }, { observeBatch: (_k, calls, wait) => observed.push({ calls, wait }), countAlone: (_k, n) => alone.push(n) }, clock, () => clock.now() + wallOffset);
  return { gc, clock, kind: new Doubler(), observed, alone };
}

/** Settles `p` into a value or the error, so a test can look at each call's answer. */
function outcome<T>(p: Promise<T>): Promise<{ value?: T; error?: unknown }> {
  return p.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
}

describe('GroupCommit', () => {
  it('a quiet kind is written at the next turn, with the calls of that turn; each call gets its own value', async () => {
    const { gc, clock, kind, observed } = setup(5);
    const answers = [1, 2, 3].map((n) => gc.submit(kind, n));
    expect(kind.batches).toEqual([]);
    expect(gc.pending).toBe(3);
    await clock.advance(0); // the next turn (a zero-length sleep of the fake clock)
    expect(await Promise.all(answers)).toEqual([2, 4, 6]);
    expect(kind.batches).toEqual([[1, 2, 3]]);
    expect(kind.alones).toEqual([]);
    expect(observed).toEqual([{ calls: 3, wait: 0 }]);
  });

  it('calls within the window after a batch wait for its end and go together; after a quiet window, at once again', async () => {
    const { gc, clock, kind, observed } = setup(5);
    const a = gc.submit(kind, 1); // t=0: quiet, at once
    await clock.advance(0);
    await a;
    await clock.advance(3);
    const b = gc.submit(kind, 2);
    await clock.advance(1);
    const c = gc.submit(kind, 3);
    await flush();
    expect(kind.alones).toEqual([1]); // a batch of one runs the call's own statement
    expect(kind.batches).toEqual([]);
    await clock.advance(1); // t=5: a window after the first batch
    await Promise.all([b, c]);
    expect(kind.batches).toEqual([[2, 3]]);
    await clock.advance(20);
    const d = gc.submit(kind, 4); // quiet again: at once
    await clock.advance(0);
    await d;
    expect(kind.alones).toEqual([1, 4]);
    expect(observed.map((o) => o.wait)).toEqual([0, 0.002, 0]);
  });

  it('a periodic kind has its own, longer window: quiet it writes at once, busy at most once per that window', async () => {
    const { gc, clock, kind } = setup(5, 100, 50);
    const beats = Object.assign(new Doubler(), { periodic: true });
    const a = gc.submit(beats, 1); // t=0: quiet, at once
    const x = gc.submit(kind, 10);
    await clock.advance(0);
    expect(await Promise.all([a, x])).toEqual([2, 20]);
    await clock.advance(10); // t=10: past the ordinary window, inside the periodic one
    const b = gc.submit(beats, 2);
    const y = gc.submit(kind, 11); // the ordinary kind: quiet a window after its batch, at once
    await clock.advance(0);
    expect(await y).toBe(22);
    expect(beats.alones).toEqual([1]);
    await clock.advance(30); // t=40
    const c = gc.submit(beats, 3);
    await clock.advance(9);
    expect(beats.batches).toEqual([]);
    await clock.advance(1); // t=50: the periodic window's end
    expect(await Promise.all([b, c])).toEqual([4, 6]);
    expect(beats.batches).toEqual([[2, 3]]);
    expect(kind.alones).toEqual([10, 11]);
  });

  it('a periodic kind’s windows are slots of the wall clock: the same phase on every replica, whatever its last batch', async () => {
    // Two replicas whose monotonic clocks differ; the wall clock is 30 ms into a slot at t=0.
    const a = setup(5, 100, 50, 30);
    const b = setup(5, 100, 50, 30);
    const beatsA = Object.assign(new Doubler(), { periodic: true });
    const beatsB = Object.assign(new Doubler(), { periodic: true });
    const first = a.gc.submit(beatsA, 1); // the slot's first call: at once
    await a.clock.advance(0);
    expect(await first).toBe(2);
    await a.clock.advance(5); // wall 35: the slot has had its batch, so the next slot's start (wall 50)
    const second = a.gc.submit(beatsA, 2);
    await a.clock.advance(14);
    expect(beatsA.alones).toEqual([1]);
    await a.clock.advance(1); // t=20, wall 50
    expect(await second).toBe(4);
    // Replica b's last batch was long ago; it still waits for the same slot start once its slot is used.
    await b.clock.advance(5);
    const x = b.gc.submit(beatsB, 3);
    await b.clock.advance(0);
    await x;
    const y = b.gc.submit(beatsB, 4);
    await b.clock.advance(14);
    expect(beatsB.alones).toEqual([3]);
    await b.clock.advance(1); // wall 50 again
    expect(await y).toBe(8);
    // A slot with no batch yet takes its first call at once: wall 120.
    await b.clock.advance(70);
    const z = b.gc.submit(beatsB, 5);
    await b.clock.advance(0);
    expect(await z).toBe(10);
    expect(beatsB.alones).toEqual([3, 4, 5]);
  });

  it('a full batch goes at once, without waiting for its window', async () => {
    const { gc, kind } = setup(1000, 3);
    const answers = [1, 2, 3, 4].map((n) => gc.submit(kind, n));
    await flush();
    expect(kind.batches).toEqual([[1, 2, 3]]);
    expect(await Promise.all(answers.slice(0, 3))).toEqual([2, 4, 6]);
    expect(gc.pending).toBe(1);
  });

  it('a batch of one runs alone, as the call would without grouping', async () => {
    const { gc, clock, kind } = setup(5);
    const a = gc.submit(kind, 7);
    await clock.advance(5);
    expect(await a).toBe(14);
    expect(kind.batches).toEqual([]);
    expect(kind.alones).toEqual([7]);
  });

  it('rows the batch hands back run alone; a refusal reaches that call only', async () => {
    const { gc, clock, kind, alone } = setup(5);
    const answers = [1, -1, 3, -4].map((n) => outcome(gc.submit(kind, n)));
    await clock.advance(5);
    const [one, missing, three, handedBack] = await Promise.all(answers);
    expect(one).toEqual({ value: 2 });
    expect(missing?.error).toBeInstanceOf(NotFoundError);
    expect(three).toEqual({ value: 6 });
    expect(handedBack).toEqual({ value: -8 });
    expect(kind.alones).toEqual([-1, -4]);
    expect(alone).toEqual([2]);
  });

  it('a row the batch refuses fails that call with its error, and runs nothing alone', async () => {
    const { gc, clock, kind, alone } = setup(5);
    const answers = [1, -100, 3, -4].map((n) => outcome(gc.submit(kind, n)));
    await clock.advance(5);
    const [one, refused, three, handedBack] = await Promise.all(answers);
    expect(one).toEqual({ value: 2 });
    expect(refused?.error).toBeInstanceOf(NotFoundError);
    expect((refused?.error as Error).message).toBe('row: -100 does not exist');
    expect(three).toEqual({ value: 6 });
    expect(handedBack).toEqual({ value: -8 });
    expect(kind.batches).toEqual([[1, -100, 3, -4]]);
    expect(kind.alones).toEqual([-4]);
    expect(alone).toEqual([1]);
  });

  it("a batch that fails for what may be one row's reason is rerun row by row", async () => {
    const { gc, clock, kind, alone } = setup(5);
    kind.batchError = Object.assign(new Error('CONSTRAINT `value` failed'), { errno: 4025 });
    const answers = [1, -1, 3].map((n) => outcome(gc.submit(kind, n)));
    await clock.advance(5);
    const [one, missing, three] = await Promise.all(answers);
    expect(one).toEqual({ value: 2 });
    expect(missing?.error).toBeInstanceOf(NotFoundError);
    expect(three).toEqual({ value: 6 });
    expect(kind.alones).toEqual([1, -1, 3]);
    expect(alone).toEqual([3]);
  });

  it('a batch that fails for no row (MariaDB unavailable) fails every call, and none is rerun', async () => {
    const { gc, clock, kind } = setup(5);
    kind.batchError = new UnavailableError('database unavailable: connection lost');
    const answers = [1, 2].map((n) => outcome(gc.submit(kind, n)));
    await clock.advance(5);
    for (const a of await Promise.all(answers)) expect(a.error).toBe(kind.batchError);
    expect(kind.alones).toEqual([]);
  });

  it('off (window 0): each call runs alone at once', async () => {
    const { gc, kind } = setup(0);
    expect(gc.enabled).toBe(false);
    expect(await Promise.all([gc.submit(kind, 1), gc.submit(kind, 2)])).toEqual([2, 4]);
    expect(kind.batches).toEqual([]);
    expect(kind.alones).toEqual([1, 2]);
  });

  it('stop writes the open batches without waiting for their window, then refuses new calls', async () => {
    const { gc, kind } = setup(60_000);
    const answers = [1, 2].map((n) => gc.submit(kind, n));
    await gc.stop();
    expect(await Promise.all(answers)).toEqual([2, 4]);
    expect(kind.batches).toEqual([[1, 2]]);
    const late = await outcome(gc.submit(kind, 3));
    expect(late.error).toBeInstanceOf(UnavailableError);
    expect(kind.alones).toEqual([]);
  });

  it('kinds are batched apart', async () => {
    const { gc, clock, kind } = setup(5);
    const other = new Doubler();
    const answers = [gc.submit(kind, 1), gc.submit(other, 10), gc.submit(kind, 2), gc.submit(other, 20)];
    await clock.advance(5);
    expect(await Promise.all(answers)).toEqual([2, 20, 4, 40]);
    expect(kind.batches).toEqual([[1, 2]]);
    expect(other.batches).toEqual([[10, 20]]);
  });
});
