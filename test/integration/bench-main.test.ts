// The benchmark mains' one lifecycle (harness/main.ts), with real processes: a main
// built on it (test/fixtures/bench-main.ts) with a temporary directory and two child
// processes that would outlive it. Whichever way it ends — a signal (twice, as under the
// tsx CLI), a signal while a part is starting, a failed start, its own exit code — no
// child of it is left alive and its directory is gone.
import type { ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isAlive } from '../../server/embedded/mariadb.js';
import { spawnTs } from '../../harness/children.js';

interface Run {
  proc: ChildProcess;
  /** Resolves with the first stdout or stderr line matching `test`; rejects if the process exits first. */
  line(test: RegExp): Promise<string>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr(): string;
}

function runFixture(...args: string[]): Run {
  const proc = spawnTs('test/fixtures/bench-main.ts', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  let err = '';
  const waiters = new Set<() => void>();
  const wake = (): void => waiters.forEach((w) => w());
  proc.stdout?.on('data', (d: Buffer) => ((text += d.toString()), wake()));
  proc.stderr?.on('data', (d: Buffer) => ((err += d.toString()), (text += d.toString()), wake()));
  let done = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.once('exit', (code, signal) => {
      done = true;
      wake();
      resolve({ code, signal });
    }),
  );
  return {
    proc,
    exited,
    stderr: () => err,
    line: (test) =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          const found = text.split('\n').find((l) => test.test(l));
          if (found !== undefined) {
            waiters.delete(check);
            resolve(found);
          } else if (done) {
            waiters.delete(check);
            reject(new Error(`the fixture exited before printing ${test}:\n${text}`));
          }
        };
        waiters.add(check);
        check();
      }),
  };
}

const alive = isAlive;

/** The fixture's children and directory, from its `children` line. */
async function started(run: Run): Promise<{ tmp: string; pids: number[] }> {
  const parsed = JSON.parse(await run.line(/"event":"children"/)) as { tmp: string; pids: number[] };
  expect(parsed.pids).toHaveLength(2);
  expect(parsed.pids.every(alive)).toBe(true);
  expect(existsSync(parsed.tmp)).toBe(true);
  return parsed;
}

function expectNothingLeft(what: { tmp: string; pids: number[] }): void {
  expect(what.pids.filter(alive)).toEqual([]);
  expect(existsSync(what.tmp)).toBe(false);
}

describe('runBench: one lifecycle for the benchmark mains', () => {
  it('SIGINT while running: stops every part in reverse and exits 130, nothing left', async () => {
    const run = runFixture('run');
    const what = await started(run);
    await run.line(/"event":"running"/);
    run.proc.kill('SIGINT');
    expect(await run.exited).toEqual({ code: 130, signal: null });
    expect(run.stderr()).toMatch(/SIGINT: stopping sleepers, child processes, temporary directory/);
    expectNothingLeft(what);
  });

  it('a second SIGINT during the stop (the tsx CLI relays one Ctrl-C) does not cut it short', async () => {
    const run = runFixture('hold');
    const what = await started(run);
    await run.line(/"event":"running"/);
    run.proc.kill('SIGINT');
    // A child got its SIGTERM and holds the stop open until released.
    await run.line(/^term \d+/);
    run.proc.kill('SIGINT');
    await run.line(/SIGINT again: still stopping/);
    writeFileSync(join(what.tmp, 'release'), '');
    expect(await run.exited).toEqual({ code: 130, signal: null });
    expectNothingLeft(what);
  });

  it('SIGINT while a part is starting: the step ends, then everything started stops; exit 130', async () => {
    const run = runFixture('slow-start');
    const what = await started(run);
    run.proc.kill('SIGINT');
    await run.line(/SIGINT: stopping/);
    writeFileSync(join(what.tmp, 'release'), ''); // the slow part's start ends
    expect(await run.exited).toEqual({ code: 130, signal: null });
    expect(run.stderr()).not.toMatch(/StartAbortedError|stopped while starting/);
    expectNothingLeft(what);
  });

  it('a part that fails to start: what started is stopped, the failure said, exit 1', async () => {
    const run = runFixture('fail-start');
    const what = await started(run);
    expect((await run.exited).code).toBe(1);
    expect(run.stderr()).toMatch(/fixture: Error: injected failure at start/);
    expectNothingLeft(what);
  });

  it("the body's code: every part stopped, then that exit code", async () => {
    const run = runFixture('exit', '3');
    const what = await started(run);
    expect(await run.exited).toEqual({ code: 3, signal: null });
    expectNothingLeft(what);
  });
});
