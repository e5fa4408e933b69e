// The benchmark's processes: a private MariaDB in a temporary directory and the real tier
// as a child (`node --import tsx server/main.ts`). `stop()` ends both and removes the
// directory; it is safe to call twice (normal exit, then a signal). What a SIGKILLed run
// left is removed by the next run (leftovers.ts).
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedMariaDb } from '../../server/embedded/mariadb.js';
import { findServingLine, portOf } from '../../server/serving.js';
import { stopChild } from '../common/children.js';
import { DIR_PREFIX, reapDeadRuns, recordOwner, recordTier, stopProcesses, strayMariaDb, tierReplicaId } from './leftovers.js';

export interface BenchTier {
  grpcPort: number;
  httpPort: number;
  /** The tier's /metrics text. */
  metrics(): Promise<string>;
}

/**
 * GET /metrics on a new connection each time: the cached runs keep the event loop busy
 * for seconds, so a kept-alive socket may have been closed by the server unnoticed.
 */
function scrape(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path: '/metrics', agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => (res.statusCode === 200 ? resolve(body) : reject(new Error(`/metrics answered ${res.statusCode}`))));
      res.on('error', reject);
    }).on('error', reject);
  });
}

export class BenchProcesses {
  private mariadb: EmbeddedMariaDb | undefined;
  private tierProcess: ChildProcess | undefined;
  private stopping: Promise<void> | undefined;

  private constructor(
    private readonly root: string,
    private readonly dir: string,
    private readonly say: (message: string) => void,
  ) {}

  /** Cleans up after killed runs, then makes this run's directory. */
  static async create(root: string, say: (message: string) => void): Promise<BenchProcesses> {
    await reapDeadRuns(tmpdir(), say);
    const dir = mkdtempSync(join(tmpdir(), DIR_PREFIX));
    recordOwner(dir);
    return new BenchProcesses(root, dir, say);
  }

  async start(): Promise<BenchTier> {
    this.say(`starting a private MariaDB in ${this.dir}`);
    this.mariadb = await EmbeddedMariaDb.start({ dataDir: join(this.dir, 'data'), database: 'bench' });
    this.say('starting the tier');
    return this.startTier(this.mariadb.url);
  }

  /** Runs the tier; resolves once it printed its "serving" line (it migrates first). */
  private startTier(databaseUrl: string): Promise<BenchTier> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: this.root,
      env: {
        PATH: process.env['PATH'] ?? '',
        HOME: process.env['HOME'] ?? this.dir,
        SFDB_DATABASE_URL: databaseUrl,
        SFDB_GRPC_PORT: '0',
        SFDB_HTTP_PORT: '0',
        SFDB_REPLICA_ID: tierReplicaId(),
        SFDB_LOG_LEVEL: 'warn',
        // One host drives the load: the per-caller rate limits are not what is measured.
        SFDB_RATE_LIMIT_NODE_RPS: '0',
        SFDB_RATE_LIMIT_DAEMON_RPS: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.tierProcess = child;
    if (child.pid !== undefined) recordTier(this.dir, child.pid);
    let out = '';
    let err = '';
    child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
    return new Promise((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code, signal) => reject(new Error(`the tier exited during start (${signal ?? `code ${code}`}):\n${err}`)));
      child.stdout?.on('data', (d: Buffer) => {
        out += d.toString();
        const serving = findServingLine(out);
        if (!serving) return;
        child.stdout?.removeAllListeners('data');
        child.stdout?.resume();
        const httpPort = portOf(serving.http);
        resolve({
          grpcPort: portOf(serving.grpc),
          httpPort,
          metrics: () => scrape(httpPort),
        });
      });
    });
  }

  /** Stops the tier, then MariaDB, then removes the temporary directory. */
  stop(): Promise<void> {
    this.stopping ??= this.stopAll();
    return this.stopping;
  }

  private async stopAll(): Promise<void> {
    if (this.tierProcess) await stopChild(this.tierProcess, 15_000);
    if (this.mariadb) await this.mariadb.stop(30_000);
    else {
      // Interrupted while it was starting: no handle, but its pid file.
      const stray = strayMariaDb(this.dir);
      if (stray !== undefined) await stopProcesses([stray]);
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
