// The benchmark's processes as parts of its lifecycle: a temporary directory, a private
// MariaDB in it and the real tier as a child (`node --import tsx server/main.ts`); the
// run's lifecycle (bench/common/main.ts) starts them in this order and stops them in
// reverse. What a SIGKILLed run left is removed by the next run (leftovers.ts).
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { component } from '../../proto/runtime/lifecycle.js';
import type { Component } from '../../proto/runtime/lifecycle.js';
import { EmbeddedMariaDb } from '../../server/embedded/mariadb.js';
import { findServingLine, portOf } from '../../server/serving.js';
import { stopChild } from '../common/children.js';
import { DIR_PREFIX, reapDeadRuns, recordOwner, recordTier, tierReplicaId } from './leftovers.js';

/** How long the tier may take to print its serving line (it migrates first). */
const TIER_START_MS = 120_000;

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
  private dir: string | undefined;
  private mariadb: EmbeddedMariaDb | undefined;
  private tierProcess: ChildProcess | undefined;
  private running: BenchTier | undefined;

  constructor(
    private readonly root: string,
    private readonly say: (message: string) => void,
  ) {}

  /**
   * The parts, in start order: the run's directory (made after cleaning up what killed
   * runs left), MariaDB in it, the tier on it.
   */
  parts(): Component[] {
    return [
      component(
        'run directory',
        async () => {
          await reapDeadRuns(tmpdir(), this.say);
          this.dir = mkdtempSync(join(tmpdir(), DIR_PREFIX));
          recordOwner(this.dir);
        },
        () => {
          if (this.dir !== undefined) rmSync(this.dir, { recursive: true, force: true });
        },
      ),
      component(
        'mariadb',
        async () => {
          this.say(`starting a private MariaDB in ${this.dir}`);
          this.mariadb = await EmbeddedMariaDb.start({ dataDir: join(this.dir as string, 'data'), database: 'bench' });
        },
        () => this.mariadb?.stop(30_000),
      ),
      component(
        'tier',
        async () => {
          this.say('starting the tier');
          try {
            this.running = await this.startTier((this.mariadb as EmbeddedMariaDb).url);
          } catch (err) {
            // Its stop is not called for a failed start: the process must not outlive us.
            if (this.tierProcess) await stopChild(this.tierProcess, 15_000);
            throw err;
          }
        },
        () => (this.tierProcess ? stopChild(this.tierProcess, 15_000) : undefined),
      ),
    ];
  }

  /** The tier, once started. */
  get tier(): BenchTier {
    if (!this.running) throw new Error('the tier is not started');
    return this.running;
  }

  /** Runs the tier; resolves once it printed its "serving" line (it migrates first). */
  private startTier(databaseUrl: string): Promise<BenchTier> {
    const dir = this.dir as string;
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: this.root,
      env: {
        PATH: process.env['PATH'] ?? '',
        HOME: process.env['HOME'] ?? dir,
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
    if (child.pid !== undefined) recordTier(dir, child.pid);
    let out = '';
    let err = '';
    child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
    return new Promise((resolve, reject) => {
      // Bounded: a stop waits for a start under way.
      const fail = (e: Error): void => {
        clearTimeout(timer);
        reject(e);
      };
      const timer = setTimeout(() => fail(new Error(`the tier did not serve within ${TIER_START_MS} ms:\n${err}`)), TIER_START_MS);
      child.once('error', fail);
      child.once('exit', (code, signal) => fail(new Error(`the tier exited during start (${signal ?? `code ${code}`}):\n${err}`)));
      child.stdout?.on('data', (d: Buffer) => {
        out += d.toString();
        const serving = findServingLine(out);
        if (!serving) return;
        clearTimeout(timer);
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
}
