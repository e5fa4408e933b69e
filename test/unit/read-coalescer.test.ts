// Identical reads in flight share a statement, without ever answering a read with rows
// read before it arrived.
import { describe, expect, it } from 'vitest';
import { ReadCoalescer } from '../../server/db/coalescer.js';

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
    const first = c.run('k', exec);
    const later = Array.from({ length: 9 }, () => c.run('k', exec));
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
    const pa = c.run('a', () => a.promise);
    const pb = c.run('b', () => b.promise);
    a.reject(new Error('down'));
    b.resolve('fine');
    await expect(pa).rejects.toThrow('down');
    await expect(pb).resolves.toBe('fine');
    await expect(c.run('a', () => Promise.resolve('up again'))).resolves.toBe('up again');
  });
});
