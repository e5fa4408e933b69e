// The statement watchdog on fake timers: a statement past its call's deadline is stopped
// (KILL QUERY on its thread), one that finishes in time costs nothing, and none starts
// after the deadline; one MariaDB does not stop (its KILL unanswered, or no end after it)
// has its connection reset STOP_GRACE_MS later, and an unanswered kill connection is
// given up.
import type { Connection } from 'mysql2/promise';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DeadlinePassedError, STOP_GRACE_MS, StatementAbandonedError, StatementWatchdog } from '../../server/db/watchdog.js';

interface Fake {
  watchdog: StatementWatchdog;
  killed: unknown[][];
  connects: () => number;
  stopped: () => number;
  abandoned: () => number;
  /** The kill connections, in the order they were opened. */
  killers: FakeConnection[];
}

/** A mysql2 connection as the watchdog sees it: its thread, its socket (reset or not). */
interface FakeConnection {
  threadId: number;
  resets: number;
  connection: { stream: { destroyed: boolean; resetAndDestroy: () => void } };
}

function fakeConnection(threadId: number): FakeConnection {
  const conn: FakeConnection = {
    threadId,
    resets: 0,
    connection: {
      stream: {
        destroyed: false,
        resetAndDestroy: () => {
          conn.resets += 1;
          conn.connection.stream.destroyed = true;
        },
      },
    },
  };
  return conn;
}

/** `answers`: whether MariaDB answers the kills (false: a KILL never comes back, as in a partition). */
function setup(answers = true): Fake {
  const killed: unknown[][] = [];
  const killers: FakeConnection[] = [];
  let stopped = 0;
  let abandoned = 0;
  const watchdog = new StatementWatchdog(
    async () => {
      const conn = Object.assign(fakeConnection(0), {
        query: (sql: string, params: unknown[]) => {
          killed.push([sql, ...params]);
          return answers ? Promise.resolve([[], []]) : new Promise(() => undefined);
        },
        end: async () => undefined,
      });
      killers.push(conn);
      return conn as unknown as Connection;
    },
    { stopped: () => (stopped += 1), abandoned: () => (abandoned += 1) },
  );
  return { watchdog, killed, connects: () => killers.length, stopped: () => stopped, abandoned: () => abandoned, killers };
}

beforeEach(() => vi.useFakeTimers({ now: 1_000_000 }));
afterEach(() => vi.useRealTimers());

/** The watchdog's statement, named for the tier (db/owner.ts). */
const KILL = "KILL QUERY ? /*caller='sf-database',operation='watchdog'*/";

describe('statement watchdog', () => {
  it('stops a statement still running at the deadline, on its own connection, and counts it', async () => {
    const f = setup();
    let finish: (v: string) => void = () => {};
    const running = f.watchdog.guard(fakeConnection(42), Date.now() + 500, () => new Promise<string>((r) => (finish = r)));
    await vi.advanceTimersByTimeAsync(499);
    expect(f.killed).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(f.killed).toEqual([[KILL, 42]]);
    expect(f.stopped()).toBe(1);
    finish('interrupted'); // MariaDB answers the stopped statement with an error; here, a value
    await expect(running).resolves.toBe('interrupted');
  });

  it('a statement that finishes in time sends nothing and opens no connection', async () => {
    const f = setup();
    await expect(f.watchdog.guard(fakeConnection(7), Date.now() + 500, async () => 'ok')).resolves.toBe('ok');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(f.killed).toEqual([]);
    expect(f.connects()).toBe(0);
  });

  it('starts no statement once the deadline has passed', async () => {
    const f = setup();
    let ran = false;
    await expect(
      f.watchdog.guard(fakeConnection(7), Date.now(), async () => {
        ran = true;
      }),
    ).rejects.toBeInstanceOf(DeadlinePassedError);
    expect(ran).toBe(false);
  });

  it('keeps one connection for its kills', async () => {
    const f = setup();
    for (const thread of [1, 2]) {
      const p = f.watchdog.guard(fakeConnection(thread), Date.now() + 10, () => new Promise<void>((r) => setTimeout(r, 20)));
      await vi.advanceTimersByTimeAsync(20);
      await p;
    }
    expect(f.killed).toEqual([
      [KILL, 1],
      [KILL, 2],
    ]);
    expect(f.connects()).toBe(1);
  });

  it('resets the connection of a statement that has not ended STOP_GRACE_MS after its deadline, and fails it', async () => {
    const f = setup();
    const conn = fakeConnection(9);
    let fail: (err: Error) => void = () => {};
    // A statement whose answer never comes (its connection cut off): only a reset ends it.
    const running = f.watchdog.guard(conn, Date.now() + 500, () => new Promise<string>((_, reject) => (fail = reject)));
    const settled = running.catch((err: unknown) => err);
    conn.connection.stream.resetAndDestroy = () => {
      conn.resets += 1;
      fail(Object.assign(new Error('Connection lost: The server closed the connection.'), { code: 'PROTOCOL_CONNECTION_LOST', fatal: true }));
    };
    await vi.advanceTimersByTimeAsync(500 + STOP_GRACE_MS - 1);
    expect(f.killed).toEqual([[KILL, 9]]);
    expect(conn.resets).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(conn.resets).toBe(1);
    expect(f.abandoned()).toBe(1);
    const err = await settled;
    expect(err).toBeInstanceOf(StatementAbandonedError);
    expect((err as StatementAbandonedError).fatal).toBe(true);
  });

  it('a statement that ends within the grace after its kill keeps its connection', async () => {
    const f = setup();
    const conn = fakeConnection(3);
    const running = f.watchdog.guard(conn, Date.now() + 100, () => new Promise<string>((r) => setTimeout(() => r('interrupted'), 100 + STOP_GRACE_MS - 1)));
    await vi.advanceTimersByTimeAsync(100 + STOP_GRACE_MS);
    await expect(running).resolves.toBe('interrupted');
    expect(conn.resets).toBe(0);
    expect(f.abandoned()).toBe(0);
  });

  it('gives up a kill connection MariaDB does not answer within the grace, and opens a fresh one for the next kill', async () => {
    const f = setup(false);
    const conn = fakeConnection(5);
    const running = f.watchdog.guard(conn, Date.now() + 100, () => new Promise<string>((r) => setTimeout(() => r('late'), 100 + STOP_GRACE_MS / 2)));
    await vi.advanceTimersByTimeAsync(100 + STOP_GRACE_MS);
    // The statement ended by itself; the guard waited for its unanswered kill no longer than the grace.
    await expect(running).resolves.toBe('late');
    expect(f.killers[0]?.resets).toBe(1);
    const next = f.watchdog.guard(fakeConnection(6), Date.now() + 100, () => new Promise<void>((r) => setTimeout(r, 200)));
    await vi.advanceTimersByTimeAsync(200 + STOP_GRACE_MS);
    await next;
    expect(f.connects()).toBe(2);
  });
});
