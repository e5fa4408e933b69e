// The tier's lifecycle, owned in one place: components start in order and stop in
// reverse. start = pool → schema (migrate or verify) → change-feed window → gRPC → HTTP →
// registry → feed tail → health SERVING.
// stop = health NOT_SERVING → long-polls answered → in-flight calls finish within the drain
// grace → feed, registry, pool closed.
import type * as grpc from '@grpc/grpc-js';
import type { Server as HttpServer } from 'node:http';
import type { HealthImplementation } from 'grpc-health-check';
import type { Config } from './config.js';
import { Database, createPool, createWatchdog, serverTraits } from './db/pool.js';
import { UnavailableError } from './errors.js';
import type { ConnectionGuard } from './grpc/connections.js';
import { DATABASE_SERVICE, bind, buildGrpcServer } from './grpc/service.js';
import { AdminRoutes } from './admin/routes.js';
import { buildHttpServer, listen } from './http.js';
import type { Logger } from './log.js';
import { Metrics } from './metrics.js';
import { migrate, verifySchema } from './migrate.js';
import { ChangeFeed } from './changefeed/feed.js';
import { createGroups } from './rpc/group-kinds.js';
import type { Groups } from './rpc/group-kinds.js';
import { clusterSummary } from './registry/queries.js';
import { ClusterSizeSampler } from './registry/cluster-size.js';
import { ReplicaRegistry, realClock } from './registry/registry.js';

export class Tier {
  private state: 'serving' | 'draining' | 'stopped' = 'serving';
  private stopping: Promise<void> | undefined;
  private summary: { at: number; value: Promise<Record<string, unknown>> } | undefined;
  private lostReason: string | undefined;
  private databaseDown = false;
  private databaseWatch: NodeJS.Timeout | undefined;
  /** Resolves with the reason if this replica loses its registry row (it then drains). */
  readonly lost: Promise<string>;
  private reportLost: (reason: string) => void = () => {};

  private constructor(
    readonly config: Config,
    readonly metrics: Metrics,
    readonly db: Database,
    private readonly grpcServer: grpc.Server,
    private readonly connections: ConnectionGuard,
    private readonly health: HealthImplementation,
    private readonly httpServer: HttpServer,
    readonly grpcPort: number,
    readonly httpPort: number,
    private readonly log: Logger,
    readonly registry: ReplicaRegistry,
    readonly feed: ChangeFeed,
    readonly groups: Groups,
  ) {
    this.lost = new Promise((resolve) => (this.reportLost = resolve));
  }

  static async start(config: Config, databaseUrl: string, log: Logger): Promise<Tier> {
    const metrics = new Metrics(config.replicaId);
    const { galera } = await serverTraits(databaseUrl).catch((err: unknown) => {
      throw new UnavailableError(`cannot reach MariaDB: ${(err as Error).message}`, { cause: err });
    });
    if (galera) log.info('MariaDB is a Galera node: statements wait for causality (wsrep_sync_wait = 7)');
    const db = new Database(
      createPool({ url: databaseUrl, connectionLimit: config.poolSize, queueLimit: config.poolQueueLimit, galera }),
      metrics,
      createWatchdog(databaseUrl, metrics),
      // The replica's own coordination (registry heartbeat, feed tail): two connections of
      // its own, never shed by the client calls' queue bound (OWN_SOURCES).
      createPool({ url: databaseUrl, connectionLimit: 2, galera }),
    );
    metrics.poolLimit.set(config.poolSize);
    const sampler = new ClusterSizeSampler(
      db.sql('registry'),
      { everyMs: config.clusterSizeMs, replicaLiveMs: config.replicaLiveMs, nodeLiveMs: config.nodeLiveMs, scrapeWaitMs: 500 },
      metrics,
      log,
    );
    metrics.onClusterScrape(() => sampler.onScrape());
    try {
      if (config.migrate) {
        const applied = await migrate(db.sql('migration'), { log, holder: `${config.replicaId}/${process.pid}` });
        if (applied.length > 0) log.info({ applied }, 'migrations applied');
      } else {
        await verifySchema(db.sql('migration'), undefined, log);
      }
    } catch (err) {
      await db.close();
      throw err;
    }
    const feed = new ChangeFeed(db, config, metrics, log);
    try {
      await feed.load();
    } catch (err) {
      await db.close();
      throw err;
    }
    // Group commit of the frequent per-node writes; stopped (its open batches written)
    // once the in-flight calls are done, before the feed and the pool.
    const groups = createGroups({ windowMs: config.groupCommitMs, maxCalls: config.groupCommitMaxCalls }, db.sql('rpc'), feed, metrics, realClock);
    const { server, health, connections } = buildGrpcServer({ config, db, metrics, log, feed, groups });
    let grpcPort: number;
    try {
      grpcPort = await bind(server, config.grpcHost, config.grpcPort, config.tls);
    } catch (err) {
      await db.close();
      throw new Error(`cannot listen for gRPC on ${config.grpcHost}:${config.grpcPort}: ${(err as Error).message}`);
    }
    connections.start(server);
    // HTTP listens before the registry row is written, so the row can carry its address.
    // The HTTP server needs the tier for /healthz; the tier exists once both listen.
    const holder: { tier?: Tier } = {};
    // The read-only admin view (server/admin/): reads only when a page asks.
    const admin = config.admin ? new AdminRoutes({ config, db, feed, metrics }, log) : undefined;
    const httpServer = buildHttpServer(
      metrics,
      {
        health: async () => (holder.tier ? holder.tier.healthz() : { status: 'starting' }),
        ready: async () => (holder.tier ? holder.tier.readyz() : { ready: false, reason: 'starting' }),
      },
      admin,
    );
    let httpPort: number;
    try {
      httpPort = await listen(httpServer, config.httpHost, config.httpPort);
    } catch (err) {
      connections.stop();
      server.forceShutdown();
      await feed.stop();
      await db.close();
      throw new Error(`cannot listen for HTTP on ${config.httpHost}:${config.httpPort}: ${(err as Error).message}`);
    }
    // A wildcard bind is no address a peer or a load tool can use: say so once.
    const wildcard = (host: string): boolean => host === '0.0.0.0' || host === '::' || host === '[::]';
    if (wildcard(config.grpcHost) && !config.advertiseAddress) {
      log.warn({ grpcHost: config.grpcHost }, 'gRPC bound to a wildcard address without SFDB_ADVERTISE_ADDRESS: peers cannot poke this replica (their waiters hear its writes at the next tail)');
    }
    if (wildcard(config.httpHost) && !config.advertiseMetricsAddress) {
      log.warn({ httpHost: config.httpHost }, 'HTTP bound to a wildcard address without SFDB_ADVERTISE_METRICS_ADDRESS: sf-ctl load cannot find this replica\'s /metrics');
    }
    const registry = new ReplicaRegistry(
      db.sql('registry'),
      {
        replicaId: config.replicaId,
        address: config.advertiseAddress || `${config.grpcHost}:${grpcPort}`,
        metricsAddress: config.advertiseMetricsAddress || `${config.httpHost}:${httpPort}`,
        heartbeatMs: config.replicaHeartbeatMs,
        liveMs: config.replicaLiveMs,
      },
      log,
    );
    try {
      await registry.register();
      await feed.start(registry.ownerToken);
    } catch (err) {
      connections.stop();
      server.forceShutdown();
      httpServer.close();
      await feed.stop();
      await db.close();
      throw err;
    }
    metrics.declarePeriodicTask('registry_heartbeat', 'registry', config.replicaHeartbeatMs, 'keep this replica live in the registry');
    metrics.declarePeriodicTask(
      'cluster_size',
      'registry',
      config.clusterSizeMs,
      'the live cluster size for the load model (only when /metrics is scraped, at most once per interval)',
    );
    const tier = new Tier(config, metrics, db, server, connections, health, httpServer, grpcPort, httpPort, log, registry, feed, groups);
    holder.tier = tier;
    registry.start((reason) => tier.onRegistryLost(reason));
    health.setStatus('', 'SERVING');
    health.setStatus(DATABASE_SERVICE, 'SERVING');
    tier.watchDatabase();
    // The logger's base already names the replica.
    log.info({ grpc: `${config.grpcHost}:${grpcPort}`, http: `${config.httpHost}:${httpPort}` }, 'sf-database serving');
    return tier;
  }

  private onRegistryLost(reason: string): void {
    this.lostReason = reason;
    this.reportLost(reason);
    void this.stop();
  }

  /**
   * /healthz: this replica and a cluster summary. The live counts cost one query, run on
   * demand and shared by the probes of the same second (never periodic on its own).
   */
  async healthz(): Promise<Record<string, unknown>> {
    const now = performance.now();
    if (!this.summary || now - this.summary.at > 1000) {
      this.summary = { at: now, value: this.readSummary() };
    }
    const reg = this.registry.snapshot();
    return {
      status: this.state,
      replica_id: this.config.replicaId,
      registry: reg.state,
      heartbeat_age_ms: reg.msSinceLastBeat ?? null,
      ...(this.lostReason ? { lost: this.lostReason } : {}),
      ...(await this.summary.value),
    };
  }

  private async readSummary(): Promise<Record<string, unknown>> {
    const timeout = new AbortController();
    try {
      // Bounded like /readyz: a stalled MariaDB must not stall the probe.
      const row = await Promise.race([
        clusterSummary(this.db.sql('registry'), this.config.replicaLiveMs, this.config.nodeLiveMs),
        realClock.sleep(this.config.readyzTimeoutMs, timeout.signal).then(() => 'timeout' as const),
      ]);
      if (row === 'timeout') return { live_replicas: null, live_nodes: null, database: `no answer within ${this.config.readyzTimeoutMs} ms` };
      return { live_replicas: Number(row?.live_replicas ?? 0), live_nodes: Number(row?.live_nodes ?? 0), database: 'up' };
    } catch (err) {
      return { live_replicas: null, live_nodes: null, database: `down: ${(err as Error).message}` };
    } finally {
      timeout.abort();
    }
  }

  /**
   * /readyz: serving, and MariaDB answers. Answers within SFDB_READYZ_TIMEOUT_MS whatever
   * MariaDB does; once MariaDB has been unreachable for SFDB_DATABASE_DOWN_AFTER_MS it
   * answers at once, without a statement.
   */
  async readyz(): Promise<{ ready: boolean; reason?: string }> {
    if (this.state !== 'serving') return { ready: false, reason: this.state };
    const down = this.db.reach.unreachableForMs();
    if (down >= this.config.databaseDownAfterMs) return { ready: false, reason: `database: unreachable for ${Math.round(down)} ms` };
    const timeout = new AbortController();
    try {
      // On demand only (whoever probes pays); never periodic.
      const answered = await Promise.race([
        this.db.sql('registry').rows('SELECT 1 AS ok').then(() => true),
        realClock.sleep(this.config.readyzTimeoutMs, timeout.signal).then(() => false),
      ]);
      return answered ? { ready: true } : { ready: false, reason: `database: no answer within ${this.config.readyzTimeoutMs} ms` };
    } catch (err) {
      return { ready: false, reason: `database: ${(err as Error).message}` };
    } finally {
      timeout.abort();
    }
  }

  /**
   * gRPC health follows MariaDB: NOT_SERVING once it has been unreachable for
   * SFDB_DATABASE_DOWN_AFTER_MS (load balancers and clients move away), SERVING again when
   * it answers. Checked every second in memory: no statement of its own.
   */
  private watchDatabase(): void {
    const check = (): void => {
      if (this.state !== 'serving') return;
      const down = this.db.reach.unreachableForMs() >= this.config.databaseDownAfterMs;
      if (down === this.databaseDown) return;
      this.databaseDown = down;
      const status = down ? 'NOT_SERVING' : 'SERVING';
      this.health.setStatus('', status);
      this.health.setStatus(DATABASE_SERVICE, status);
      if (down) this.log.warn({ unreachableMs: Math.round(this.db.reach.unreachableForMs()) }, 'MariaDB unreachable: health NOT_SERVING');
      else this.log.info('MariaDB answers again: health SERVING');
    };
    this.databaseWatch = setInterval(check, 1_000);
    this.databaseWatch.unref();
  }

  /** Drains and stops; safe to call more than once. */
  stop(): Promise<void> {
    this.stopping ??= this.drain();
    return this.stopping;
  }

  private async drain(): Promise<void> {
    this.state = 'draining';
    clearInterval(this.databaseWatch);
    this.health.setStatus('', 'NOT_SERVING');
    this.health.setStatus(DATABASE_SERVICE, 'NOT_SERVING');
    this.log.info({ graceMs: this.config.drainGraceMs }, 'draining: new calls refused, in-flight calls finishing');
    // Long-polls answer at once, so their clients re-ask another replica.
    this.feed.drain();
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.log.warn('drain grace over: cancelling the calls still running');
        this.grpcServer.forceShutdown();
        resolve();
      }, this.config.drainGraceMs);
      this.grpcServer.tryShutdown(() => {
        clearTimeout(timer);
        resolve();
      });
    });
    this.connections.stop();
    await new Promise<void>((resolve) => {
      this.httpServer.close(() => resolve());
      this.httpServer.closeAllConnections();
    });
    // Batches still open (calls cut by the grace) are written; later ones are refused.
    await this.groups.commit.stop();
    await this.feed.stop();
    await this.registry.stop();
    await this.db.close();
    this.state = 'stopped';
    this.log.info('stopped');
  }
}
