// Real sf-database processes for tests of lifecycle, signals and replicas.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { findServingLine, portOf } from '../../server/serving.js';

export interface TierProcess {
  proc: ChildProcess;
  /** The ports it bound (it binds port 0 and logs them); known once ready() resolved. */
  readonly grpcPort: number;
  readonly httpPort: number;
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
  // Port 0, read back from the "serving" line on stdout: a port picked here and bound later
  // could be taken in between by another test's server or client.
  let grpcPort = 0;
  let httpPort = 0;
  const proc = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts', ...(opts.args ?? [])], {
    env: {
      PATH: process.env['PATH'] ?? '',
      HOME: process.env['HOME'] ?? '/tmp',
      SFDB_GRPC_PORT: '0',
      SFDB_HTTP_PORT: '0',
      SFDB_LOG_LEVEL: 'info',
      // Unique by default: replicas of parallel test files share one MariaDB server.
      SFDB_REPLICA_ID: `test-${process.pid}-${Math.random().toString(36).slice(2, 8)}`,
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  let out = '';
  proc.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  proc.stdout?.on('data', (d: Buffer) => {
    out += d.toString();
    if (grpcPort === 0) {
      const serving = findServingLine(out);
      if (serving) {
        grpcPort = portOf(serving.grpc);
        httpPort = portOf(serving.http);
      }
    }
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.once('exit', (code, signal) => resolve({ code, signal })),
  );
  let done = false;
  void exited.then(() => (done = true));
  return {
    proc,
    get grpcPort() {
      if (grpcPort === 0) throw new Error('sf-database has not logged its ports yet: await ready() first');
      return grpcPort;
    },
    get httpPort() {
      if (httpPort === 0) throw new Error('sf-database has not logged its ports yet: await ready() first');
      return httpPort;
    },
    stderr: () => err,
    stdout: () => out,
    exited,
    kill: (signal = 'SIGTERM') => proc.kill(signal),
    async ready(timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        if (done) throw new Error(`sf-database exited before it was ready:\n${err}`);
        if (httpPort === 0) {
          await new Promise((r) => setTimeout(r, 50));
          continue;
        }
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
