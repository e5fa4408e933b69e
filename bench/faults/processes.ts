// The processes of a fault run: a private mariadbd in a temporary directory (durable
// settings: the defaults, every commit flushed) and tier replicas as real processes
// (harness/replica.ts: `node --import tsx server/main.ts`, its own process group, ports
// read from its serving line). Everything is stopped and the directory removed by stop();
// a process exit without stop() (a failed test, Ctrl-C) kills them synchronously; a run
// killed outright is cleaned up by the next one (harness/leftovers.ts).
// With startProxy() the replicas dial MariaDB through a TCP proxy in this process
// (harness/tcp-proxy.ts), whose faults are the network's between them.
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { EmbeddedMariaDb } from '../../server/embedded/mariadb.js';
import { Children, kill } from '../../harness/children.js';
import { strayMariaDb } from '../../harness/leftovers.js';
import { startReplica } from '../../harness/replica.js';
import type { ReplicaProcess } from '../../harness/replica.js';
import { metricSum } from '../../harness/scrape.js';
import { TcpProxy } from '../../harness/tcp-proxy.js';
import { TempDir } from '../../harness/temp-dir.js';

export const DIR_PREFIX = 'sfdb-faults-';

export type RunningReplica = ReplicaProcess & { name: string; env: Record<string, string> };

export class FaultProcesses {
  private readonly children: Children;
  readonly replicas = new Map<string, RunningReplica>();
  private readonly started = new Set<ChildProcess>();
  private mariadbHandle: EmbeddedMariaDb | undefined;
  private proxyHandle: TcpProxy | undefined;
  private stopping: Promise<void> | undefined;
  private readonly onExit = (): void => this.killNow();
  private replicaSerial = 0;

  private constructor(
    readonly dir: string,
    private readonly say: (message: string) => void,
  ) {
    this.children = new Children();
    process.once('exit', this.onExit);
  }

  /** Reaps what killed runs left, and makes this run's directory. */
  static async create(say: (message: string) => void): Promise<FaultProcesses> {
    const temp = new TempDir(DIR_PREFIX, say);
    await temp.start();
    return new FaultProcesses(temp.path, say);
  }

  get mariadb(): EmbeddedMariaDb {
    if (!this.mariadbHandle) throw new Error('MariaDB is not started');
    return this.mariadbHandle;
  }

  async startMariaDb(): Promise<EmbeddedMariaDb> {
    this.say(`starting a private MariaDB in ${this.dir}`);
    this.mariadbHandle = await EmbeddedMariaDb.start({ dataDir: join(this.dir, 'data'), database: 'faults' });
    return this.mariadbHandle;
  }

  /** A proxy in front of MariaDB (started after it): replicas started from now on dial it. */
  async startProxy(): Promise<TcpProxy> {
    const proxy = new TcpProxy({ host: '127.0.0.1', port: this.mariadb.port });
    await proxy.start();
    this.proxyHandle = proxy;
    this.say(`replicas dial MariaDB through a TCP proxy on 127.0.0.1:${proxy.port}`);
    return proxy;
  }

  get proxy(): TcpProxy | undefined {
    return this.proxyHandle;
  }

  /** What a replica dials: the proxy when there is one, else MariaDB (the ledger checks always read MariaDB itself). */
  get databaseUrl(): string {
    const db = this.mariadb;
    return this.proxyHandle ? `mysql://root@127.0.0.1:${this.proxyHandle.port}/${db.database}` : db.url;
  }

  /**
   * Starts replica `name` (a fresh registry id each time: a SIGKILLed replica's id stays
   * live for the liveness window) and waits for /readyz. `ports` reuses a stopped one's
   * addresses, so clients with a fixed target list reconnect to it.
   */
  async startReplica(name: string, env: Record<string, string> = {}, ports?: { grpc: number; http: number }): Promise<RunningReplica> {
    // The id names the run (its pid) and the replica, and is fresh each time.
    const id = `faults-${process.pid}-${name}-${++this.replicaSerial}`;
    const fullEnv = {
      SFDB_LOG_LEVEL: 'warn',
      ...(ports ? { SFDB_GRPC_PORT: String(ports.grpc), SFDB_HTTP_PORT: String(ports.http) } : {}),
      ...env,
    };
    const r = await startReplica({ children: this.children, id, databaseUrl: this.databaseUrl, env: fullEnv, logPath: join(this.dir, `${name}.log`), timeoutMs: 60_000 }).catch(
      (err: unknown) => {
        throw new Error(`replica ${name} did not start: ${(err as Error).message}`);
      },
    );
    this.started.add(r.proc);
    const running: RunningReplica = Object.assign(r, { name, env: fullEnv });
    this.replicas.set(name, running);
    return running;
  }

  replica(name: string): RunningReplica {
    const r = this.replicas.get(name);
    if (!r) throw new Error(`no replica ${name}`);
    return r;
  }

  /** Sends `sig` to replica `name` and waits (at most `timeoutMs`) for it to exit. */
  async signalReplica(name: string, sig: 'SIGKILL' | 'SIGTERM', timeoutMs: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    const r = this.replica(name);
    r.kill(sig);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`replica ${name} did not exit within ${timeoutMs} ms of ${sig}:\n${r.stderr()}`)), timeoutMs);
    });
    try {
      return await Promise.race([r.exited, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** database_requests_total of replica `name` from `caller` (undefined: any caller). */
  async requestsServed(name: string, caller?: string): Promise<number> {
    const samples = await this.replica(name).metrics(5_000);
    return metricSum(samples, 'database_requests_total', caller === undefined ? {} : { caller_daemon: caller });
  }

  /** Stops the replicas, then MariaDB, and removes the directory. Safe to call twice. */
  stop(): Promise<void> {
    this.stopping ??= this.stopAll();
    return this.stopping;
  }

  private async stopAll(): Promise<void> {
    kill(this.mariadbHandle?.pid, 'SIGCONT');
    // Held bytes released, so a replica's drain is not stuck behind a blackhole.
    this.proxyHandle?.blackhole(false);
    await this.children.stopAll(15_000);
    await this.proxyHandle?.stop();
    if (this.mariadbHandle) await this.mariadbHandle.stop(30_000);
    else kill(strayMariaDb(this.dir), 'SIGKILL'); // interrupted while it started
    rmSync(this.dir, { recursive: true, force: true });
    process.removeListener('exit', this.onExit);
    this.say('stopped every process and removed the run directory');
  }

  /** At process exit (no await possible): SIGKILL what still runs, remove the directory. */
  private killNow(): void {
    for (const child of this.started) if (child.exitCode === null && child.signalCode === null) kill(child.pid, 'SIGKILL');
    const pid = this.mariadbHandle?.pid ?? strayMariaDb(this.dir);
    kill(pid, 'SIGCONT');
    kill(pid, 'SIGKILL');
    try {
      rmSync(this.dir, { recursive: true, force: true });
    } catch {
      // the next run removes it (its owner is dead)
    }
  }
}
