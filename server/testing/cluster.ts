// "A MariaDB and N replicas", written once: a tier for a test or a bench as one lifecycle
// component. Its parts, started in this order and stopped in reverse — by stop(), and
// after a failed start (what had started is stopped, then the start rejects):
//   1. the run's temporary directory (when it wants one: temp-dir.ts);
//   2. the database servers: started here (PrivateMariaDb in the directory, a private
//      Galera cluster) or run by someone else (MariaDbAt: nothing to start);
//   3. the tier's database on them: created, and dropped at stop, or one that exists;
//   4. the caller's parts that the replicas need (a TCP proxy in front of them);
//   5. the replicas, one after another (the first applies the migrations); replica `i`
//      dials server `i % size` (on Galera each writes through its own node);
//   6. the caller's parts that need the replicas (a peer refresh, a test's connection).
// A replica is what a launcher makes of a plan: a Tier in this process (in-process.ts:
// sf-database/testing, the test helpers) or a child process (harness/cluster.ts: the
// benches and chaos tests). Once started, a replica can be added, stopped, or restarted
// (stopped, then started from its plan or a new one: the same identity or another);
// every one still running stops with the cluster, the last started first.
import { Lifecycle, component } from '@sfdb/proto/runtime/lifecycle';
import type { Component } from '@sfdb/proto/runtime/lifecycle';
import type { DatabaseServer, ServerPart } from './database.js';
import type { TempDir } from './temp-dir.js';

/** How a replica is started and stopped. */
export interface ReplicaLauncher<P extends ReplicaPlan, R> {
  /** Starts the replica of `plan` on `databaseUrl`; resolves once it serves. A failed start leaves nothing running. */
  start(plan: P, databaseUrl: string): Promise<R>;
  /** Stops it and waits until it has (nothing when it has exited already). */
  stop(replica: R): Promise<unknown>;
}

/** What a launcher needs to start one replica; `name` is its key in the cluster. */
export interface ReplicaPlan {
  readonly name: string;
}

export interface TierClusterOptions<P extends ReplicaPlan, R> {
  /** The run's directory: made first, removed last. */
  dir?: TempDir;
  /**
   * The servers: `run`, a part of the cluster (started after the directory, stopped before
   * it is removed); `use`, servers someone else runs (a URL's, another cluster's).
   */
  server: { run: ServerPart } | { use: DatabaseServer };
  /**
   * The tier's database. `create`: made at start and dropped at stop (on servers someone
   * else runs); otherwise it is there already (the servers' start made it, or another
   * tier uses it) and stays.
   */
  database: { name: string; create: boolean };
  /** The replicas started with the cluster, in order. */
  replicas: readonly P[];
  launcher: ReplicaLauncher<P, R>;
  /** Parts started before the replicas and stopped after them. */
  before?: readonly Component[];
  /** Parts started after the replicas and stopped before them. */
  after?: readonly Component[];
}

export class TierCluster<P extends ReplicaPlan, R> implements Component {
  readonly name = 'tier';
  private readonly lifecycle = new Lifecycle();
  /** The replicas running (or killed and not yet stopped), in start order. */
  private readonly running = new Map<string, { plan: P; replica: R }>();
  /** Starts under way (an add() outside start): stop waits for them. */
  private readonly starting = new Set<Promise<unknown>>();
  /** Replicas started so far: the next one dials server `serial % size`. */
  private serial = 0;
  private closed = false;

  private readonly servers: DatabaseServer;

  constructor(private readonly opts: TierClusterOptions<P, R>) {
    const { dir, database } = opts;
    const server = 'run' in opts.server ? opts.server.run : opts.server.use;
    this.servers = server;
    if (dir) this.lifecycle.add(dir);
    if ('run' in opts.server) this.lifecycle.add(opts.server.run);
    if (database.create) {
      this.lifecycle.add(component(`database ${database.name}`, () => server.createDatabase(database.name), () => server.dropDatabase(database.name)));
    }
    this.lifecycle.add(
      ...(opts.before ?? []),
      component('replicas', () => this.startReplicas(), () => this.stopReplicas()),
      ...(opts.after ?? []),
    );
  }

  /** Starts every part in order; on a failure stops those that started, in reverse, and rejects. */
  start(): Promise<void> {
    return this.lifecycle.start();
  }

  /** Stops every part that started, in reverse (the replicas the last started first); safe to call twice. */
  stop(): Promise<void> {
    return this.lifecycle.stop();
  }

  get server(): DatabaseServer {
    return this.servers;
  }

  /** The tier's database (its name). */
  get database(): string {
    return this.opts.database.name;
  }

  /** mysql://… of the tier's database on the server replica `index` dials. */
  urlFor(index: number): string {
    const { servers } = this;
    return servers.urlFor(index % servers.size, this.database);
  }

  /** The tier's database on the first server. */
  get databaseUrl(): string {
    return this.urlFor(0);
  }

  /** The running replicas (a killed one until it is stopped or restarted), in start order. */
  get replicas(): R[] {
    return [...this.running.values()].map((r) => r.replica);
  }

  replica(name: string): R {
    return this.entry(name).replica;
  }

  /** The plan replica `name` was started from. */
  plan(name: string): P {
    return this.entry(name).plan;
  }

  /** Starts another replica (names are unique among the running); it stops with the others. */
  add(plan: P): Promise<R> {
    const started = this.launch(plan);
    this.starting.add(started);
    return started.finally(() => this.starting.delete(started));
  }

  /** Stops replica `name` (nothing to do when it was killed) and forgets it; returns its plan. */
  async stopReplica(name: string): Promise<P> {
    const { plan, replica } = this.entry(name);
    this.running.delete(name);
    await this.opts.launcher.stop(replica);
    return plan;
  }

  /**
   * Stops replica `name` and starts it again from `change(plan)`: its old plan unless
   * told (the same identity), or another (a fresh id, new settings).
   */
  async restart(name: string, change: (plan: P) => P = (plan) => plan): Promise<R> {
    return this.add(change(await this.stopReplica(name)));
  }

  private entry(name: string): { plan: P; replica: R } {
    const found = this.running.get(name);
    if (!found) throw new Error(`no replica ${name} (running: ${[...this.running.keys()].join(', ') || 'none'})`);
    return found;
  }

  private async launch(plan: P): Promise<R> {
    if (this.closed) throw new Error(`not starting replica ${plan.name}: the tier is stopping`);
    if (this.running.has(plan.name)) throw new Error(`replica ${plan.name} runs already`);
    const replica = await this.opts.launcher.start(plan, this.urlFor(this.serial++));
    if (this.closed) {
      await this.opts.launcher.stop(replica);
      throw new Error(`replica ${plan.name} started while the tier was stopping: stopped again`);
    }
    this.running.set(plan.name, { plan, replica });
    return replica;
  }

  /** The cluster's replicas in order; a failure stops those that started, in reverse (the lifecycle stops only parts whose start resolved). */
  private async startReplicas(): Promise<void> {
    try {
      for (const plan of this.opts.replicas) await this.add(plan);
    } catch (err) {
      await this.stopReplicas().catch(() => undefined);
      throw err;
    }
  }

  private async stopReplicas(): Promise<void> {
    this.closed = true;
    await Promise.allSettled(this.starting);
    const failures: unknown[] = [];
    for (const name of [...this.running.keys()].reverse()) await this.stopReplica(name).catch((err: unknown) => failures.push(err));
    if (failures.length > 0) throw failures.length === 1 ? failures[0] : new AggregateError(failures, `${failures.length} replicas failed to stop`);
  }
}
