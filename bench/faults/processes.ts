// The processes of a fault run: a private mariadbd in a temporary directory (durable
// settings: the defaults, every commit flushed) and tier replicas as real processes
// (bench/cluster's Children and startReplica: `node --import tsx server/main.ts`, its
// own process group, ports read from its serving line). Everything is stopped and the
// directory removed by stop(); a process exit without stop() (a failed test, Ctrl-C)
// kills them synchronously; a run killed outright is cleaned up by the next one (its
// owner pid is dead: its replicas and mariadbd are killed, its directory removed).
// With startProxy() the replicas dial MariaDB through a TCP proxy in this process
// (test/helpers/tcp-proxy.ts), whose faults are the network's between them.
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedMariaDb, reapOrphans, isAlive } from '../../server/embedded/mariadb.js';
import { parseProm } from '../../ops/prom.js';
import { Children, exited } from '../common/children.js';
import { strayMariaDb } from '../cache/leftovers.js';
import { startReplica, tail } from '../cluster/processes.js';
import type { Replica } from '../cluster/processes.js';
import { TcpProxy } from '../../test/helpers/tcp-proxy.js';

export const DIR_PREFIX = 'sfdb-faults-';
const OWNER = 'owner.pid';


function signal(pid: number | undefined, sig: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(pid, sig);
  } catch {
    // gone already
  }
}

/** Replica ids name the run that started them, so a later run can tell its leftovers from a reused pid. */
function replicaIdPrefix(owner: number): string {
  return `faults-${owner}-`;
}

/** Kills what runs killed outright left under the temporary directory, and removes their directories. */
export async function reapDeadRuns(say: (message: string) => void): Promise<void> {
  const base = tmpdir();
  const dead: string[] = [];
  for (const name of readdirSync(base)) {
    if (!name.startsWith(DIR_PREFIX)) continue;
    const dir = join(base, name);
    const ownerFile = join(dir, OWNER);
    const owner = existsSync(ownerFile) ? Number(readFileSync(ownerFile, 'utf8').trim()) : 0;
    if (!(owner > 0) || isAlive(owner)) continue;
    dead.push(dir);
    // Its replicas, by the id prefix in their environment (a pid alone could be reused).
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      let environ = '';
      try {
        environ = readFileSync(`/proc/${entry}/environ`, 'utf8');
      } catch {
        continue; // gone, or not ours
      }
      if (environ.includes(`SFDB_REPLICA_ID=${replicaIdPrefix(owner)}`)) signal(Number(entry), 'SIGKILL');
    }
  }
  if (dead.length === 0) return;
  say(`cleaning up ${dead.length} directories left by killed runs`);
  await reapOrphans(base, DIR_PREFIX); // their mariadbd
  for (const dir of dead) rmSync(dir, { recursive: true, force: true });
}

export interface RunningReplica extends Replica {
  name: string;
  grpcPort: number;
  env: Record<string, string>;
}

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
    readonly root: string,
    readonly dir: string,
    private readonly say: (message: string) => void,
  ) {
    this.children = new Children(root);
    process.once('exit', this.onExit);
  }

  static async create(root: string, say: (message: string) => void): Promise<FaultProcesses> {
    await reapDeadRuns(say);
    const dir = mkdtempSync(join(tmpdir(), DIR_PREFIX));
    writeFileSync(join(dir, OWNER), `${process.pid}\n`);
    return new FaultProcesses(root, dir, say);
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
    const id = `${replicaIdPrefix(process.pid)}${name}-${++this.replicaSerial}`;
    const fullEnv = {
      SFDB_LOG_LEVEL: 'warn',
      ...(ports ? { SFDB_GRPC_PORT: String(ports.grpc), SFDB_HTTP_PORT: String(ports.http) } : {}),
      ...env,
    };
    const r = await startReplica(this.children, { id, databaseUrl: this.databaseUrl, env: fullEnv, logPath: join(this.dir, `${name}.log`), timeoutMs: 60_000 }).catch(
      (err: unknown) => {
        throw new Error(`replica ${name} did not start: ${(err as Error).message}\n${tail(join(this.dir, `${name}.log`))}`);
      },
    );
    this.started.add(r.proc);
    const running: RunningReplica = { ...r, name, grpcPort: Number(r.grpcAddress.slice(r.grpcAddress.lastIndexOf(':') + 1)), env: fullEnv };
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
    const done = exited(r.proc);
    r.proc.kill(sig);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`replica ${name} did not exit within ${timeoutMs} ms of ${sig}:\n${tail(r.logPath)}`)), timeoutMs);
    });
    try {
      return await Promise.race([done, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** database_requests_total of replica `name` from `caller` (undefined: any caller). */
  async requestsServed(name: string, caller?: string): Promise<number> {
    const r = this.replica(name);
    const res = await fetch(`http://127.0.0.1:${r.httpPort}/metrics`, { signal: AbortSignal.timeout(5_000) });
    let sum = 0;
    for (const s of parseProm(await res.text())) {
      if (s.name === 'database_requests_total' && (caller === undefined || s.labels['caller_daemon'] === caller)) sum += s.value;
    }
    return sum;
  }

  /** Stops the replicas, then MariaDB, and removes the directory. Safe to call twice. */
  stop(): Promise<void> {
    this.stopping ??= this.stopAll();
    return this.stopping;
  }

  private async stopAll(): Promise<void> {
    signal(this.mariadbHandle?.pid, 'SIGCONT');
    // Held bytes released, so a replica's drain is not stuck behind a blackhole.
    this.proxyHandle?.blackhole(false);
    await this.children.stopAll(15_000);
    await this.proxyHandle?.stop();
    if (this.mariadbHandle) await this.mariadbHandle.stop(30_000);
    else signal(strayMariaDb(this.dir), 'SIGKILL'); // interrupted while it started
    rmSync(this.dir, { recursive: true, force: true });
    process.removeListener('exit', this.onExit);
    this.say('stopped every process and removed the run directory');
  }

  /** At process exit (no await possible): SIGKILL what still runs, remove the directory. */
  private killNow(): void {
    for (const child of this.started) if (child.exitCode === null && child.signalCode === null) signal(child.pid, 'SIGKILL');
    const pid = this.mariadbHandle?.pid ?? strayMariaDb(this.dir);
    signal(pid, 'SIGCONT');
    signal(pid, 'SIGKILL');
    try {
      rmSync(this.dir, { recursive: true, force: true });
    } catch {
      // the next run removes it (its owner is dead)
    }
  }
}
