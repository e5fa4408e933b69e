// Real sf-database processes for tests of lifecycle, signals and replicas.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { freePort } from '../../server/embedded-mariadb.js';

export interface TierProcess {
  proc: ChildProcess;
  grpcPort: number;
  httpPort: number;
  /** Everything the process wrote to stderr so far. */
  stderr(): string;
  stdout(): string;
  /** Resolves when the process exits. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Polls /readyz until it answers 200 (or the process exits, or `timeoutMs` passes). */
  ready(timeoutMs?: number): Promise<void>;
  kill(signal?: NodeJS.Signals): void;
}

export async function spawnTier(opts: { env?: Record<string, string>; args?: string[] } = {}): Promise<TierProcess> {
  const grpcPort = await freePort();
  const httpPort = await freePort();
  const proc = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts', ...(opts.args ?? [])], {
    env: {
      PATH: process.env['PATH'] ?? '',
      HOME: process.env['HOME'] ?? '/tmp',
      SFDB_GRPC_PORT: String(grpcPort),
      SFDB_HTTP_PORT: String(httpPort),
      SFDB_LOG_LEVEL: 'info',
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  let out = '';
  proc.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  proc.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.once('exit', (code, signal) => resolve({ code, signal })),
  );
  let done = false;
  void exited.then(() => (done = true));
  return {
    proc,
    grpcPort,
    httpPort,
    stderr: () => err,
    stdout: () => out,
    exited,
    kill: (signal = 'SIGTERM') => proc.kill(signal),
    async ready(timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        if (done) throw new Error(`sf-database exited before it was ready:\n${err}`);
        try {
          const res = await fetch(`http://127.0.0.1:${httpPort}/readyz`);
          if (res.status === 200) return;
        } catch {
          // not listening yet
        }
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`sf-database not ready after ${timeoutMs} ms:\n${err}`);
    },
  };
}
