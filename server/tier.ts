// The tier's lifecycle, owned in one place: components start in order and stop in
// reverse. start = pool → schema (migrate or verify) → gRPC → HTTP → health SERVING.
// stop = health NOT_SERVING → in-flight calls finish within the drain grace → close.
import type * as grpc from '@grpc/grpc-js';
import type { Server as HttpServer } from 'node:http';
import type { HealthImplementation } from 'grpc-health-check';
import type { Config } from './config.js';
import { Database, createPool } from './db/pool.js';
import { DATABASE_SERVICE, bind, buildGrpcServer } from './grpc/service.js';
import { buildHttpServer, listen } from './http.js';
import type { Logger } from './log.js';
import { Metrics } from './metrics.js';
import { migrate, verifySchema } from './migrate.js';

export class Tier {
  private state: 'serving' | 'draining' | 'stopped' = 'serving';
  private stopping: Promise<void> | undefined;

  private constructor(
    readonly config: Config,
    readonly metrics: Metrics,
    readonly db: Database,
    private readonly grpcServer: grpc.Server,
    private readonly health: HealthImplementation,
    private readonly httpServer: HttpServer,
    readonly grpcPort: number,
    readonly httpPort: number,
    private readonly log: Logger,
  ) {}

  static async start(config: Config, databaseUrl: string, log: Logger): Promise<Tier> {
    const metrics = new Metrics(config.replicaId);
    const db = new Database(createPool({ url: databaseUrl, connectionLimit: config.poolSize }), metrics);
    try {
      if (config.migrate) {
        const applied = await migrate(db.sql('migration'), { log, holder: `${config.replicaId}/${process.pid}` });
        if (applied.length > 0) log.info({ applied }, 'migrations applied');
      } else {
        await verifySchema(db.sql('migration'));
      }
    } catch (err) {
      await db.close();
      throw err;
    }
    const { server, health } = buildGrpcServer({ config, sql: db.sql('rpc'), metrics, log });
    let grpcPort: number;
    try {
      grpcPort = await bind(server, config.grpcHost, config.grpcPort);
    } catch (err) {
      await db.close();
      throw new Error(`cannot listen for gRPC on ${config.grpcHost}:${config.grpcPort}: ${(err as Error).message}`);
    }
    // The HTTP server needs the tier for /healthz; the tier exists once both listen.
    const holder: { tier?: Tier } = {};
    const httpServer = buildHttpServer(metrics, {
      health: async () => (holder.tier ? holder.tier.healthz() : { status: 'starting' }),
      ready: async () => (holder.tier ? holder.tier.readyz() : { ready: false, reason: 'starting' }),
    });
    let httpPort: number;
    try {
      httpPort = await listen(httpServer, config.httpHost, config.httpPort);
    } catch (err) {
      server.forceShutdown();
      await db.close();
      throw new Error(`cannot listen for HTTP on ${config.httpHost}:${config.httpPort}: ${(err as Error).message}`);
    }
    const tier = new Tier(config, metrics, db, server, health, httpServer, grpcPort, httpPort, log);
    holder.tier = tier;
    health.setStatus('', 'SERVING');
    health.setStatus(DATABASE_SERVICE, 'SERVING');
    log.info({ grpc: `${config.grpcHost}:${grpcPort}`, http: `${config.httpHost}:${httpPort}`, replica: config.replicaId }, 'sf-database serving');
    return tier;
  }

  async healthz(): Promise<Record<string, unknown>> {
    return { status: this.state, replica_id: this.config.replicaId };
  }

  async readyz(): Promise<{ ready: boolean; reason?: string }> {
    if (this.state !== 'serving') return { ready: false, reason: this.state };
    try {
      // On demand only (whoever probes pays); never periodic.
      await this.db.sql('registry').rows('SELECT 1 AS ok');
      return { ready: true };
    } catch (err) {
      return { ready: false, reason: `database: ${(err as Error).message}` };
    }
  }

  /** Drains and stops; safe to call more than once. */
  stop(): Promise<void> {
    this.stopping ??= this.drain();
    return this.stopping;
  }

  private async drain(): Promise<void> {
    this.state = 'draining';
    this.health.setStatus('', 'NOT_SERVING');
    this.health.setStatus(DATABASE_SERVICE, 'NOT_SERVING');
    this.log.info({ graceMs: this.config.drainGraceMs }, 'draining: new calls refused, in-flight calls finishing');
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
    await new Promise<void>((resolve) => {
      this.httpServer.close(() => resolve());
      this.httpServer.closeAllConnections();
    });
    await this.db.close();
    this.state = 'stopped';
    this.log.info('stopped');
  }
}
