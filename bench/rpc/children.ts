// The benchmark's child processes: started through here, so every one of them is
// stopped on exit, error or Ctrl-C.
import { fork, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { ChildProcess, StdioOptions } from 'node:child_process';
import { stopChild } from '../common/children.js';
import type { ExitStatus } from '../common/children.js';

export { exited } from '../common/children.js';
export type { ExitStatus } from '../common/children.js';

/** The first IPC message of `child`; rejects if it exits (or `timeoutMs` passes) first. */
export function firstMessage<T>(child: ChildProcess, what: string, timeoutMs: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error(`${what}: no answer within ${timeoutMs} ms`)), timeoutMs);
    const onMessage = (message: unknown): void => finish(undefined, message as T);
    const onExit = (code: number | null, signal: NodeJS.Signals | null): void =>
      finish(new Error(`${what} exited (${signal ?? `code ${code}`}) before answering`));
    function finish(err: Error | undefined, message?: T): void {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      if (err) reject(err);
      else resolve(message as T);
    }
    child.on('message', onMessage);
    child.on('exit', onExit);
  });
}

/** Every IPC message of a child, in order, awaited one at a time. */
export class Messages<T> {
  private readonly queue: T[] = [];
  private waiter: (() => void) | undefined;
  private exit: string | undefined;

  constructor(private readonly child: ChildProcess) {
    child.on('message', (message) => {
      this.queue.push(message as T);
      this.waiter?.();
    });
    child.once('exit', (code, signal) => {
      this.exit = signal ?? `code ${code}`;
      this.waiter?.();
    });
  }

  /** The next message; rejects if the child exits (or `timeoutMs` passes) first. */
  async next(what: string, timeoutMs: number): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const message = this.queue.shift();
      if (message !== undefined) return message;
      if (this.exit !== undefined) throw new Error(`${what}: exited (${this.exit}) before answering`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`${what}: no answer within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiter = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.waiter = undefined;
    }
  }
}

let ticksPerSecond: number | undefined;

/** CPU time (user + system) a process has used so far, in µs, from /proc; NaN if unknown. */
export function processCpuUs(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  try {
    ticksPerSecond ??= Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after "pid (comm) ": state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) / ticksPerSecond) * 1e6;
  } catch {
    return Number.NaN;
  }
}

export class Children {
  private readonly live = new Set<ChildProcess>();

  constructor(private readonly cwd: string) {}

  /** A TypeScript module of this repository as a Node process with an IPC channel. */
  forkTs(module: string, args: readonly string[], opts: { execArgv?: readonly string[]; stdio?: StdioOptions } = {}): ChildProcess {
    const child = fork(module, [...args], {
      cwd: this.cwd,
      execArgv: ['--import', 'tsx', ...(opts.execArgv ?? [])],
      stdio: opts.stdio ?? ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    return this.track(child);
  }

  /** `node --import tsx <script>` without IPC (the tier runs exactly as it would in production). */
  spawnTs(
    script: string,
    opts: { env: NodeJS.ProcessEnv; execArgv?: readonly string[]; stdio: StdioOptions },
  ): ChildProcess {
    const child = spawn(process.execPath, [...(opts.execArgv ?? []), '--import', 'tsx', script], {
      cwd: this.cwd,
      env: opts.env,
      stdio: opts.stdio,
    });
    return this.track(child);
  }

  private track(child: ChildProcess): ChildProcess {
    this.live.add(child);
    child.once('exit', () => this.live.delete(child));
    // A spawn failure (ENOENT) would otherwise be an unhandled 'error' event.
    child.on('error', () => this.live.delete(child));
    return child;
  }

  /** SIGTERM, then SIGKILL after `graceMs`; resolves once it has exited. */
  stop(child: ChildProcess, graceMs = 10_000): Promise<ExitStatus> {
    return stopChild(child, graceMs);
  }

  /** Stops every child still running, all at once. */
  async stopAll(graceMs = 10_000): Promise<void> {
    await Promise.all([...this.live].map((child) => this.stop(child, graceMs)));
  }
}
