// The statement watchdog on fake timers: a statement past its call's deadline is stopped
// (KILL QUERY on its thread), one that finishes in time costs nothing, and none starts
// after the deadline.
import type { Connection } from 'mysql2/promise';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DeadlinePassedError, StatementWatchdog } from '../../server/db/watchdog.js';

interface Fake {
  watchdog: StatementWatchdog;
  killed: unknown[][];
  connects: () => number;
  stopped: () => number;
}

function setup(): Fake {
  const killed: unknown[][] = [];
  let connects = 0;
  let stopped = 0;
  const conn = {
    query: async (sql: string, params: unknown[]) => {
      killed.push([sql, ...params]);
      return [[], []];
    },
    end: async () => undefined,
  } as unknown as Connection;
  const watchdog = new StatementWatchdog(
    async () => {
      connects += 1;
      return conn;
    },
    () => (stopped += 1),
  );
  return { watchdog, killed, connects: () => connects, stopped: () => stopped };
}

beforeEach(() => vi.useFakeTimers({ now: 1_000_000 }));
afterEach(() => vi.useRealTimers());

describe('statement watchdog', () => {
  it('stops a statement still running at the deadline, on its own connection, and counts it', async () => {
    const f = setup();
    let finish: (v: string) => void = () => {};
    const running = f.watchdog.guard(42, Date.now() + 500, () => new Promise<string>((r) => (finish = r)));
    await vi.advanceTimersByTimeAsync(499);
    expect(f.killed).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(f.killed).toEqual([['KILL QUERY ?', 42]]);
    expect(f.stopped()).toBe(1);
    finish('interrupted'); // MariaDB answers the stopped statement with an error; here, a value
    await expect(running).resolves.toBe('interrupted');
  });

  it('a statement that finishes in time sends nothing and opens no connection', async () => {
    const f = setup();
    await expect(f.watchdog.guard(7, Date.now() + 500, async () => 'ok')).resolves.toBe('ok');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(f.killed).toEqual([]);
    expect(f.connects()).toBe(0);
  });

  it('starts no statement once the deadline has passed', async () => {
    const f = setup();
    let ran = false;
    await expect(
      f.watchdog.guard(7, Date.now(), async () => {
        ran = true;
      }),
    ).rejects.toBeInstanceOf(DeadlinePassedError);
    expect(ran).toBe(false);
  });

  it('keeps one connection for its kills', async () => {
    const f = setup();
    for (const thread of [1, 2]) {
      const p = f.watchdog.guard(thread, Date.now() + 10, () => new Promise<void>((r) => setTimeout(r, 20)));
      await vi.advanceTimersByTimeAsync(20);
      await p;
    }
    expect(f.killed).toEqual([
      ['KILL QUERY ?', 1],
      ['KILL QUERY ?', 2],
    ]);
    expect(f.connects()).toBe(1);
  });
});
