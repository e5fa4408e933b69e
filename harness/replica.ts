// A tier replica as a real process (`node --import tsx server/main.ts`, the build's
// `node dist/server/main.js`, or an installed `sf-database`), for every bench and test that
// runs one: spawned with the harness's environment, on port 0 for gRPC and
// HTTP (it binds them and prints what it bound on its serving line: a port picked here
// and bound later could be taken in between), ready once /readyz answers 200.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { findServingLine, portOf } from '../server/serving.js';
import { childEnv, exited, spawnNode, spawnTs, tail } from './children.js';
import type { Children, ExitStatus } from './children.js';
import { scrape } from './scrape.js';
import type { PromSample } from './scrape.js';

/** The tier's entry point in the build (`npm run build`), from the repository's root. */
export const BUILT_MAIN = 'dist/server/main.js';

export interface ReplicaOptions {
  /** SFDB_REPLICA_ID. */
  id: string;
  /** SFDB_DATABASE_URL; none: the embedded default (SFDB_DATA_DIR, SFDB_EMBEDDED_PORT in `env`). */
  databaseUrl?: string;
  /** Settings over the defaults (ports 0, log level warn). */
  env?: Record<string, string>;
  /** Command-line arguments of server/main.ts. */
  args?: readonly string[];
  /** Node flags (a profiler's). */
  execArgv?: readonly string[];
  /** An installed `sf-database` executable (run in `cwd`) instead of server/main.ts of this checkout. */
  installed?: { bin: string; cwd: string };
  /** This checkout's build (`node dist/server/main.js`, as `npm start` runs it) instead of server/main.ts under tsx: built beforehand. */
  built?: boolean;
  /** Where stderr (its log) is appended; none: kept in memory (stderr()). */
  logPath?: string;
  /**
   * Started through a run's children (stopped with them, in its own process group so a
   * Ctrl-C reaches the orchestrator only); none: a plain child the caller stops.
   */
  children?: Children;
  /**
   * Its own session (default: when started through `children`). A session is also a
   * scheduling group where the kernel groups by session (sched_autogroup): a benchmark that
   * compares the replica with a server of the same run keeps both in the run's session.
   */
  ownSession?: boolean;
}

export class ReplicaProcess {
  readonly id: string;
  readonly proc: ChildProcess;
  readonly exited: Promise<ExitStatus>;
  private out = '';
  private err = '';
  private grpc: string | undefined;
  private http = 0;
  private onBound: () => void = () => undefined;
  /** Resolves once it has printed its serving line (its ports are known); never if it exits first. */
  readonly bound = new Promise<void>((resolve) => (this.onBound = resolve));

  constructor(private readonly opts: ReplicaOptions) {
    this.id = opts.id;
    const env = childEnv({
      ...(opts.databaseUrl !== undefined ? { SFDB_DATABASE_URL: opts.databaseUrl } : {}),
      SFDB_GRPC_PORT: '0',
      SFDB_HTTP_PORT: '0',
      SFDB_REPLICA_ID: opts.id,
      SFDB_LOG_LEVEL: 'warn',
      ...opts.env,
    });
    const log = opts.logPath !== undefined ? openSync(opts.logPath, 'a') : 'pipe';
    try {
      // stdout piped (the serving line), stderr to the log.
      const stdio: ['ignore', 'pipe', typeof log] = ['ignore', 'pipe', log];
      const detached = opts.ownSession ?? opts.children !== undefined;
      const args = opts.args ?? [];
      const ts = { env, stdio, detached, execArgv: opts.execArgv ?? [] };
      if (opts.installed) this.proc = spawn(opts.installed.bin, args, { env, stdio, detached, cwd: opts.installed.cwd });
      else if (opts.built) this.proc = opts.children ? opts.children.spawnNode(BUILT_MAIN, args, ts) : spawnNode(BUILT_MAIN, args, ts);
      else if (opts.children) this.proc = opts.children.spawnTs('server/main.ts', args, ts);
      else this.proc = spawnTs('server/main.ts', args, ts);
    } finally {
      if (typeof log === 'number') closeSync(log);
    }
    this.exited = exited(this.proc);
    this.proc.stderr?.on('data', (d: Buffer) => (this.err += d.toString()));
    this.proc.stdout?.on('data', (d: Buffer) => {
      this.out += d.toString();
      if (this.grpc !== undefined) return;
      const serving = findServingLine(this.out);
      if (serving) {
        this.grpc = serving.grpc;
        this.http = portOf(serving.http);
        this.onBound();
      }
    });
  }

  get pid(): number | undefined {
    return this.proc.pid;
  }

  /** host:port of its gRPC server, as it printed it; known once ready() resolved. */
  get grpcAddress(): string {
    if (this.grpc === undefined) throw new Error(`replica ${this.id} has not printed its ports yet: await ready() first`);
    return this.grpc;
  }

  get grpcPort(): number {
    return portOf(this.grpcAddress);
  }

  get httpPort(): number {
    if (this.http === 0) throw new Error(`replica ${this.id} has not printed its ports yet: await ready() first`);
    return this.http;
  }

  get logPath(): string | undefined {
    return this.opts.logPath;
  }

  /** Its stdout so far (the serving line). */
  stdout(): string {
    return this.out;
  }

  /** Its log so far: what it wrote to stderr, or the end of its log file. */
  stderr(): string {
    return this.opts.logPath !== undefined ? tail(this.opts.logPath) : this.err;
  }

  get running(): boolean {
    return this.proc.exitCode === null && this.proc.signalCode === null;
  }

  kill(signal: NodeJS.Signals = 'SIGTERM'): void {
    if (this.running) this.proc.kill(signal);
  }

  /** Waits for its serving line, then for /readyz to answer 200; fails with its log if it exits or `timeoutMs` passes. */
  async ready(timeoutMs = 180_000): Promise<this> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (!this.running) {
        const status = await this.exited;
        throw new Error(`replica ${this.id} exited before it was ready (${status.signal ?? `code ${status.code}`}):\n${this.stderr()}`);
      }
      if (this.http !== 0) {
        try {
          if ((await fetch(`http://127.0.0.1:${this.http}/readyz`)).status === 200) return this;
        } catch {
          // not listening yet
        }
      }
      if (Date.now() > deadline) throw new Error(`replica ${this.id} was not ready within ${timeoutMs} ms:\n${this.stderr()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Its /metrics as samples. */
  metrics(timeoutMs?: number): Promise<PromSample[]> {
    return scrape(this.httpPort, timeoutMs);
  }
}

/** Waits until a spawned `replica` is ready; a failed start leaves no process behind (SIGKILL). */
export async function whenReady<R extends ReplicaProcess>(replica: R, timeoutMs?: number): Promise<R> {
  try {
    return await replica.ready(timeoutMs);
  } catch (err) {
    replica.kill('SIGKILL');
    throw err;
  }
}

/** Spawns a replica and waits until it is ready (a failed start leaves no process behind). */
export function startReplica(opts: ReplicaOptions & { timeoutMs?: number }): Promise<ReplicaProcess> {
  return whenReady(new ReplicaProcess(opts), opts.timeoutMs);
}
