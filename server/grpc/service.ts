// The gRPC server: the Database service (every handler through the unary adapter),
// health, reflection and the interceptors, registered once; admission (admission.ts)
// wired in at each of its moments.
import * as grpc from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';
import type { Logger } from 'pino';
import { loadDatabaseProto } from '@sfdb/proto/load';
import type { CallerNames } from '../caller-names.js';
import type { Config, TlsFiles } from '../config.js';
import type { PairOwner } from '../db/owner.js';
import type { Database } from '../db/pool.js';
import type { Metrics, QuerySource } from '../metrics.js';
import type { ChangeFeed } from '../changefeed/feed.js';
import type { Groups } from '../rpc/groups.js';
import type { LeaseEnds } from '../rpc/leases/expiry.js';
import { allHandlers } from '../rpc/index.js';
import { systemClock } from '@sfdb/proto/runtime/clock';
import { rootDraw } from '@sfdb/proto/runtime/tracing-roots';
import { admittingDeserializers, prepareAdmission } from './admission.js';
import { AnswerBacklogs } from './backlog.js';
import type { BacklogRefusal } from './backlog.js';
import { ConnectionGuard } from './connections.js';
import { routeGrpcLogs } from './grpc-js/log.js';
import { callInterceptor } from './interceptors.js';
import type { Definitions } from './grpc-js/protobufjs-utf8.js';
import { CallerRateLimits } from './rate-limit.js';
import { addLazyReflection } from './reflection.js';
import { serverCredentials } from './tls.js';
import type { Denial } from './tls.js';
import { unary } from './unary.js';

export const DATABASE_SERVICE = 'sfdb.v1.Database';

export interface GrpcParts {
  server: grpc.Server;
  health: HealthImplementation;
  /** Watches the HTTP/2 connections once bound (connections.start(server)); stopped with the server. */
  connections: ConnectionGuard;
  /** Counts each connection's unread answers once bound (backlogs.start(server)). */
  backlogs: AnswerBacklogs;
}

/**
 * The grpc-js options of the tier's connections (all but its interceptors); bench:edge's
 * floor, a bare grpc-js server, runs with the same.
 */
export function connectionOptions(config: Pick<Config, 'maxConnectionAgeMs' | 'maxConnectionAgeGraceMs' | 'grpcMaxConcurrentStreams'>): grpc.ServerOptions {
  return {
    // Clients rebalance onto new replicas when their connection ages out; the grace is
    // longer than the longest long-poll so no call is cut.
    'grpc.max_connection_age_ms': config.maxConnectionAgeMs,
    'grpc.max_connection_age_grace_ms': config.maxConnectionAgeGraceMs,
    'grpc.keepalive_permit_without_calls': 1,
    'grpc.http2.min_ping_interval_without_data_ms': 10_000,
    // grpc-js's channelz (a socket record per connection, call counters per stream) is read
    // by nothing here; the tier's own metrics count connections and calls.
    'grpc.enable_channelz': 0,
    // Advertised in SETTINGS; a client queues its calls past it (grpc-js's own option).
    'grpc.max_concurrent_streams': config.grpcMaxConcurrentStreams,
  };
}

export function buildGrpcServer(deps: { config: Config; db: Database; metrics: Metrics; log: Logger; feed: ChangeFeed; groups: Groups; leaseEnds: LeaseEnds; callerNames: CallerNames }): GrpcParts {
  const { config, metrics, log, callerNames } = deps;
  // Roots drawn by the call layer, not made by the SDK to be dropped, under a parent-based sampler.
  const draw = rootDraw(config.tracing);
  // grpc-js's own lines: JSON through the tier's log, no metadata values.
  routeGrpcLogs(log);
  const server = new grpc.Server({
    ...connectionOptions(config),
    // One layer: metrics and admission's caller headers (it measures the calls it refuses, too).
    interceptors: [callInterceptor(metrics, callerNames, draw)],
  });
  prepareAdmission(server, config.grpcMaxMetadataBytes);
  const connections = new ConnectionGuard({ log, metrics, clock: systemClock });
  const backlogs = new AnswerBacklogs({ connectionBytes: config.grpcMaxConnectionBacklogBytes, replicaBytes: config.grpcMaxReplicaBacklogBytes });
  metrics.trackAnswerBacklog(() => backlogs.total);
  const onBacklogRefused = (reason: BacklogRefusal): void => metrics.countGrpcRefused(reason);
  const { packageDefinition, proto } = loadDatabaseProto();
  const { feed } = deps;
  const context = {
    sql: deps.db.sql('rpc'),
    sqlAs: (source: QuerySource) => deps.db.sql(source),
    feed,
    groups: deps.groups,
    leaseEnds: deps.leaseEnds,
    config,
    metrics,
    log,
  };
  const limits = new CallerRateLimits({
    nodeRps: config.rateLimitNodeRps,
    nodeBurst: config.rateLimitNodeBurst,
    daemonRps: config.rateLimitDaemonRps,
    daemonBurst: config.rateLimitDaemonBurst,
  });
  const onRateLimited = (limit: 'node' | 'daemon', caller: { daemon: string }): void =>
    metrics.countRateLimited(limit, callerNames.label(caller.daemon));
  // A refused certificate is counted on every call and logged once per peer and reason.
  const deniedLogged = new Set<string>();
  const onDenied = (denial: Denial, peer: string): void => {
    metrics.countPermissionDenied(denial.reason);
    const key = `${peer}\u0000${denial.reason}`;
    if (deniedLogged.has(key)) return;
    if (deniedLogged.size >= 10_000) deniedLogged.clear();
    deniedLogged.add(key);
    log.warn({ peer, reason: denial.reason, detail: denial.message }, 'call refused: client certificate does not allow it');
  };
  const tls = config.tls !== undefined;
  const pairOwner = (operation: string, callerDaemon: string): PairOwner => deps.db.pairOwner(operation, callerDaemon);
  const implementation: grpc.UntypedServiceImplementation = {};
  for (const [name, handler] of Object.entries(allHandlers)) {
    implementation[name] = unary(name, handler as never, { context, limits, onRateLimited, tls, onDenied, backlogs, onBacklogRefused, callerNames, pairOwner, rootDraw: draw });
  }
  server.addService(admittingDeserializers(proto.sfdb.v1.Database.service, packageDefinition as unknown as Definitions, 'sfdb.v1'), implementation);

  const health = new HealthImplementation({ '': 'NOT_SERVING', [DATABASE_SERVICE]: 'NOT_SERVING' });
  health.addToServer(server);
  // Indexed per reflection stream, not held for the life of the replica (reflection.ts).
  addLazyReflection(server, packageDefinition);
  return { server, health, connections, backlogs };
}

export function bind(server: grpc.Server, host: string, port: number, tls?: TlsFiles): Promise<number> {
  const address = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
  return new Promise((resolve, reject) => {
    server.bindAsync(address, serverCredentials(tls), (err, bound) => (err ? reject(err) : resolve(bound)));
  });
}
