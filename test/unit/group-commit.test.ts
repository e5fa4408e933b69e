// GroupCommit's window, size cut, per-call answers and drain, on a fake clock and a fake
// kind (the statements themselves are tested against MariaDB in
// test/integration/group-commit.test.ts).
import { describe, expect, it } from 'vitest';
import { ALONE, GroupCommit } from '../../server/db/group-commit.js';
import type { BatchKind, RowAnswer } from '../../server/db/group-commit.js';
import { NotFoundError, UnavailableError } from '../../server/errors.js';
import { FakeClock, flush } from '../helpers/fake-clock.js';

/** A kind whose batch doubles each number, hands back negatives, and records what ran. */
class Doubler implements BatchKind<number, number> {
  readonly name = 'doubler';
  readonly batches: number[][] = [];
  readonly alones: number[] = [];
  batchError: unknown;

  async batch(rows: readonly number[]): Promise<RowAnswer<number>[]> {
    this.batches.push([...rows]);
    if (this.batchError !== undefined) throw this.batchError;
    return rows.map((r) => (r < 0 ? ALONE : r * 2));
  }

  async alone(row: number): Promise<number> {
    this.alones.push(row);
    if (row === -1) throw new NotFoundError('row -1 does not exist');
    return row * 2;
  }
}

function setup(windowMs = 5, maxCalls = 100): { gc: GroupCommit; clock: FakeClock; kind: Doubler; observed: { calls: number; wait: number }[]; alone: number[] } {
  const clock = new FakeClock();
  const observed: { calls: number; wait: number }[] = [];
  const alone: number[] = [];
  const gc = new GroupCommit({ windowMs, maxCalls }, { observeBatch: (_k, calls, wait) => observed.push({ calls, wait }), countAlone: (_k, n) => alone.push(n) }, clock);
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
  it('holds calls for the window, then writes them in one batch and answers each its own value', async () => {
    const { gc, clock, kind, observed } = setup(5);
    const answers = [1, 2, 3].map((n) => gc.submit(kind, n));
    await clock.advance(4);
    expect(kind.batches).toEqual([]);
    expect(gc.pending).toBe(3);
    await clock.advance(1);
    expect(await Promise.all(answers)).toEqual([2, 4, 6]);
    expect(kind.batches).toEqual([[1, 2, 3]]);
    expect(kind.alones).toEqual([]);
    expect(observed).toEqual([{ calls: 3, wait: 0.005 }]);
  });

  it('a call after the window opened joins it; one after the batch went starts the next window', async () => {
    const { gc, clock, kind } = setup(5);
    const a = gc.submit(kind, 1);
    await clock.advance(3);
    const b = gc.submit(kind, 2);
    await clock.advance(2);
    await Promise.all([a, b]);
    const c = gc.submit(kind, 3);
    const d = gc.submit(kind, 4);
    await clock.advance(5);
    await Promise.all([c, d]);
    expect(kind.batches).toEqual([[1, 2], [3, 4]]);
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
