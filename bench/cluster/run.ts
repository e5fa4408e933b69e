// One measured run of the simulated cluster: `runCluster(options) → ClusterResult`, used
// by `npm run bench:cluster`, the CI-sized regression test and the budget derivation.
// A private MariaDB or Galera cluster (ClusterEnvironment, shared by the points of a
// sweep), a database per run and R tier replicas as processes (a tier per run,
// harness/cluster.ts); the cluster is seeded once and every mode runs on
// it in turn: simulator up, warm-up, a quiet window between two scrapes with injections
// at a fixed rate, the notices collected, the simulator stopped.
import { writeFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createClient } from '../../client/index.js';
import type { DatabaseClient } from '../../client/index.js';
import { Lifecycle } from '../../proto/runtime/lifecycle.js';
import type { DatabaseServer } from '../../server/testing/database.js';
import { ProcessCluster } from '../../harness/cluster.js';
import type { From } from '../../harness/built.js';
import { MISS_AFTER_MS, matchNotices } from './duties.js';
import type { Injection } from './duties.js';
import { Injector, injectionPlan } from './inject.js';
import { StatusReader, calibrateInjections, calibrateShow, scrape } from './measure.js';
import type { InjectionCosts, ScrapeTarget, StatusCounts } from './measure.js';
import { churnOf } from './options.js';
import type { ClusterOptions, Shape } from './options.js';
import { Children, ROOT, tail } from '../../harness/children.js';
import type { ReplicaProcess } from '../../harness/replica.js';
import { spawnSimulator } from './processes.js';
import { HeartbeatLock } from './slow.js';
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

/**
 * The database servers (a private MariaDB in a temporary directory, or a private Galera
 * cluster) and the child processes of the runs, shared by the points of a sweep: the
 * servers are a tier of no replicas (harness/cluster.ts); each run is another tier on
 * them, with a database and replicas of its own, its logs in the same directory. Started
 * in that order and stopped in reverse.
 */
export class ClusterEnvironment {
  readonly children = new Children();
  private readonly base: ProcessCluster;
  private readonly lifecycle: Lifecycle;
  private databases = 0;
  private points = 0;

  private constructor(
    log: (message: string) => void,
    readonly backend: Backend,
    /** How the runs' replicas run: the build (built beforehand: harness/built.ts buildCheckout) or the sources under tsx. */
    readonly tierFrom: From,
  ) {
    this.base = new ProcessCluster({ dir: 'sfdb-bench-cluster-', server: backend, database: 'bench', children: this.children, say: log });
    this.lifecycle = new Lifecycle().add(this.base, this.children.part());
  }

  static async start(log: (message: string) => void = () => {}, backend: Backend = 'mariadb', tierFrom: From = 'source'): Promise<ClusterEnvironment> {
    const env = new ClusterEnvironment(log, backend, tierFrom);
    await env.lifecycle.start();
    return env;
  }

  get dir(): string {
    return this.base.dir;
  }

  get servers(): DatabaseServer {
    return this.base.server;
  }

  /** One run's tier: a fresh database on the servers (made at its start, dropped at its stop); the run adds the replicas. */
  tier(): ProcessCluster {
    const dir = this.dir;
    return new ProcessCluster({ dir: { path: dir }, server: this.servers, database: `cluster_${++this.databases}`, children: this.children, timeoutMs: 180_000, built: this.tierFrom === 'built' });
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
  /** The run's database on each server. */
  urls: readonly string[];
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
  let slowed: HeartbeatLock | undefined;
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
    if (options.slow === 'heartbeat-lock') slowed = await HeartbeatLock.start(ctx.urls[0] ?? '');
    const windowEnds = await options.onWindow?.(ctx.replicas);
    const injections: Injection[] = [];
    for (let i = 0; i < plan.length; i++) {
      await hold(sim, start.at + (i + 0.5) * options.injectEveryMs);
      const p = plan[i];
      if (p) injections.push(await injector.inject(p));
    }
    await hold(sim, start.at + durationMs);
    const simCpuEndS = sim.cpuSeconds();
    const end = await scrape(targets, ctx.status, env.servers.pids());
    await windowEnds?.();
    if (slowed) log(`${mode}: the planted heartbeat lock held ${await slowed.stop()} spells in the window`);

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
    await slowed?.stop();
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
  const tier = environment.tier();
  let db: DatabaseClient | undefined;
  let writers: DatabaseClient[] = [];
  let status: StatusReader | undefined;
  try {
    await tier.start();
    const urls = tier.urls;
    const seed = await loadSeed(options.simSeed);
    // One after another: the first applies the migrations. Spread over the servers: on
    // Galera each replica writes through its own node. Each logs to replica-<point>-<i>.log.
    for (let i = 1; i <= options.replicas; i++) {
      const id = `bench-${i}`;
      log(`starting replica ${id}`);
      await tier.add({ name: `replica-${point}-${i}`, id });
    }
    const replicas = tier.replicas;
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
    const ctx: RunContext = { options, env: environment, urls, replicas, db, writers, status, cluster, showCost, costs, point };
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
    // The replicas, then the run's database.
    await tier.stop().catch((err: unknown) => log(`could not stop the run's tier: ${(err as Error).message}`));
    if (own) await environment.stop();
  }
}
