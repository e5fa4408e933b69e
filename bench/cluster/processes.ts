// The benchmark's child processes: tier replicas (`node --import tsx server/main.ts`) and
// the simulator. Every one is started through `Children` (bench/common/children.ts), in
// its own process group (a Ctrl-C reaches the orchestrator only, which then stops them in
// order), and stopped on exit, error or signal.
import type { ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { findServingLine, portOf } from '../../server/serving.js';
import type { Children, ExitStatus } from '../common/children.js';
import type { SimEvent } from './protocol.js';

export function tail(path: string, lines = 30): string {
  if (!existsSync(path)) return '';
  return readFileSync(path, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
}

/** The environment of a child: PATH and HOME only, plus `extra` (no SFDB_* of ours leaks in). */
export function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '/tmp', ...extra };
}

/**
 * The simulator's V8 flags. It holds in one heap what thousands of daemon processes would
 * hold apart, and much of what a daemon allocates lives for seconds: an idle until its next
 * period, a call in flight. With V8's default young generation (16 MB semi-spaces) 7,000
 * daemons' allocations filled it twice a second and 40 % of them were promoted (13 MB/s of
 * 33 MB/s, sampled at 1,000 nodes quiet); the old generation's major collection then held
 * the simulator's one thread for about a second once a minute, a stall no real node has,
 * seen as heartbeat gaps over their bound. With 64 MB semi-spaces the major collection
 * comes less often: the quiet 1,000-node cluster held every duty in two runs of three (none
 * of three with the default; the third had one such stall). Under churn it does not help:
 * the simulator still promotes about 14 MB/s and each scavenge takes about 90 ms
 * (docs/BENCHMARKS.md, "The simulator's heap").
 */
export const SIM_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=64'];

/**
 * `node [execArgv] --import tsx <script> [args]` in its own process group, stdout piped (a
 * replica's serving line, the simulator's events), stderr appended to `logPath`.
 */
export function spawnLogged(
  children: Children,
  script: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  logPath: string,
  execArgv: readonly string[] = [],
): ChildProcess {
  const log = openSync(logPath, 'a');
  try {
    return children.spawnTs(script, args, { env, stdio: ['ignore', 'pipe', log], detached: true, execArgv });
  } finally {
    closeSync(log);
  }
}

export interface Replica {
  id: string;
  grpcAddress: string;
  httpPort: number;
  pid: number | undefined;
  proc: ChildProcess;
  logPath: string;
}

/**
 * Starts one tier replica on `databaseUrl` (ports 0, read back from its `serving` line)
 * and waits for /readyz. `env` adds settings (SFDB_DATA_DIR, SFDB_EMBEDDED_PORT for the
 * embedded default).
 */
export async function startReplica(children: Children, opts: { id: string; databaseUrl?: string; env?: Record<string, string>; logPath: string; timeoutMs?: number }): Promise<Replica> {
  const env = childEnv({
    ...(opts.databaseUrl !== undefined ? { SFDB_DATABASE_URL: opts.databaseUrl } : {}),
    SFDB_GRPC_PORT: '0',
    SFDB_HTTP_PORT: '0',
    SFDB_REPLICA_ID: opts.id,
    SFDB_LOG_LEVEL: 'warn',
    ...opts.env,
  });
  const proc = spawnLogged(children, 'server/main.ts', [], env, opts.logPath);
  const timeoutMs = opts.timeoutMs ?? 180_000;
  const ports = await new Promise<{ grpc: string; http: number }>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => fail(new Error(`replica ${opts.id} did not print its ports within ${timeoutMs} ms`)), timeoutMs);
    const onExit = (code: number | null, signal: NodeJS.Signals | null): void =>
      fail(new Error(`replica ${opts.id} exited during start (${signal ?? `code ${code}`}):\n${tail(opts.logPath)}`));
    const onData = (d: Buffer): void => {
      out += d.toString();
      const serving = findServingLine(out);
      if (!serving) return;
      finish();
      resolve({ grpc: serving.grpc, http: portOf(serving.http) });
    };
    function finish(): void {
      clearTimeout(timer);
      proc.off('exit', onExit);
      proc.stdout?.off('data', onData);
      proc.stdout?.resume(); // keep draining it
    }
    function fail(err: Error): void {
      finish();
      reject(err);
    }
    proc.once('exit', onExit);
    proc.stdout?.on('data', onData);
  });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (proc.exitCode !== null || proc.signalCode !== null) throw new Error(`replica ${opts.id} exited:\n${tail(opts.logPath)}`);
    try {
      if ((await fetch(`http://127.0.0.1:${ports.http}/readyz`)).status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`replica ${opts.id} was not ready within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { id: opts.id, grpcAddress: ports.grpc, httpPort: ports.http, pid: proc.pid, proc, logPath: opts.logPath };
}

/** A running simulator: its events as they arrive (each stamped with when we read it). */
export class Simulator {
  readonly events: SimEvent[] = [];
  private readonly waiters = new Set<() => void>();
  private exit: ExitStatus | undefined;
  private buffer = '';
  /** Lines on stdout that were not SimEvent JSON (shown when something goes wrong). */
  readonly noise: string[] = [];

  constructor(
    readonly proc: ChildProcess,
    readonly logPath: string,
  ) {
    proc.stdout?.on('data', (d: Buffer) => {
      this.buffer += d.toString();
      let nl: number;
      while ((nl = this.buffer.indexOf('\n')) >= 0) {
        const line = this.buffer.slice(0, nl).trim();
        this.buffer = this.buffer.slice(nl + 1);
        if (line !== '') this.take(line);
      }
    });
    proc.once('exit', (code, signal) => {
      this.exit = { code, signal };
      this.wake();
    });
  }

  private take(line: string): void {
    try {
      const event = JSON.parse(line) as SimEvent;
      if (typeof event === 'object' && event !== null && typeof event.event === 'string') {
        this.events.push(event);
        this.wake();
        return;
      }
    } catch {
      // not JSON
    }
    if (this.noise.length < 50) this.noise.push(line);
  }

  private wake(): void {
    for (const w of this.waiters) w();
  }

  get exitStatus(): ExitStatus | undefined {
    return this.exit;
  }

  /** Resolves with the first event matching `test`; rejects when the simulator exits or `timeoutMs` passes. */
  async waitFor<E extends SimEvent>(test: (e: SimEvent) => e is E, what: string, timeoutMs: number): Promise<E> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.events.find(test);
      if (found) return found;
      if (this.exit) {
        throw new Error(`the simulator exited (${this.exit.signal ?? `code ${this.exit.code}`}) before ${what}:\n${[...this.noise, tail(this.logPath)].join('\n')}`);
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`the simulator did not report ${what} within ${timeoutMs} ms:\n${tail(this.logPath)}`);
      await this.next(left);
    }
  }

  /** Waits for the next event (or exit), at most `ms`. */
  next(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiters.add(done);
    });
  }
}
