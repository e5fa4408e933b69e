// Fixture processes (test/fixtures/*.ts) that report events as JSON lines on stdout.
import type { ChildProcess } from 'node:child_process';
import { childEnv, eachLine, spawnTs } from '../../harness/children.js';

export interface FixtureEvent {
  event: string;
  at: number;
  [key: string]: unknown;
}

export interface Fixture {
  proc: ChildProcess;
  events: FixtureEvent[];
  stderr(): string;
  /** The first event (after `since`, by index) matching, waiting for it up to `timeoutMs`. */
  next(match: (e: FixtureEvent) => boolean, timeoutMs?: number, since?: number): Promise<FixtureEvent>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function spawnFixture(script: string, env: Record<string, string>): Fixture {
  const proc = spawnTs(`test/fixtures/${script}`, [], { env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  const events: FixtureEvent[] = [];
  let err = '';
  eachLine(proc.stdout, (line) => {
    try {
      events.push(JSON.parse(line) as FixtureEvent);
    } catch {
      // not an event line
    }
  });
  proc.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    proc,
    events,
    stderr: () => err,
    exited,
    async next(match, timeoutMs = 30_000, since = 0) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = events.slice(since).find(match);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`${script}: no matching event within ${timeoutMs} ms; events ${JSON.stringify(events)}; stderr ${err}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
  };
}
