// Identical reads in flight share a statement, without ever answering a read with rows
// read before it arrived.
import { describe, expect, it } from 'vitest';
import { ReadCoalescer } from '../../server/db/coalescer.js';
import { PairOwner } from '../../server/db/owner.js';
import type { StatementOwner } from '../../server/db/owner.js';

/** An owner that counts what it is charged. */
function countingOwner(operation: string): PairOwner & { seconds: number } {
  const sink = { seconds: 0, charge: (s: number) => void (sink.seconds += s), countSlow: () => {} };
  const owner = new PairOwner(operation, 'test', sink) as PairOwner & { seconds: number };
  Object.defineProperty(owner, 'seconds', { get: () => sink.seconds });
  return owner;
}

const owner = countingOwner('Any');

function deferred<T>(): { promise: Promise<T>; resolve: (v: T) => void; reject: (e: unknown) => void } {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('ReadCoalescer', () => {
  it('runs a burst of identical reads as at most two statements; joiners get the run that started after them', async () => {
    const runs: { d: ReturnType<typeof deferred<string>> }[] = [];
    let joins = 0;
    const c = new ReadCoalescer(() => (joins += 1));
    const exec = (): Promise<string> => {
      const d = deferred<string>();
      runs.push({ d });
      return d.promise;
    };
    const first = c.run('k', owner, exec);
    const later = Array.from({ length: 9 }, () => c.run('k', owner, exec));
    expect(runs.length).toBe(1);
    runs[0]?.d.resolve('before');
    await expect(first).resolves.toBe('before');
    // The nine that arrived while the first ran share one new statement.
    await new Promise((r) => setImmediate(r));
    expect(runs.length).toBe(2);
    runs[1]?.d.resolve('after');
    await expect(Promise.all(later)).resolves.toEqual(Array(9).fill('after'));
    expect(joins).toBe(9);
    expect(c.size).toBe(0);
  });

  it('keeps different keys apart and shares a failure with the readers of that run only', async () => {
    const c = new ReadCoalescer();
    const a = deferred<string>();
    const b = deferred<string>();
    const pa = c.run('a', owner, () => a.promise);
    const pb = c.run('b', owner, () => b.promise);
    a.reject(new Error('down'));
    b.resolve('fine');
    await expect(pa).rejects.toThrow('down');
    await expect(pb).resolves.toBe('fine');
    await expect(c.run('a', owner, () => Promise.resolve('up again'))).resolves.toBe('up again');
  });

  it('charges a shared run to every reader that joined it, in equal parts', async () => {
    const c = new ReadCoalescer();
    const [a, b, d] = [countingOwner('A'), countingOwner('B'), countingOwner('D')];
    const runs: { owner: StatementOwner; d: ReturnType<typeof deferred<string>> }[] = [];
    const exec = (o: StatementOwner): Promise<string> => {
      const run = { owner: o, d: deferred<string>() };
      runs.push(run);
      return run.d.promise;
    };
    const first = c.run('k', a, exec);
    const second = c.run('k', b, exec);
    const third = c.run('k', d, exec);
    // The first run is a's alone; b and d share the next.
    expect(runs[0]?.owner).toBe(a);
    runs[0]?.owner.charge(0.3, 0);
    runs[0]?.d.resolve('one');
    await first;
    await new Promise((r) => setImmediate(r));
    expect(runs.length).toBe(2);
    runs[1]?.owner.charge(0.2, 0);
    runs[1]?.d.resolve('two');
    await Promise.all([second, third]);
    expect(a.seconds).toBeCloseTo(0.3);
    expect(b.seconds).toBeCloseTo(0.1);
    expect(d.seconds).toBeCloseTo(0.1);
  });
});
