// The tier's lifecycle, owned by one Lifecycle (proto/runtime/lifecycle.ts): the steps below start
// in order and, after a failed start, on drain, on a signal or when the registry row is
// lost, the ones that started stop in reverse.
//   start = pool → schema (migrate or verify) → change-feed window → gRPC → HTTP →
//           registry → feed tail → lease expiry → serving (health SERVING)
//   stop  = serving: health NOT_SERVING, long-polls answered, in-flight calls finish
//           within the drain grace → lease expiry → open batches written, then the feed tail
//           → registry row removed → HTTP closed → pool closed
import type * as grpc from '@grpc/grpc-js';
import type { Server as HttpServer } from 'node:http';
import type { HealthImplementation } from 'grpc-health-check';
import { Lifecycle, component } from '@sfdb/proto/runtime/lifecycle';
import { CallerNames } from './caller-names.js';
import type { Config } from './config.js';
import { Database, createPool, createWatchdog, serverTraits } from './db/pool.js';
import { SlowStatements } from './db/slow.js';
import { UnavailableError } from './errors.js';
import type { ConnectionGuard } from './grpc/connections.js';
import { DATABASE_SERVICE, bind, buildGrpcServer } from './grpc/service.js';
import { AdminRoutes } from './admin/routes.js';
import { buildHttpServer, listen } from './http.js';
import type { Logger } from '@sfdb/proto/runtime/log';
import { Metrics } from './metrics.js';
import { migrate, verifySchema } from './migrate.js';
import { ChangeFeed } from './changefeed/feed.js';
import { createGroups } from './rpc/groups.js';
import type { Groups } from './rpc/groups.js';
import { clusterSummary } from './registry/queries.js';
import { LeaseExpiryWatcher } from './rpc/leases/expiry.js';
import { ClusterSizeSampler } from './registry/cluster-size.js';
import { ReplicaRegistry } from './registry/registry.js';
import { systemClock } from '@sfdb/proto/runtime/clock';

/** The start steps, in order (a test injects a failure at each). */
export const TIER_STEPS = ['pool', 'schema', 'changefeed window', 'grpc', 'http', 'registry', 'changefeed tail', 'lease expiry', 'serving'] as const;

export interface TierStartOptions {
  /** Runs before each step of TIER_STEPS: tests inject a failure with it. */
  beforeStart?: (step: string) => unknown;
}

export class Tier {
  private state: 'starting' | 'serving' | 'draining' | 'stopped' = 'starting';
  private stopping: Promise<void> | undefined;
  private summary: { at: number; value: Promise<Record<string, unknown>> } | undefined;
  private lostReason: string | undefined;
  private databaseDown = false;
  private databaseWatch: NodeJS.Timeout | undefined;
  /** Resolves with the reason if this replica loses its registry row (it then drains). */
  readonly lost: Promise<string>;
  private reportLost: (reason: string) => void = () => {};
  private readonly lifecycle: Lifecycle;
  readonly metrics: Metrics;
  /** The caller_daemon label: the configured names, then new ones first-come up to the cap. */
  readonly callerNames: CallerNames;
  // Set by the start steps; Tier.start returns only once every one is.
  db!: Database;
  feed!: ChangeFeed;
  groups!: Groups;
  leaseExpiry!: LeaseExpiryWatcher;
  registry!: ReplicaRegistry;
  grpcPort = 0;
  httpPort = 0;
  private grpcServer!: grpc.Server;
  private connections!: ConnectionGuard;
  private health!: HealthImplementation;
  private httpServer!: HttpServer;

  private constructor(
    readonly config: Config,
    private readonly databaseUrl: string,
    private readonly log: Logger,
    options: TierStartOptions,
  ) {
    this.lost = new Promise((resolve) => (this.reportLost = resolve));
    this.metrics = new Metrics(config.replicaId);
    this.callerNames = new CallerNames({
      configured: config.callerDaemons,
      max: config.callerDaemonsMax,
      onAdmitted: (daemon, admitted) => {
        this.metrics.callerDaemonsAdmitted.set(admitted);
        log.info({ daemon, admitted, max: config.callerDaemonsMax }, 'caller_daemon: a new name is counted under its own');
      },
      onCapReached: (daemon) =>
        log.warn({ daemon, max: config.callerDaemonsMax }, 'caller_daemon: SFDB_CALLER_DAEMONS_MAX names admitted; this and every later new name is counted as other'),
    });
    this.lifecycle = new Lifecycle({
      beforeStart: options.beforeStart,
      onEvent: ({ component: name, phase, err }) => {
        if (phase === 'stop failed') log.error({ err, component: name }, 'could not stop a component');
        else log.debug({ component: name }, phase);
      },
    });
    this.lifecycle.add(
      component('pool', () => this.openPool(), () => this.db.close()),
      component('schema', () => this.checkSchema()),
      component('changefeed window', () => this.loadFeedWindow()),
      component('grpc', () => this.listenGrpc(), () => this.closeGrpc()),
      component('http', () => this.listenHttp(), () => this.closeHttp()),
      component('registry', () => this.register(), () => this.registry.stop()),
      // Open batches are written once the in-flight calls are done, before the feed stops
      // (the group commit has nothing to start: it takes calls from its creation, with the window).
      component('changefeed tail', () => this.feed.start(this.registry.ownerToken), () => this.stopTail()),
      component('lease expiry', () => this.leaseExpiry.start(), () => this.leaseExpiry.stop()),
      component('serving', () => this.serve(), () => this.drain()),
    );
  }

  static async start(config: Config, databaseUrl: string, log: Logger, options: TierStartOptions = {}): Promise<Tier> {
    const tier = new Tier(config, databaseUrl, log, options);
    await tier.lifecycle.start();
    return tier;
  }

  private async openPool(): Promise<void> {
    const { config, databaseUrl, metrics, log } = this;
    const { galera } = await serverTraits(databaseUrl).catch((err: unknown) => {
      throw new UnavailableError(`cannot reach MariaDB: ${(err as Error).message}`, { cause: err });
    });
    if (galera) log.info('MariaDB is a Galera node: statements wait for causality (wsrep_sync_wait = 7)');
    this.db = new Database(
      createPool({ url: databaseUrl, connectionLimit: config.poolSize, queueLimit: config.poolQueueLimit, maxPreparedStatements: config.preparedStatements, galera }),
      metrics,
      createWatchdog(databaseUrl, metrics),
      // The replica's own coordination (registry heartbeat, feed tail): two connections of
      // its own, never shed by the client calls' queue bound (OWN_SOURCES).
      createPool({ url: databaseUrl, connectionLimit: 2, maxPreparedStatements: config.preparedStatements, galera }),
      new SlowStatements(config.slowStatementMs, log),
    );
    metrics.poolLimit.set(config.poolSize);
    const sampler = new ClusterSizeSampler(
      this.db.sql('registry'),
      { everyMs: config.clusterSizeMs, replicaLiveMs: config.replicaLiveMs, nodeLiveMs: config.nodeLiveMs, scrapeWaitMs: 500 },
      metrics,
      log,
    );
    metrics.onClusterScrape(() => sampler.onScrape());
  }

  private async checkSchema(): Promise<void> {
    const { config, log } = this;
    if (config.migrate) {
      const applied = await migrate(this.db.sql('migration'), { log, holder: `${config.replicaId}/${process.pid}` });
      if (applied.length > 0) log.info({ applied }, 'migrations applied');
    } else {
      await verifySchema(this.db.sql('migration'), undefined, log);
    }
  }

  private async loadFeedWindow(): Promise<void> {
    const { config, metrics, log } = this;
    this.feed = new ChangeFeed(this.db, config, metrics, log);
    await this.feed.load();
    // Group commit of the frequent per-node writes; stopped (its open batches written)
    // once the in-flight calls are done, before the feed and the pool.
    this.groups = createGroups({ windowMs: config.groupCommitMs, periodicWindowMs: config.groupCommitPeriodicMs, maxCalls: config.groupCommitMaxCalls }, this.db.sql('rpc'), this.feed, metrics, systemClock);
    // Lease ends announced to the standbys waiting on the feed (started after the feed tail).
    const leaseSql = this.db.sql('changefeed');
    this.leaseExpiry = new LeaseExpiryWatcher(
      {
        sql: leaseSql,
        write: (fn) => this.feed.write(leaseSql, fn),
        waitedTopics: (prefix) => this.feed.waitedTopics(prefix),
        metrics,
        log,
      },
      { maxIntervalMs: config.leaseWatchMs },
    );
    metrics.declarePeriodicTask(
      'lease_expiry',
      'changefeed',
      config.leaseWatchMs,
      'announce a lease that ended unrenewed to its standbys (only while standbys wait here; also at each such lease\'s end)',
    );
  }

  private async listenGrpc(): Promise<void> {
    const { config, metrics, log } = this;
    const { server, health, connections, backlogs } = buildGrpcServer({ config, db: this.db, metrics, log, feed: this.feed, groups: this.groups, leaseEnds: this.leaseExpiry, callerNames: this.callerNames });
    this.grpcServer = server;
    this.health = health;
    this.connections = connections;
    try {
      this.grpcPort = await bind(server, config.grpcHost, config.grpcPort, config.tls);
    } catch (err) {
      server.forceShutdown();
      throw new Error(`cannot listen for gRPC on ${config.grpcHost}:${config.grpcPort}: ${(err as Error).message}`);
    }
    // Stalled HTTP/2 connections closed (grpc/connections.ts); in memory, no statement.
    connections.start(server);
    // Each connection's unread answers counted (grpc/backlog.ts); in memory, no statement.
    backlogs.start(server);
  }

  /** After the drain (or a failed start): nothing left to finish. */
  private closeGrpc(): void {
    this.connections.stop();
    this.grpcServer.forceShutdown();
  }

  // HTTP listens before the registry row is written, so the row can carry its address.
  private async listenHttp(): Promise<void> {
    const { config, metrics, log } = this;
    // The read-only admin view (server/admin/): reads only when a page asks.
    const admin = config.admin ? new AdminRoutes({ config, db: this.db, feed: this.feed, metrics, callerNames: this.callerNames }, log) : undefined;
    this.httpServer = buildHttpServer(metrics, { health: () => this.healthz(), ready: () => this.readyz() }, admin);
    try {
      this.httpPort = await listen(this.httpServer, config.httpHost, config.httpPort);
    } catch (err) {
      throw new Error(`cannot listen for HTTP on ${config.httpHost}:${config.httpPort}: ${(err as Error).message}`);
    }
  }

  private closeHttp(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.httpServer.close(() => resolve());
      this.httpServer.closeAllConnections();
    });
  }

  private async register(): Promise<void> {
    const { config, metrics, log } = this;
    // A wildcard bind is no address a peer or a load tool can use: say so once.
    const wildcard = (host: string): boolean => host === '0.0.0.0' || host === '::' || host === '[::]';
    if (wildcard(config.grpcHost) && !config.advertiseAddress) {
      log.warn({ grpcHost: config.grpcHost }, 'gRPC bound to a wildcard address without SFDB_ADVERTISE_ADDRESS: peers cannot poke this replica (their waiters hear its writes at the next tail)');
    }
    if (wildcard(config.httpHost) && !config.advertiseMetricsAddress) {
      log.warn({ httpHost: config.httpHost }, 'HTTP bound to a wildcard address without SFDB_ADVERTISE_METRICS_ADDRESS: sf-ctl load cannot find this replica\'s /metrics');
    }
    this.registry = new ReplicaRegistry(
      this.db.sql('registry'),
      {
        replicaId: config.replicaId,
        address: config.advertiseAddress || `${config.grpcHost}:${this.grpcPort}`,
        metricsAddress: config.advertiseMetricsAddress || `${config.httpHost}:${this.httpPort}`,
        heartbeatMs: config.replicaHeartbeatMs,
        liveMs: config.replicaLiveMs,
      },
      log,
    );
    await this.registry.register();
    this.registry.start(
      (reason) => this.onRegistryLost(reason),
      // The feed starts after this step; before it, there is nothing to announce.
      () => void this.feed.rejoined(),
    );
    metrics.declarePeriodicTask('registry_heartbeat', 'registry', config.replicaHeartbeatMs, 'keep this replica live in the registry');
    metrics.declarePeriodicTask(
      'cluster_size',
      'registry',
      config.clusterSizeMs,
      'the live cluster size for the load model (only when /metrics is scraped, at most once per interval)',
    );
  }

  private serve(): void {
    const { config, log } = this;
    this.state = 'serving';
    this.health.setStatus('', 'SERVING');
    this.health.setStatus(DATABASE_SERVICE, 'SERVING');
    this.watchDatabase();
    // The logger's base already names the replica.
    log.info({ grpc: `${config.grpcHost}:${this.grpcPort}`, http: `${config.httpHost}:${this.httpPort}` }, 'sf-database serving');
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
    if (this.state === 'starting') return { status: 'starting' };
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
        systemClock.sleep(this.config.readyzTimeoutMs, timeout.signal).then(() => 'timeout' as const),
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
        systemClock.sleep(this.config.readyzTimeoutMs, timeout.signal).then(() => false),
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

  /** Drains and stops (whatever started, in reverse); safe to call more than once. */
  stop(): Promise<void> {
    this.stopping ??= this.lifecycle.stop().finally(() => {
      this.state = 'stopped';
      this.log.info('stopped');
    });
    return this.stopping;
  }

  /** The feed tail's stop: the group commit's open batches written first (their changes go through the feed); the tail stops even if that fails. */
  private async stopTail(): Promise<void> {
    try {
      await this.groups.commit.stop();
    } finally {
      await this.feed.stop();
    }
  }

  /** The serving step's stop: new calls refused, long-polls answered, the rest finish within the grace. */
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
  }
}
