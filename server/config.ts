// The tier's configuration, parsed once from SFDB_* environment variables and command
// line flags (flags win) into a frozen, typed object. Nothing else reads process.env.
// Values are read with the words every side shares (proto/env.ts).
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { parseArgs } from 'node:util';
import { envValue, parseInteger, parseOnOff } from '../proto/env.js';
import { MAX_WAIT_MS } from '../proto/topics.js';
import { ARCHIVE_FLAGS, ArchiveArgsError, archiveArgs } from './backup/args.js';
import type { ArchiveArgs } from './backup/args.js';

export type Command = 'serve' | 'migrate' | 'backup' | 'restore';

export interface Config {
  readonly command: Command;
  /** backup and restore: their file and options; undefined for serve and migrate. */
  readonly archive: ArchiveArgs | undefined;
  /** mysql://user:pass@host:port/db; undefined means "start the embedded MariaDB". */
  readonly databaseUrl: string | undefined;
  /** Data directory of the embedded MariaDB. */
  readonly dataDir: string;
  /** Where mariadbd and mariadb-install-db are; undefined searches PATH and the system dirs. */
  readonly mariadbBinDir: string | undefined;
  /** Port of the embedded MariaDB; 0 picks a free one. */
  readonly embeddedPort: number;
  readonly grpcHost: string;
  readonly grpcPort: number;
  readonly httpHost: string;
  readonly httpPort: number;
  /** Allows a non-loopback bind without TLS. */
  readonly insecure: boolean;
  /** mTLS material (read at start), or undefined for plaintext. */
  readonly tls: TlsFiles | undefined;
  /** The paths they were read from (for messages; never the contents). */
  readonly tlsCa: string | undefined;
  readonly tlsCert: string | undefined;
  readonly tlsKey: string | undefined;
  readonly replicaId: string;
  readonly poolSize: number;
  /** Apply pending migrations at start (else only verify that none are pending). */
  readonly migrate: boolean;
  readonly drainGraceMs: number;
  /** Token buckets per caller node and per (node, daemon); rps 0 = no limit. */
  readonly rateLimitNodeRps: number;
  readonly rateLimitNodeBurst: number;
  readonly rateLimitDaemonRps: number;
  readonly rateLimitDaemonBurst: number;
  /** Statements that may wait for a pool connection; beyond, calls fail fast (0 = no bound). */
  readonly poolQueueLimit: number;
  /** Group commit: frequent single-row writes wait this long to share one statement (0 = off). */
  readonly groupCommitMs: number;
  /** Group commit: the window of node heartbeats and node attributes, the writes every node makes on a period. */
  readonly groupCommitPeriodicMs: number;
  /** Group commit: a batch goes at once when it holds this many calls. */
  readonly groupCommitMaxCalls: number;
  /** /readyz waits at most this long for MariaDB's answer. */
  readonly readyzTimeoutMs: number;
  /** Health reports NOT_SERVING once MariaDB has been unreachable this long. */
  readonly databaseDownAfterMs: number;
  /** The largest request header block (HTTP/2 SETTINGS_MAX_HEADER_LIST_SIZE, advertised and enforced). */
  readonly grpcMaxMetadataBytes: number;
  readonly maxConnectionAgeMs: number;
  readonly maxConnectionAgeGraceMs: number;
  /** Claim lease when a Dequeue does not ask for one. */
  readonly defaultClaimLeaseMs: number;
  /** How often a replica refreshes its registry row. */
  readonly replicaHeartbeatMs: number;
  /** A tier replica is live while its heartbeat is younger than this (database time). */
  readonly replicaLiveMs: number;
  /** SweepReplicaRegistry removes rows whose heartbeat is older than this. */
  readonly replicaSweepAfterMs: number;
  /** The gRPC address other replicas and operators see for this one ('' = the bound one). */
  readonly advertiseAddress: string;
  /** The HTTP address load tools see for this one's /metrics ('' = the bound one). */
  readonly advertiseMetricsAddress: string;
  /** A node is live while its heartbeat is younger than this (database time). */
  readonly nodeLiveMs: number;
  /** The cluster-size gauges are re-read at most this often, when /metrics is scraped. */
  readonly clusterSizeMs: number;
  /** caller_daemon label values; any other caller is counted as `unknown`. */
  readonly callerDaemons: ReadonlySet<string>;
  readonly logLevel: string;
  /** The change feed: how often each replica reads new change rows (its cost: one read per interval). */
  readonly changefeedTailMs: number;
  /** Lease ends announced: the longest time between two looks at the leases standbys wait for. */
  readonly leaseWatchMs: number;
  /** How long a sequence gap (a transaction still open, or rolled back) is held before moving on. */
  readonly changefeedGapTimeoutMs: number;
  /** A sequence gap open this long is closed at the next tail (a tombstone row), unless a transaction still holds it. */
  readonly changefeedGapCloseMs: number;
  /** Change rows older than this are pruned by the elected maintenance job. */
  readonly changefeedRetentionMs: number;
  /** Retired counters older than this are folded into the counter floor by the elected maintenance job. */
  readonly retiredCounterRetentionMs: number;
  /** Change rows a replica keeps in memory; a cursor older than its window answers resync. */
  readonly changefeedWindow: number;
  /** WaitForChanges held at once by this replica; beyond it RESOURCE_EXHAUSTED with pushback. */
  readonly changefeedMaxWaiters: number;
  /** After a commit, tell live peers which topics moved (off: peers hear at their next tail). */
  readonly changefeedPokes: boolean;
  /** Serve the read-only admin view under /admin on the HTTP port. */
  readonly admin: boolean;
  /** Bearer token of the admin view ('' = none: loopback clients only; required beyond loopback). */
  readonly adminToken: string;
  /** The load budget JSON the admin view's Load page judges against ('' = the package's ops/load-budget.json). */
  readonly adminBudget: string;
}

export const DEFAULT_CALLER_DAEMONS = [
  'queues', 'net', 'transfers', 'sidechannel', 'resources', 'cleaner', 'cluster', 'agent',
  'sf-ctl', 'example', 'bench', 'test', 'sf-database',
];

/** PEM contents of the CA, this replica's certificate and its key. */
export interface TlsFiles {
  readonly ca: Buffer;
  readonly cert: Buffer;
  readonly key: Buffer;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

interface Setting {
  env: string;
  flag: string;
  help: string;
}

/** Every setting: environment variable, flag and meaning (the README table mirrors it). */
export const SETTINGS: Record<Exclude<keyof Config, 'command' | 'archive' | 'tls'>, Setting> = {
  databaseUrl: { env: 'SFDB_DATABASE_URL', flag: 'database-url', help: 'MariaDB URL; unset starts the embedded MariaDB' },
  dataDir: { env: 'SFDB_DATA_DIR', flag: 'data-dir', help: 'embedded MariaDB data directory (.data/mariadb)' },
  mariadbBinDir: { env: 'SFDB_MARIADB_BIN_DIR', flag: 'mariadb-bin-dir', help: 'directory of mariadbd for the embedded MariaDB (PATH, /usr/sbin)' },
  embeddedPort: { env: 'SFDB_EMBEDDED_PORT', flag: 'embedded-port', help: 'embedded MariaDB port, 0 = any free port (0)' },
  grpcHost: { env: 'SFDB_GRPC_HOST', flag: 'grpc-host', help: 'gRPC bind address (127.0.0.1)' },
  grpcPort: { env: 'SFDB_GRPC_PORT', flag: 'grpc-port', help: 'gRPC port (13005)' },
  httpHost: { env: 'SFDB_HTTP_HOST', flag: 'http-host', help: 'HTTP bind address (127.0.0.1)' },
  httpPort: { env: 'SFDB_HTTP_PORT', flag: 'http-port', help: 'HTTP port for /metrics, /healthz, /readyz (13006)' },
  insecure: { env: 'SFDB_INSECURE', flag: 'insecure', help: 'allow a non-loopback bind without TLS (false)' },
  tlsCa: { env: 'SFDB_TLS_CA', flag: 'tls-ca', help: 'PEM file of the CA that signs client (and peer) certificates; with cert and key: mTLS' },
  tlsCert: { env: 'SFDB_TLS_CERT', flag: 'tls-cert', help: "PEM file of this replica's certificate (SAN URI sfdb://replica/<id>)" },
  tlsKey: { env: 'SFDB_TLS_KEY', flag: 'tls-key', help: "PEM file of this replica's private key" },
  replicaId: { env: 'SFDB_REPLICA_ID', flag: 'id', help: 'replica id (hostname)' },
  poolSize: { env: 'SFDB_POOL_SIZE', flag: 'pool-size', help: 'MariaDB connections per replica (16)' },
  migrate: { env: 'SFDB_MIGRATE', flag: 'migrate', help: 'apply pending migrations at start (true)' },
  rateLimitNodeRps: { env: 'SFDB_RATE_LIMIT_NODE_RPS', flag: 'rate-limit-node-rps', help: 'calls per second per caller node, 0 = none (2000)' },
  rateLimitNodeBurst: { env: 'SFDB_RATE_LIMIT_NODE_BURST', flag: 'rate-limit-node-burst', help: 'calls a caller node may make at once above its rate (4000)' },
  rateLimitDaemonRps: { env: 'SFDB_RATE_LIMIT_DAEMON_RPS', flag: 'rate-limit-daemon-rps', help: 'calls per second per caller node and daemon, 0 = none (1000)' },
  rateLimitDaemonBurst: { env: 'SFDB_RATE_LIMIT_DAEMON_BURST', flag: 'rate-limit-daemon-burst', help: 'calls a daemon of a node may make at once above its rate (2000)' },
  poolQueueLimit: { env: 'SFDB_POOL_QUEUE_LIMIT', flag: 'pool-queue-limit', help: 'statements waiting for a MariaDB connection before calls fail fast, 0 = none (128)' },
  groupCommitMs: {
    env: 'SFDB_GROUP_COMMIT_MS',
    flag: 'group-commit-ms',
    help: 'node heartbeats, daemon states and attribute writes are written together, one statement per kind at most once per this window (a quiet replica writes at once); each call is answered after its batch commits; 0 = off, one statement per call (100)',
  },
  groupCommitPeriodicMs: {
    env: 'SFDB_GROUP_COMMIT_PERIODIC_MS',
    flag: 'group-commit-periodic-ms',
    help: 'the group-commit window of node heartbeats and node attribute writes, which every node makes on a period: at most one statement per kind per this window (a quiet replica writes at once); a call waits at most this long (500)',
  },
  groupCommitMaxCalls: { env: 'SFDB_GROUP_COMMIT_MAX_CALLS', flag: 'group-commit-max-calls', help: 'a group-commit batch is written at once when it holds this many calls (200)' },
  readyzTimeoutMs: { env: 'SFDB_READYZ_TIMEOUT_MS', flag: 'readyz-timeout-ms', help: '/readyz answers 503 when MariaDB has not answered within this (1000)' },
  databaseDownAfterMs: {
    env: 'SFDB_DATABASE_DOWN_AFTER_MS',
    flag: 'database-down-after-ms',
    help: 'gRPC health and /readyz report NOT_SERVING once MariaDB has been unreachable this long (8000)',
  },
  drainGraceMs: { env: 'SFDB_DRAIN_GRACE_MS', flag: 'drain-grace-ms', help: 'SIGTERM: time for in-flight calls (10000)' },
  grpcMaxMetadataBytes: {
    env: 'SFDB_GRPC_MAX_METADATA_BYTES',
    flag: 'grpc-max-metadata-bytes',
    help: "the largest request header block (metadata) a call may send, advertised to clients as HTTP/2 SETTINGS_MAX_HEADER_LIST_SIZE; a larger one resets that call's stream (16384)",
  },
  maxConnectionAgeMs: { env: 'SFDB_MAX_CONNECTION_AGE_MS', flag: 'max-connection-age-ms', help: 'client connections are recycled after this (300000)' },
  maxConnectionAgeGraceMs: { env: 'SFDB_MAX_CONNECTION_AGE_GRACE_MS', flag: 'max-connection-age-grace-ms', help: 'grace for calls on a recycled connection (60000)' },
  defaultClaimLeaseMs: { env: 'SFDB_DEFAULT_CLAIM_LEASE_MS', flag: 'default-claim-lease-ms', help: 'claim lease when Dequeue names none (60000)' },
  replicaHeartbeatMs: { env: 'SFDB_REPLICA_HEARTBEAT_MS', flag: 'replica-heartbeat-ms', help: 'registry heartbeat interval (5000)' },
  replicaSweepAfterMs: { env: 'SFDB_REPLICA_SWEEP_AFTER_MS', flag: 'replica-sweep-after-ms', help: 'registry rows older than this are swept (60000)' },
  advertiseAddress: { env: 'SFDB_ADVERTISE_ADDRESS', flag: 'advertise-address', help: 'gRPC address recorded in the registry (the bound host:port)' },
  advertiseMetricsAddress: {
    env: 'SFDB_ADVERTISE_METRICS_ADDRESS',
    flag: 'advertise-metrics-address',
    help: 'HTTP (/metrics) address recorded in the registry for load tools (the bound host:port)',
  },
  replicaLiveMs: { env: 'SFDB_REPLICA_LIVE_MS', flag: 'replica-live-ms', help: 'a replica is live while its heartbeat is younger (15000)' },
  clusterSizeMs: {
    env: 'SFDB_CLUSTER_SIZE_MS',
    flag: 'cluster-size-ms',
    help: 'the cluster size on /metrics is re-read at most this often, when scraped (30000)',
  },
  nodeLiveMs: { env: 'SFDB_NODE_LIVE_MS', flag: 'node-live-ms', help: 'a node is live while its heartbeat is younger (30000)' },
  callerDaemons: { env: 'SFDB_CALLER_DAEMONS', flag: 'caller-daemons', help: 'comma list of caller_daemon label values' },
  logLevel: { env: 'SFDB_LOG_LEVEL', flag: 'log-level', help: 'pino log level (info)' },
  changefeedTailMs: { env: 'SFDB_CHANGEFEED_TAIL_MS', flag: 'changefeed-tail-ms', help: 'change feed: each replica reads new change rows this often (2000)' },
  leaseWatchMs: {
    env: 'SFDB_LEASE_WATCH_MS',
    flag: 'lease-watch-ms',
    help: 'lease ends announced: each replica looks at the leases its standbys wait for at their ends, and at least this often while there are any (30000)',
  },
  changefeedGapTimeoutMs: {
    env: 'SFDB_CHANGEFEED_GAP_TIMEOUT_MS',
    flag: 'changefeed-gap-timeout-ms',
    help: 'change feed: a sequence gap neither closed nor shown held by an open transaction is given up after this (5000)',
  },
  changefeedGapCloseMs: {
    env: 'SFDB_CHANGEFEED_GAP_CLOSE_MS',
    flag: 'changefeed-gap-close-ms',
    help: 'change feed: a sequence gap open this long is closed with a tombstone row at the next tail, unless a transaction holds it (1000)',
  },
  changefeedRetentionMs: { env: 'SFDB_CHANGEFEED_RETENTION_MS', flag: 'changefeed-retention-ms', help: 'change rows older than this are pruned (600000)' },
  retiredCounterRetentionMs: {
    env: 'SFDB_RETIRED_COUNTER_RETENTION_MS',
    flag: 'retired-counter-retention-ms',
    help: "a deleted id's last version or claim epoch is kept this long, then folded into the counter floor (86400000)",
  },
  changefeedWindow: { env: 'SFDB_CHANGEFEED_WINDOW', flag: 'changefeed-window', help: 'change rows kept in memory per replica (50000)' },
  changefeedMaxWaiters: { env: 'SFDB_CHANGEFEED_MAX_WAITERS', flag: 'changefeed-max-waiters', help: 'long-polls held at once per replica (20000)' },
  changefeedPokes: { env: 'SFDB_CHANGEFEED_POKES', flag: 'changefeed-pokes', help: 'poke live peers after a commit (true)' },
  admin: { env: 'SFDB_ADMIN', flag: 'admin', help: 'serve the read-only admin view under /admin on the HTTP port (true)' },
  adminToken: {
    env: 'SFDB_ADMIN_TOKEN',
    flag: 'admin-token',
    help: 'bearer token of the admin view (16+ characters); required when the HTTP port binds beyond loopback',
  },
  adminBudget: { env: 'SFDB_ADMIN_BUDGET', flag: 'admin-budget', help: "load budget JSON of the admin view's Load page (ops/load-budget.json of the package)" },
};

/** What an admin token may hold: URL- and header-safe, at least 16 characters. */
const ADMIN_TOKEN = /^[A-Za-z0-9._~+/=-]{16,512}$/;

/**
 * Parses the configuration. `argv` is the arguments after the program name: an optional
 * command (`serve`, `migrate`, `backup FILE`, `restore FILE`) and flags (`--grpc-port
 * 13005` or `--grpc-port=13005`).
 */
export function parseConfig(env: NodeJS.ProcessEnv, argv: readonly string[]): Config {
  const options: Record<string, { type: 'string' | 'boolean' }> = {};
  for (const s of Object.values(SETTINGS)) options[s.flag] = { type: 'string' };
  options['insecure'] = { type: 'boolean' };
  options['no-migrate'] = { type: 'boolean' };
  Object.assign(options, ARCHIVE_FLAGS);
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
  const flags = parsed.values as Record<string, string | boolean | undefined>;
  const [command = 'serve', ...rest] = parsed.positionals;
  if (command !== 'serve' && command !== 'migrate' && command !== 'backup' && command !== 'restore') {
    throw new ConfigError(`unknown command "${command}" (serve, migrate, backup, restore)`);
  }
  let archive: ArchiveArgs | undefined;
  try {
    archive = archiveArgs(command, rest, flags);
  } catch (err) {
    throw err instanceof ArchiveArgsError ? new ConfigError(err.message) : err;
  }

  const raw = (key: keyof typeof SETTINGS): string | undefined => {
    const s = SETTINGS[key];
    const flag = flags[s.flag];
    if (typeof flag === 'string') return flag;
    if (typeof flag === 'boolean') return String(flag);
    return envValue(env, s.env);
  };
  const label = (key: keyof typeof SETTINGS): string => `${SETTINGS[key].env} / --${SETTINGS[key].flag}`;
  const intOf = (key: keyof typeof SETTINGS, dflt: number, min: number, max: number): number => {
    const v = raw(key);
    return v === undefined ? dflt : parseInteger(label(key), v, { min, max }, ConfigError);
  };
  const boolOf = (key: keyof typeof SETTINGS, dflt: boolean): boolean => {
    const v = raw(key);
    return v === undefined ? dflt : parseOnOff(label(key), v, ConfigError);
  };

  const databaseUrl = raw('databaseUrl');
  if (databaseUrl !== undefined && !/^mysql:\/\//.test(databaseUrl) && !/^mariadb:\/\//.test(databaseUrl)) {
    throw new ConfigError(`${label('databaseUrl')}: expected mysql://user:password@host:port/database`);
  }
  const callerDaemons = new Set(
    (raw('callerDaemons') ?? DEFAULT_CALLER_DAEMONS.join(','))
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s.length > 0),
  );
  const replicaId = raw('replicaId') ?? hostname();
  if (!/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/.test(replicaId)) {
    throw new ConfigError(`${label('replicaId')}: "${replicaId}" must be 1-128 of A-Z a-z 0-9 _ . : -`);
  }

  const config: Config = {
    command,
    archive,
    databaseUrl,
    dataDir: raw('dataDir') ?? '.data/mariadb',
    mariadbBinDir: raw('mariadbBinDir'),
    embeddedPort: intOf('embeddedPort', 0, 0, 65535),
    grpcHost: raw('grpcHost') ?? '127.0.0.1',
    grpcPort: intOf('grpcPort', 13005, 0, 65535),
    httpHost: raw('httpHost') ?? '127.0.0.1',
    httpPort: intOf('httpPort', 13006, 0, 65535),
    insecure: flags['insecure'] === true || boolOf('insecure', false),
    tlsCa: raw('tlsCa'),
    tlsCert: raw('tlsCert'),
    tlsKey: raw('tlsKey'),
    tls: readTls(raw('tlsCa'), raw('tlsCert'), raw('tlsKey'), label),
    replicaId,
    poolSize: intOf('poolSize', 16, 1, 1000),
    migrate: flags['no-migrate'] === true ? false : boolOf('migrate', true),
    drainGraceMs: intOf('drainGraceMs', 10_000, 0, 600_000),
    readyzTimeoutMs: intOf('readyzTimeoutMs', 1_000, 10, 60_000),
    rateLimitNodeRps: intOf('rateLimitNodeRps', 2_000, 0, 1_000_000),
    rateLimitNodeBurst: intOf('rateLimitNodeBurst', 4_000, 1, 10_000_000),
    rateLimitDaemonRps: intOf('rateLimitDaemonRps', 1_000, 0, 1_000_000),
    rateLimitDaemonBurst: intOf('rateLimitDaemonBurst', 2_000, 1, 10_000_000),
    poolQueueLimit: intOf('poolQueueLimit', 128, 0, 1_000_000),
    groupCommitMs: intOf('groupCommitMs', 100, 0, 1000),
    groupCommitPeriodicMs: intOf('groupCommitPeriodicMs', 500, 0, 2_000),
    groupCommitMaxCalls: intOf('groupCommitMaxCalls', 200, 1, 10_000),
    databaseDownAfterMs: intOf('databaseDownAfterMs', 8_000, 100, 600_000),
    grpcMaxMetadataBytes: intOf('grpcMaxMetadataBytes', 16_384, 4_096, 1_048_576),
    maxConnectionAgeMs: intOf('maxConnectionAgeMs', 300_000, 1_000, 86_400_000),
    maxConnectionAgeGraceMs: intOf('maxConnectionAgeGraceMs', 60_000, 1_000, 3_600_000),
    defaultClaimLeaseMs: intOf('defaultClaimLeaseMs', 60_000, 1_000, 86_400_000),
    replicaHeartbeatMs: intOf('replicaHeartbeatMs', 5_000, 50, 600_000),
    replicaLiveMs: intOf('replicaLiveMs', 15_000, 100, 3_600_000),
    replicaSweepAfterMs: intOf('replicaSweepAfterMs', 60_000, 100, 86_400_000),
    advertiseAddress: raw('advertiseAddress') ?? '',
    advertiseMetricsAddress: raw('advertiseMetricsAddress') ?? '',
    nodeLiveMs: intOf('nodeLiveMs', 30_000, 100, 3_600_000),
    clusterSizeMs: intOf('clusterSizeMs', 30_000, 1_000, 3_600_000),
    callerDaemons,
    logLevel: raw('logLevel') ?? 'info',
    changefeedTailMs: intOf('changefeedTailMs', 2_000, 10, 60_000),
    leaseWatchMs: intOf('leaseWatchMs', 30_000, 100, 3_600_000),
    changefeedGapTimeoutMs: intOf('changefeedGapTimeoutMs', 5_000, 10, 600_000),
    changefeedGapCloseMs: intOf('changefeedGapCloseMs', 1_000, 0, 600_000),
    changefeedRetentionMs: intOf('changefeedRetentionMs', 600_000, 1_000, 30 * 86_400_000),
    retiredCounterRetentionMs: intOf('retiredCounterRetentionMs', 86_400_000, 1_000, 365 * 86_400_000),
    changefeedWindow: intOf('changefeedWindow', 50_000, 100, 10_000_000),
    changefeedMaxWaiters: intOf('changefeedMaxWaiters', 20_000, 1, 1_000_000),
    changefeedPokes: boolOf('changefeedPokes', true),
    admin: boolOf('admin', true),
    adminToken: raw('adminToken') ?? '',
    adminBudget: raw('adminBudget') ?? '',
  };

  if (config.replicaLiveMs < 2 * config.replicaHeartbeatMs) {
    throw new ConfigError(
      `${label('replicaLiveMs')} (${config.replicaLiveMs}) must be at least twice ${label('replicaHeartbeatMs')} (${config.replicaHeartbeatMs})`,
    );
  }
  if (config.replicaSweepAfterMs < config.replicaLiveMs) {
    throw new ConfigError(`${label('replicaSweepAfterMs')} must not be shorter than ${label('replicaLiveMs')}`);
  }
  if (config.changefeedGapCloseMs >= config.changefeedGapTimeoutMs) {
    // A gap given up before it is tried cannot be told from an open transaction.
    throw new ConfigError(`${label('changefeedGapCloseMs')} (${config.changefeedGapCloseMs}) must be below ${label('changefeedGapTimeoutMs')} (${config.changefeedGapTimeoutMs})`);
  }
  if (config.maxConnectionAgeGraceMs <= MAX_WAIT_MS) {
    // A recycled connection must outlive the longest long-poll, or WaitForChanges is cut.
    throw new ConfigError(`${label('maxConnectionAgeGraceMs')} must exceed the longest long-poll (${MAX_WAIT_MS} ms)`);
  }
  const loopback = (h: string): boolean => h === '127.0.0.1' || h === '::1' || h === 'localhost';
  // With mTLS the gRPC port may face the network; the HTTP port serves only metrics and
  // probes (no data, no writes), so it follows the gRPC port's protection.
  if (!config.insecure && !config.tls && (!loopback(config.grpcHost) || !loopback(config.httpHost))) {
    throw new ConfigError(
      `binding ${config.grpcHost}/${config.httpHost} beyond loopback without TLS needs SFDB_TLS_CA/CERT/KEY, or --insecure (SFDB_INSECURE=true)`,
    );
  }
  // The admin view: never the token's value in a message.
  if (config.adminToken !== '' && !ADMIN_TOKEN.test(config.adminToken)) {
    throw new ConfigError(`${label('adminToken')}: must be 16-512 characters of A-Z a-z 0-9 . _ ~ + / = - (e.g. openssl rand -hex 24)`);
  }
  if (config.admin && config.adminToken === '' && !loopback(config.httpHost)) {
    throw new ConfigError(
      `the HTTP port binds ${config.httpHost}, beyond loopback: the admin view (/admin) needs a bearer token there: set ${label('adminToken')}, or turn the view off with SFDB_ADMIN=false`,
    );
  }
  return Object.freeze(config);
}

/** All three files or none; each must be readable PEM. */
function readTls(ca: string | undefined, cert: string | undefined, key: string | undefined, label: (key: 'tlsCa' | 'tlsCert' | 'tlsKey') => string): TlsFiles | undefined {
  const given = { tlsCa: ca, tlsCert: cert, tlsKey: key };
  const set = Object.entries(given).filter(([, v]) => v !== undefined && v !== '');
  if (set.length === 0) return undefined;
  if (set.length < 3) {
    const missing = (Object.keys(given) as (keyof typeof given)[]).filter((k) => !given[k]).map(label);
    throw new ConfigError(`mTLS needs all of SFDB_TLS_CA, SFDB_TLS_CERT and SFDB_TLS_KEY: ${missing.join(', ')} not set`);
  }
  const read = (k: keyof typeof given): Buffer => {
    const path = given[k] as string;
    let text: Buffer;
    try {
      text = readFileSync(path);
    } catch (err) {
      throw new ConfigError(`${label(k)}: cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    }
    if (!text.includes('-----BEGIN ')) throw new ConfigError(`${label(k)}: ${path} is not a PEM file`);
    return text;
  };
  return { ca: read('tlsCa'), cert: read('tlsCert'), key: read('tlsKey') };
}
