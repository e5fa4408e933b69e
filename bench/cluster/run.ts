// One measured run of the simulated cluster: `runCluster(options) → ClusterResult`, used
// by `npm run bench:cluster`, the CI-sized regression test and the budget derivation.
// A private MariaDB (ClusterEnvironment, shared by the points of a sweep), a database per
// run, R tier replicas as processes; the cluster is seeded once and every mode runs on
// it in turn: simulator up, warm-up, a quiet window between two scrapes with injections
// at a fixed rate, the notices collected, the simulator stopped.
import { writeFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createClient } from '../../client/index.js';
import type { DatabaseClient } from '../../client/index.js';
import { Lifecycle, component } from '../../proto/runtime/lifecycle.js';
import { startGaleraInTemp } from '../../harness/galera.js';
import { EmbeddedMariaDb } from '../../server/embedded/mariadb.js';
import { MISS_AFTER_MS, matchNotices } from './duties.js';
import type { Injection } from './duties.js';
import { Injector, injectionPlan } from './inject.js';
import { StatusReader, calibrateInjections, calibrateShow, scrape } from './measure.js';
import type { InjectionCosts, ScrapeTarget, StatusCounts } from './measure.js';
import { churnOf } from './options.js';
import type { ClusterOptions, Shape } from './options.js';
import { Children, ROOT, tail } from '../../harness/children.js';
import { startReplica } from '../../harness/replica.js';
import type { ReplicaProcess } from '../../harness/replica.js';
import { TempDir } from '../../harness/temp-dir.js';
import { spawnSimulator } from './processes.js';
import { SimulatorGroup, shardConfig } from './sim-group.js';
import { DEFAULT_PERIODS } from './protocol.js';
import type { Mode, SimConfig } from './protocol.js';
import { BENCH_CALLER, simInjections, summarizeMode, summarizeStart } from './results.js';
import type { ClusterResult, ModeResult, WakeAllResult } from './results.js';
import { percentile } from '../../harness/stats.js';

/** The seeded cluster, as the simulator's seed() returns it. */
export type SeededCluster = Omit<SimConfig, 'mode' | 'targets'>;
export type SeedFunction = (db: DatabaseClient, shape: Shape) => Promise<SeededCluster>;

/** Where the runs' databases live: one private MariaDB, or a private 3-node Galera cluster. */
export type Backend = 'mariadb' | 'galera';

interface DatabaseServers {
  createDatabase(name: string): Promise<void>;
  dropDatabase(name: string): Promise<void>;
  /** The URL of `name` on server `index` (replicas are spread over the servers). */
  urlFor(index: number, name: string): string;
  readonly count: number;
  pids(): (number | undefined)[];
  stop(): Promise<void>;
}

async function startServers(backend: Backend, dir: string, log: (message: string) => void): Promise<DatabaseServers> {
  if (backend === 'mariadb') {
    const mariadb = await EmbeddedMariaDb.start({ dataDir: join(dir, 'data'), database: 'bench' });
    return {
      createDatabase: (name) => mariadb.createDatabase(name),
      dropDatabase: (name) => mariadb.dropDatabase(name),
      urlFor: (_index, name) => mariadb.urlFor(name),
      count: 1,
      pids: () => [mariadb.pid],
      stop: () => mariadb.stop(),
    };
  }
  const { galera, stop } = await startGaleraInTemp({ database: 'bench', log });
  // DDL through node 0 replicates to every node.
  const ddl = async (statement: string): Promise<void> => {
    const conn = await galera.connect(0);
    try {
      await conn.query(statement);
    } finally {
      await conn.end();
    }
  };
  return {
    createDatabase: (name) => ddl(`CREATE DATABASE IF NOT EXISTS \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`),
    dropDatabase: (name) => ddl(`DROP DATABASE IF EXISTS \`${name}\``),
    urlFor: (index, name) => galera.urlFor(index % galera.size, name),
    count: galera.size,
    pids: () => Array.from({ length: galera.size }, (_, i) => galera.pid(i)),
    stop,
  };
}

/**
 * The database servers (in a temporary directory) and the child processes of the runs:
 * parts of one lifecycle, started in that order and stopped in reverse.
 */
export class ClusterEnvironment {
  private databases = 0;
  private points = 0;

  private constructor(
    private readonly temp: TempDir,
    readonly servers: DatabaseServers,
    readonly children: Children,
    readonly backend: Backend,
    private readonly lifecycle: Lifecycle,
  ) {}

  static async start(log: (message: string) => void = () => {}, backend: Backend = 'mariadb'): Promise<ClusterEnvironment> {
    const temp = new TempDir('sfdb-bench-cluster-', log);
    const children = new Children();
    let servers: DatabaseServers | undefined;
    const lifecycle = new Lifecycle().add(
      temp,
      component(
        'database servers',
        async () => {
          log(backend === 'mariadb' ? `starting a private MariaDB in ${temp.path}` : `starting a private 3-node Galera cluster in ${temp.path}`);
          servers = await startServers(backend, temp.path, log);
        },
        () => servers?.stop(),
      ),
      children.part(),
    );
    await lifecycle.start();
    return new ClusterEnvironment(temp, servers as DatabaseServers, children, backend, lifecycle);
  }

  get dir(): string {
    return this.temp.path;
  }

  /** A fresh database for one run: its URL on every server. */
  async newDatabase(): Promise<{ name: string; url: string; urls: string[] }> {
    const name = `cluster_${++this.databases}`;
    await this.servers.createDatabase(name);
    const urls = Array.from({ length: this.servers.count }, (_, i) => this.servers.urlFor(i, name));
    return { name, url: urls[0] as string, urls };
  }

  /** The number of the next run on this environment (it names the run's files). */
  nextPoint(): number {
    return ++this.points;
  }

  /** Stops every child, then the database servers, and removes the directory; safe to call twice. */
  stop(): Promise<void> {
    return this.lifecycle.stop();
  }
}

export async function loadSeed(path: string): Promise<SeedFunction> {
  const mod = (await import(pathToFileURL(resolve(ROOT, path)).href)) as { seed?: unknown };
  if (typeof mod.seed !== 'function') throw new Error(`${path} does not export seed()`);
  return mod.seed as SeedFunction;
}

/** The simulator refused a mode (exit 2 before ready: e.g. feed before the change feed exists). */
class ModeUnavailable extends Error {
  override name = 'ModeUnavailable';
}

/** Waits until `until` (Date.now() time); throws if the simulator exits meanwhile. */
async function hold(sim: Pick<SimulatorGroup, 'exitStatus' | 'logPath' | 'next'>, until: number): Promise<void> {
  for (;;) {
    if (sim.exitStatus) throw new Error(`the simulator exited (${sim.exitStatus.signal ?? `code ${sim.exitStatus.code}`}) mid-run:\n${tail(sim.logPath)}`);
    const left = until - Date.now();
    if (left <= 0) return;
    await sim.next(left);
  }
}

interface RunContext {
  options: ClusterOptions;
  env: ClusterEnvironment;
  replicas: ReplicaProcess[];
  db: DatabaseClient;
  /** One bench client per replica (injections of a pinned run). */
  writers: DatabaseClient[];
  status: StatusReader;
  cluster: SeededCluster;
  showCost: StatusCounts;
  costs: InjectionCosts;
  point: number;
}

async function runMode(ctx: RunContext, mode: Mode): Promise<ModeResult> {
  const { options, env, cluster } = ctx;
  const log = options.log ?? (() => {});
  const durationMs = options.durationS * 1000;
  const plan = injectionPlan(Math.floor(durationMs / options.injectEveryMs), cluster);
  const injector = new Injector(ctx.db, { clients: ctx.writers, nodes: cluster.nodes.map((n) => n.uuid) });
  await injector.prepare(plan);

  // Pinned: each node's processes talk to one replica, so notices split by same/other replica.
  const config: SimConfig = {
    ...cluster,
    mode,
    targets: ctx.replicas.map((r) => r.grpcAddress),
    pinned: true,
    ...(options.periods ? { periods: options.periods } : {}),
    ...(options.plant ? { plant: options.plant } : {}),
    ...(options.wakeAll && mode === 'feed' ? { wakeAll: true } : {}),
    ...(churnOf(options) > 0
      ? { churn: { instancesPerS: options.churnInstances ?? 0, staticPerS: options.churnStatic ?? 0, lifetimeMs: Math.round(options.churnLifetimeS * 1000) } }
      : {}),
  };
  const targets: ScrapeTarget[] = ctx.replicas.map((r) => ({ id: r.id, httpPort: r.httpPort }));
  const beforeStart = await scrape(targets, ctx.status, env.servers.pids());
  const spawnedAt = Date.now();
  // One simulator process unless told (--sim-processes): on 2 shared cores, 4 simulator
  // processes starting 7,000 daemons took the CPU from the replicas (one lost its registry
  // row and exited), where one process started them all in 68.8 s.
  const shards = shardConfig(config, options.simProcesses ?? 1);
  const sim = new SimulatorGroup(
    shards.map((shard, s) => {
      const name = `sim-${ctx.point}-${mode}${shards.length > 1 ? `-${s}` : ''}`;
      const configPath = join(env.dir, `${name}.json`);
      writeFileSync(configPath, JSON.stringify(shard, null, 2));
      const logPath = join(env.dir, `${name}.log`);
      const proc = spawnSimulator(env.children, options.simMain, configPath, logPath);
      // The simulated daemons stand for other machines: on this one they yield the CPU to
      // the tier and MariaDB (niceness 10), or a start storm of thousands of them starves
      // the replicas they are measuring.
      if (proc.pid !== undefined) setPriority(proc.pid, 10);
      return { proc, logPath };
    }),
  );
  const stopSims = (): Promise<unknown> => Promise.all(sim.procs.map((p) => env.children.stop(p, 30_000)));
  try {
    if (shards.length > 1) log(`${mode}: the simulator runs as ${shards.length} processes`);
    const ready = await sim.ready(300_000).catch((err: unknown) => {
      if (sim.exitStatus?.code === 2) throw new ModeUnavailable(tail(sim.logPath, 3) || (err as Error).message);
      throw err;
    });
    const started = summarizeStart(beforeStart, await scrape(targets, ctx.status, env.servers.pids()));
    log(
      `${mode}: ${ready.daemons} simulated daemons ready ${((ready.at - spawnedAt) / 1000).toFixed(1)} s after the simulator started ` +
        `(${started.calls} calls, ${started.errors.reduce((a, e) => a + e.calls, 0)} failed); warming up for ${options.warmupS} s`,
    );
    await hold(sim, Date.now() + options.warmupS * 1000);

    const simCpuStartS = sim.cpuSeconds();
    const start = await scrape(targets, ctx.status, env.servers.pids());
    log(`${mode}: measuring for ${options.durationS} s, one injection every ${options.injectEveryMs} ms`);
    const injections: Injection[] = [];
    for (let i = 0; i < plan.length; i++) {
      await hold(sim, start.at + (i + 0.5) * options.injectEveryMs);
      const p = plan[i];
      if (p) injections.push(await injector.inject(p));
    }
    await hold(sim, start.at + durationMs);
    const simCpuEndS = sim.cpuSeconds();
    const end = await scrape(targets, ctx.status, env.servers.pids());

    // Notices still due (the churn's too): wait until each is noticed or has had its MISS_AFTER_MS.
    const due = [...injections, ...simInjections(sim.events, start.at, end.at)];
    const lastAt = due.reduce((m, i) => Math.max(m, i.at), 0);
    for (;;) {
      const noticed = sim.events.flatMap((e) => (e.event === 'noticed' ? [e] : []));
      if (matchNotices(due, noticed).every((m) => m.latencyMs !== undefined || m.error !== undefined)) break;
      if (Date.now() > lastAt + MISS_AFTER_MS) break;
      await hold(sim, Math.min(Date.now() + 500, lastAt + MISS_AFTER_MS + 1));
    }
    const wakeAll = options.wakeAll && mode === 'feed' ? await timeWakeAll(ctx, sim, ready.daemons) : undefined;
    if (wakeAll) log(`${mode}: one cluster-config change woke ${wakeAll.woken} of ${wakeAll.processes} processes: p50 ${wakeAll.p50Ms} ms, p99 ${wakeAll.p99Ms} ms, max ${wakeAll.maxMs} ms`);
    const stopAt = Date.now();
    await stopSims();
    await injector.restore();

    const nodes = cluster.nodes.map((n) => n.uuid);
    const result = summarizeMode({
      mode,
      replicaIds: ctx.replicas.map((r) => r.id),
      start,
      end,
      simCpuStartS,
      simCpuEndS,
      events: sim.events,
      injections,
      readyAt: ready.at,
      stopAt,
      nodes,
      nodesWithInstances: [...new Set(cluster.instances.map((i) => i.nodeUuid))],
      periods: { ...DEFAULT_PERIODS, ...options.periods },
      showCost: ctx.showCost,
      costs: ctx.costs,
    });
    result.start = started;
    if (wakeAll) result.wakeAll = wakeAll;
    log(
      `${mode}: tier ${result.tier.rpcPerSecond.toFixed(1)} RPC/s, MariaDB ${result.mariadb.perSecond.Questions.toFixed(1)} statements/s, ` +
        `duties ${result.dutiesHeld ? 'held' : 'MISSED'}`,
    );
    return result;
  } finally {
    await stopSims();
  }
}

/** One cluster-config change, after the window: how long until every simulated process heard it. */
async function timeWakeAll(ctx: RunContext, sim: SimulatorGroup, processes: number): Promise<WakeAllResult> {
  const key = `bench.wake-all.${ctx.point}.${Date.now()}`;
  const sentAt = Date.now();
  await ctx.db.setClusterConfig(key, { sentAt });
  const heard = (): number[] => sim.events.flatMap((e) => (e.event === 'woken' && e.id === key ? [e.at - sentAt] : []));
  const deadline = sentAt + 10_000;
  while (heard().length < processes && Date.now() < deadline) await hold(sim, Math.min(Date.now() + 200, deadline));
  const latencies = heard().sort((a, b) => a - b);
  return { processes, woken: latencies.length, p50Ms: percentile(latencies, 0.5), p99Ms: percentile(latencies, 0.99), maxMs: latencies.at(-1) ?? Number.NaN };
}

/**
 * Runs every mode of `options` on one seeded cluster and returns the figures. With `env`
 * the run uses that MariaDB (a fresh database in it) and leaves it running; without, it
 * starts its own and stops it at the end.
 */
export async function runCluster(options: ClusterOptions, env?: ClusterEnvironment): Promise<ClusterResult> {
  const log = options.log ?? (() => {});
  const own = env === undefined;
  const environment = env ?? (await ClusterEnvironment.start(log));
  const point = environment.nextPoint();
  const replicas: ReplicaProcess[] = [];
  let db: DatabaseClient | undefined;
  let writers: DatabaseClient[] = [];
  let status: StatusReader | undefined;
  let database: string | undefined;
  try {
    const { name, urls } = await environment.newDatabase();
    database = name;
    const seed = await loadSeed(options.simSeed);
    // One after another: the first applies the migrations.
    for (let i = 1; i <= options.replicas; i++) {
      const id = `bench-${i}`;
      log(`starting replica ${id}`);
      // Spread over the servers: on Galera each replica writes through its own node.
      const databaseUrl = urls[(i - 1) % urls.length] as string;
      replicas.push(await startReplica({ children: environment.children, id, databaseUrl, logPath: join(environment.dir, `replica-${point}-${i}.log`) }));
    }
    db = createClient({ targets: replicas.map((r) => r.grpcAddress), callerDaemon: BENCH_CALLER, cache: false, feed: false, deadlineMs: 60_000 });
    const shape: Shape = {
      nodes: options.nodes,
      instances: options.instances,
      history: options.history,
      churnInstances: options.churnInstances ?? 0,
      churnStatic: options.churnStatic ?? 0,
    };
    log(`seeding ${shape.nodes} nodes, ${shape.instances} instances, history ${shape.history}`);
    const seededAt = Date.now();
    const cluster = await seed(db, shape);
    const seedSeconds = (Date.now() - seededAt) / 1000;

    status = await StatusReader.open(urls);
    const showCost = await calibrateShow(status);
    const targets = replicas.map((r) => ({ id: r.id, httpPort: r.httpPort }));
    const costs = await calibrateInjections(db, targets, status, showCost, cluster);

    writers = replicas.map((r) => createClient({ targets: [r.grpcAddress], callerDaemon: BENCH_CALLER, cache: false, feed: false, deadlineMs: 60_000 }));
    const ctx: RunContext = { options, env: environment, replicas, db, writers, status, cluster, showCost, costs, point };
    const startedAt = new Date().toISOString();
    const results: ModeResult[] = [];
    const skipped: { mode: Mode; reason: string }[] = [];
    for (const mode of options.modes) {
      try {
        results.push(await runMode(ctx, mode));
      } catch (err) {
        if (!(err instanceof ModeUnavailable)) throw err;
        log(`${mode}: the simulator does not run this mode (${err.message.trim()}); skipped`);
        skipped.push({ mode, reason: err.message.trim() });
      }
    }
    return {
      shape,
      replicas: options.replicas,
      modes: [...options.modes],
      warmupS: options.warmupS,
      durationS: options.durationS,
      injectEveryMs: options.injectEveryMs,
      ...(churnOf(options) > 0 ? { churnLifetimeS: options.churnLifetimeS } : {}),
      startedAt,
      seedSeconds,
      cluster: { nodes: cluster.nodes.length, instances: cluster.instances.length, networks: cluster.networks.length },
      calibration: { showStatus: showCost, injections: costs },
      results,
      skipped,
    };
  } finally {
    db?.close();
    for (const w of writers) w.close();
    await status?.close().catch(() => undefined);
    await Promise.all(replicas.map((r) => environment.children.stop(r.proc)));
    if (own) await environment.stop();
    else if (database !== undefined) await environment.servers.dropDatabase(database).catch(() => undefined);
  }
}
