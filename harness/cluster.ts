// A tier of real replica processes, for the benches and the chaos tests: the shared
// component (server/testing/cluster.ts: a directory, the database servers, the tier's
// database, the replicas, started in order and stopped in reverse, also after a failed
// start) with the harness's replicas (replica.ts: `node --import tsx server/main.ts` with
// the harness's environment, ports 0 read back from the serving line, ready on /readyz,
// tagged with their owner so that the next run reaps what a killed one left). On top:
//   - the servers: a private MariaDB in the run's directory, a private Galera cluster, a
//     server at a URL (the test suite's), or servers a run shares between its clusters;
//   - `proxies`: a TCP proxy (tcp-proxy.ts) in front of each replica, its registered
//     address, so that its peers and its clients dial it: blackholed, the replica is cut
//     off by the network; it stays across restarts and follows the replica's new port;
//   - `databaseProxy`: one proxy between every replica and the database (its network);
//   - a replica added, restarted with its identity or a fresh id, on its old ports or
//     new ones; signalled (SIGSTOP, SIGCONT, SIGKILL) and its exit awaited;
//   - at stop, first every fault lifted (SIGCONT to the replicas and the servers, the
//     proxies' blackholes ended), so that no stop waits behind one; each replica is sent
//     SIGTERM then SIGCONT (as systemd does), SIGKILL after `graceMs`;
//   - at a process exit without stop (a failed test, an uncaught error): SIGKILL to what
//     still runs, and the directory removed.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { component } from '../proto/runtime/lifecycle.js';
import type { Component } from '../proto/runtime/lifecycle.js';
import { TierCluster } from '../server/testing/cluster.js';
import type { ReplicaLauncher } from '../server/testing/cluster.js';
import { MariaDbAt, PrivateMariaDb } from '../server/testing/database.js';
import type { DatabaseServer, PrivateMariaDbOptions, ServerPart } from '../server/testing/database.js';
import { Children, kill } from './children.js';
import type { ExitStatus } from './children.js';
import { GaleraServers } from './galera.js';
import { strayMariaDb } from './leftovers.js';
import { ReplicaProcess, whenReady } from './replica.js';
import type { ReplicaOptions } from './replica.js';
import { TcpProxy } from './tcp-proxy.js';
import { TempDir } from './temp-dir.js';

/** One replica to start. */
export interface ReplicaSpec {
  /** Its key in the cluster; with a directory, its log is `<name>.log` there. */
  name: string;
  /** SFDB_REPLICA_ID: the cluster's `idFor(name, n)` unless told. */
  id?: string;
  /** Its settings over the cluster's `env`. */
  env?: Record<string, string>;
  /** Its gRPC and HTTP ports (a restart on its predecessor's addresses); any free ones (0) unless told. */
  ports?: { grpc: number; http: number };
  /** Node flags (a profiler's). */
  execArgv?: readonly string[];
}

type Plan = Required<Pick<ReplicaSpec, 'name' | 'id' | 'env'>> & Pick<ReplicaSpec, 'ports' | 'execArgv'>;

/** A replica of the cluster: the process, its name and settings, and the address clients dial. */
export class ClusterReplica extends ReplicaProcess {
  constructor(
    opts: ReplicaOptions,
    readonly name: string,
    /** The settings it was given over the harness's defaults. */
    readonly env: Record<string, string>,
    /** The proxy in front of it (`proxies`). */
    readonly proxy: TcpProxy | undefined,
  ) {
    super(opts);
  }

  /** host:port that clients and peers dial: its proxy's, or its own. */
  get address(): string {
    return this.proxy ? `127.0.0.1:${this.proxy.port}` : this.grpcAddress;
  }
}

export interface ProcessClusterOptions {
  /**
   * The run's directory (the private MariaDB's data, the replicas' logs): made at start and
   * removed at stop, by its prefix; or one the run has already (another cluster's, whose
   * servers it shares). None: the logs are kept in memory.
   */
  dir?: string | { readonly path: string };
  /**
   * Run here: 'mariadb' (in the directory) or 'galera'. Used, never started or stopped
   * here: a server at a URL, or servers another cluster of the run runs (its `server`).
   */
  server: 'mariadb' | 'galera' | { url: string } | DatabaseServer;
  /** The tier's database: created with the private servers, or created (and dropped at stop) on a server not ours. */
  database: string;
  /** `database` exists already (another cluster's): neither created nor dropped. */
  existing?: boolean;
  /** mariadbd's options for 'mariadb'. */
  mariadb?: Pick<PrivateMariaDbOptions, 'graceMs' | 'extraArgs'>;
  /** The replicas started with the cluster, one after another. */
  replicas?: readonly ReplicaSpec[];
  /** Settings of every replica (over the harness's: ports 0, log level warn). */
  env?: Record<string, string>;
  /** A replica's id from its name and how many ids the cluster has made with it (1, 2, …): the name unless told. */
  idFor?: (name: string, n: number) => string;
  proxies?: boolean;
  databaseProxy?: boolean;
  /** The run's child processes (a bench's); none: the cluster's own. */
  children?: Children;
  /** A replica in a session of its own (ReplicaOptions.ownSession): the default through `children`. */
  ownSession?: boolean;
  /** Replicas run the build (ReplicaOptions.built: `node dist/server/main.js`, built beforehand) instead of the sources under tsx. */
  built?: boolean;
  /** How long a replica may take to be ready (60 s unless told). */
  timeoutMs?: number;
  /** SIGKILL this long after a replica's SIGTERM (15 s unless told). */
  graceMs?: number;
  say?: (message: string) => void;
}

export class ProcessCluster implements Component {
  readonly name = 'tier processes';
  private readonly tier: TierCluster<Plan, ClusterReplica>;
  private readonly children: Children;
  private readonly temp: { readonly path: string } | undefined;
  private readonly ownsDir: boolean;
  private readonly proxies = new Map<string, TcpProxy>();
  /** The newest process of each name, from its spawn (a proxy's target before it is ready). */
  private readonly newest = new Map<string, ClusterReplica>();
  private dbProxy: TcpProxy | undefined;
  private started = 0;
  private readonly onExit = (): void => this.killNow();

  constructor(private readonly opts: ProcessClusterOptions) {
    const say = opts.say ?? (() => {});
    const made = typeof opts.dir === 'string' ? new TempDir(opts.dir, say) : undefined;
    this.ownsDir = made !== undefined;
    this.temp = made ?? (typeof opts.dir === 'object' ? opts.dir : undefined);
    this.children = opts.children ?? new Children();
    const own = opts.children === undefined ? [this.children.part(opts.graceMs)] : [];
    const server = this.serverOf(opts.server, say);
    const launcher: ReplicaLauncher<Plan, ClusterReplica> = { start: (plan, url) => this.spawn(plan, url), stop: (r) => this.stopProcess(r) };
    this.tier = new TierCluster({
      ...(made ? { dir: made } : {}),
      server,
      // Private servers make it as they start; it goes with them.
      database: { name: opts.database, create: !opts.existing && !isPrivate(opts.server) },
      replicas: (opts.replicas ?? []).map((spec) => this.plan(spec)),
      launcher,
      before: [
        ...own,
        component('database proxy', () => this.startDatabaseProxy(), () => this.dbProxy?.stop()),
        component('replica proxies', () => undefined, () => Promise.all([...this.proxies.values()].map((p) => p.stop()))),
      ],
      after: [component('faults lifted', () => undefined, () => this.liftFaults())],
    });
  }

  /** Starts the parts in order (a failure stops what started); from here a process exit without stop() kills what runs. */
  async start(): Promise<void> {
    process.once('exit', this.onExit);
    await this.tier.start().catch((err: unknown) => {
      process.removeListener('exit', this.onExit);
      throw err;
    });
  }

  /** Lifts every fault, stops the replicas (the last started first), the proxies, the database, the servers, the directory. Safe twice. */
  async stop(): Promise<void> {
    await this.tier.stop().finally(() => process.removeListener('exit', this.onExit));
  }

  /** The run's directory (its path). */
  get dir(): string {
    if (!this.temp) throw new Error('this cluster has no directory');
    return this.temp.path;
  }

  get server(): DatabaseServer {
    return this.tier.server;
  }

  /** The private MariaDB (server 'mariadb'), once started. */
  get mariadb(): PrivateMariaDb {
    const { server } = this.tier;
    if (!(server instanceof PrivateMariaDb)) throw new Error('this cluster runs no private MariaDB');
    return server;
  }

  get database(): string {
    return this.tier.database;
  }

  /** The tier's database on server `index`, as MariaDB serves it (not through the proxy). */
  urlFor(index: number): string {
    return this.tier.urlFor(index);
  }

  /** The tier's database on each server. */
  get urls(): string[] {
    return Array.from({ length: this.server.size }, (_, i) => this.urlFor(i));
  }

  /** The proxy between the replicas and the database (`databaseProxy`), once started. */
  get databaseProxy(): TcpProxy | undefined {
    return this.dbProxy;
  }

  /** The replicas, in start order (a killed one until it is restarted or stopped). */
  get replicas(): ClusterReplica[] {
    return this.tier.replicas;
  }

  replica(name: string): ClusterReplica {
    return this.tier.replica(name);
  }

  /** What clients dial: every replica's address, in start order. */
  get targets(): string[] {
    return this.replicas.map((r) => r.address);
  }

  /** Starts another replica and waits until it is ready; it stops with the others. */
  add(spec: ReplicaSpec): Promise<ClusterReplica> {
    return this.tier.add(this.plan(spec));
  }

  /**
   * Stops replica `name` (nothing to do when it was killed) and starts it again: with its
   * id or a fresh one (`id: 'fresh'`: a killed replica's id stays live in the registry for
   * the liveness window), on its ports or new ones, with its settings or `env`.
   */
  async restart(name: string, how: { id?: 'same' | 'fresh'; ports?: 'same' | 'new'; env?: Record<string, string> } = {}): Promise<ClusterReplica> {
    const old = this.replica(name);
    const ports = how.ports === 'same' ? { grpc: old.grpcPort, http: old.httpPort } : undefined;
    return this.tier.restart(name, (plan) =>
      this.plan({
        name,
        env: how.env ?? plan.env,
        ...(how.id === 'fresh' ? {} : { id: plan.id }),
        ...(ports ? { ports } : plan.ports ? { ports: plan.ports } : {}),
        ...(plan.execArgv ? { execArgv: plan.execArgv } : {}),
      }),
    );
  }

  /** Stops replica `name` (SIGTERM, SIGCONT, SIGKILL after `graceMs`) and forgets it. */
  async stopReplica(name: string): Promise<void> {
    await this.tier.stopReplica(name);
  }

  /** Sends `signal` to replica `name` (SIGSTOP and SIGCONT freeze and thaw it). */
  signal(name: string, signal: NodeJS.Signals): void {
    this.replica(name).kill(signal);
  }

  /** Sends `signal` (SIGTERM, SIGKILL) to replica `name` and waits, at most `timeoutMs`, for it to exit. */
  async terminate(name: string, signal: NodeJS.Signals, timeoutMs: number): Promise<ExitStatus> {
    const r = this.replica(name);
    r.kill(signal);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`replica ${name} did not exit within ${timeoutMs} ms of ${signal}:\n${r.stderr()}`)), timeoutMs);
    });
    try {
      return await Promise.race([r.exited, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The private servers to run, or the servers to use. */
  private serverOf(server: ProcessClusterOptions['server'], say: (message: string) => void): { run: ServerPart } | { use: DatabaseServer } {
    if (server === 'galera') return { run: new GaleraServers({ database: this.opts.database, log: say }) };
    if (server === 'mariadb') {
      if (!this.temp) throw new Error("a private MariaDB ('mariadb') lives in the run's directory: give `dir`");
      return { run: new PrivateMariaDb(this.temp, { database: this.opts.database, say, ...this.opts.mariadb }) };
    }
    return { use: 'url' in server ? new MariaDbAt(server.url) : server };
  }

  private plan(spec: ReplicaSpec): Plan {
    const id = spec.id ?? (this.opts.idFor ?? ((name) => name))(spec.name, ++this.started);
    return { name: spec.name, id, env: spec.env ?? {}, ...(spec.ports ? { ports: spec.ports } : {}), ...(spec.execArgv ? { execArgv: spec.execArgv } : {}) };
  }

  private async startDatabaseProxy(): Promise<void> {
    if (!this.opts.databaseProxy) return;
    const port = Number(new URL(this.tier.urlFor(0)).port);
    this.dbProxy = new TcpProxy({ host: '127.0.0.1', port });
    await this.dbProxy.start();
    this.opts.say?.(`replicas dial MariaDB through a TCP proxy on 127.0.0.1:${this.dbProxy.port}`);
  }

  private async spawn(plan: Plan, databaseUrl: string): Promise<ClusterReplica> {
    const proxy = await this.proxyFor(plan.name);
    const url = new URL(databaseUrl);
    if (this.dbProxy) url.host = `127.0.0.1:${this.dbProxy.port}`;
    const env = {
      ...this.opts.env,
      ...(plan.ports ? { SFDB_GRPC_PORT: String(plan.ports.grpc), SFDB_HTTP_PORT: String(plan.ports.http) } : {}),
      ...(proxy ? { SFDB_ADVERTISE_ADDRESS: `127.0.0.1:${proxy.port}` } : {}),
      ...plan.env,
    };
    const replica = new ClusterReplica(
      {
        id: plan.id,
        databaseUrl: url.toString(),
        env,
        children: this.children,
        ...(plan.execArgv ? { execArgv: plan.execArgv } : {}),
        ...(this.opts.ownSession !== undefined ? { ownSession: this.opts.ownSession } : {}),
        ...(this.opts.built ? { built: true } : {}),
        ...(this.temp ? { logPath: join(this.temp.path, `${plan.name}.log`) } : {}),
      },
      plan.name,
      env,
      proxy,
    );
    this.newest.set(plan.name, replica);
    return whenReady(replica, this.opts.timeoutMs ?? 60_000).catch((err: unknown) => {
      throw new Error(`replica ${plan.name} did not start: ${(err as Error).message}`);
    });
  }

  /** The proxy in front of replica `name` (made once, kept across restarts), forwarding to its newest process. */
  private async proxyFor(name: string): Promise<TcpProxy | undefined> {
    if (!this.opts.proxies) return undefined;
    let proxy = this.proxies.get(name);
    if (!proxy) {
      proxy = new TcpProxy(async () => {
        const r = this.newest.get(name);
        if (!r) throw new Error(`no replica ${name}`);
        await r.bound;
        return { host: '127.0.0.1', port: r.grpcPort };
      });
      this.proxies.set(name, proxy);
      await proxy.start();
    }
    return proxy;
  }

  private async stopProcess(replica: ClusterReplica): Promise<void> {
    const stopped = this.children.stop(replica.proc, this.opts.graceMs ?? 15_000);
    replica.kill('SIGCONT');
    await stopped;
  }

  /** Every process continued (a SIGSTOPped one hears no SIGTERM), every proxy passing bytes again. */
  private liftFaults(): void {
    for (const r of this.replicas) r.kill('SIGCONT');
    if (this.ownsServers) for (const pid of this.server.pids()) kill(pid, 'SIGCONT');
    for (const p of [this.dbProxy, ...this.proxies.values()]) p?.blackhole(false);
  }

  private get ownsServers(): boolean {
    return isPrivate(this.opts.server);
  }

  /** At process exit (no await possible): SIGKILL what still runs, remove the directory. */
  private killNow(): void {
    for (const r of this.newest.values()) {
      r.kill('SIGCONT');
      r.kill('SIGKILL');
    }
    try {
      if (this.ownsServers) {
        // A private MariaDB interrupted while it started has a pid file, not yet a handle.
        const pids = this.opts.server === 'mariadb' && this.temp ? [this.server.pids()[0] ?? strayMariaDb(this.temp.path)] : this.server.pids();
        for (const pid of pids) {
          kill(pid, 'SIGCONT');
          kill(pid, 'SIGKILL');
        }
      }
      if (this.ownsDir && this.temp) rmSync(this.temp.path, { recursive: true, force: true });
    } catch {
      // no directory made yet, or it is gone: the next run reaps what is left (its owner is dead)
    }
  }
}

function isPrivate(server: ProcessClusterOptions['server']): boolean {
  return server === 'mariadb' || server === 'galera';
}
