// What the tier's configuration is: its typed shape, and every setting's environment
// variable, flag and meaning in one table that the parser (./config.ts), the table of
// docs/configuration.md and the operator guide's follow.
import type { TracingSettings } from '@sfdb/proto/runtime/tracing-env';
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
  /** Prepared statements each MariaDB connection keeps open; past it the least recently used is closed. */
  readonly preparedStatements: number;
  /** Group commit: frequent single-row writes wait this long to share one statement (0 = off). */
  readonly groupCommitMs: number;
  /** Group commit: the window of node heartbeats and node attributes, the writes every node makes on a period. */
  readonly groupCommitPeriodicMs: number;
  /** Group commit: a batch goes at once when it holds this many calls. */
  readonly groupCommitMaxCalls: number;
  /** A statement taking this long or longer is counted and logged with its sender (db/slow.ts); 0 = none. */
  readonly slowStatementMs: number;
  /** /readyz waits at most this long for MariaDB's answer. */
  readonly readyzTimeoutMs: number;
  /** Health reports NOT_SERVING once MariaDB has been unreachable this long. */
  readonly databaseDownAfterMs: number;
  /** The largest request header block (HTTP/2 SETTINGS_MAX_HEADER_LIST_SIZE, advertised and enforced). */
  readonly grpcMaxMetadataBytes: number;
  /** Streams (calls) open at once on one connection (HTTP/2 SETTINGS_MAX_CONCURRENT_STREAMS, advertised and enforced). */
  readonly grpcMaxConcurrentStreams: number;
  /** Unsent answer bytes one connection may hold before its calls are refused (grpc/backlog.ts). */
  readonly grpcMaxConnectionBacklogBytes: number;
  /** Unsent answer bytes of all connections before a connection holding any is refused (grpc/backlog.ts). */
  readonly grpcMaxReplicaBacklogBytes: number;
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
  /** caller_daemon label values always counted under their own name (server/caller-names.ts). */
  readonly callerDaemons: ReadonlySet<string>;
  /** New caller_daemon names admitted first-come beyond callerDaemons, per replica process; later ones count as `other`. */
  readonly callerDaemonsMax: number;
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
  /** How often each peer is health-checked (changefeed/peer-probe.ts). */
  readonly peerProbeMs: number;
  /** A peer whose last answer is older than this is unresponsive, and its processes are told to move. */
  readonly peerUnresponsiveMs: number;
  /** Serve the read-only admin view under /admin on the HTTP port. */
  readonly admin: boolean;
  /** Bearer token of the admin view ('' = none: loopback clients only; required beyond loopback). */
  readonly adminToken: string;
  /** The load budget JSON the admin view's Load page judges against ('' = the package's ops/load-budget.json). */
  readonly adminBudget: string;
  /** Traces: the standard OTEL_* variables (docs/tracing.md); undefined: no SDK registered. */
  readonly tracing: TracingSettings | undefined;
}

/** PEM contents of the CA, this replica's certificate and its key. */
export interface TlsFiles {
  readonly ca: Buffer;
  readonly cert: Buffer;
  readonly key: Buffer;
}


export interface Setting {
  env: string;
  flag: string;
  help: string;
}

/** Every setting: environment variable, flag and meaning (the table of docs/configuration.md mirrors it). */
export const SETTINGS: Record<Exclude<keyof Config, 'command' | 'archive' | 'tls' | 'tracing'>, Setting> = {
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
  preparedStatements: {
    env: 'SFDB_PREPARED_STATEMENTS',
    flag: 'prepared-statements',
    help: "prepared statements each MariaDB connection keeps open, the least recently used closed past it: the replica's share of MariaDB's max_prepared_stmt_count (128)",
  },
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
  slowStatementMs: {
    env: 'SFDB_SLOW_STATEMENT_MS',
    flag: 'slow-statement-ms',
    help: 'a MariaDB statement that takes this long or longer is logged with its sender (operation, caller daemon and node, the query function) and counted in database_slow_statements_total; 0 = off (500)',
  },
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
    help: "the largest request header block (metadata) a call may send, advertised to clients as HTTP/2 SETTINGS_MAX_HEADER_LIST_SIZE; a larger one resets that call's stream (a field over 64 KiB or a block over 144 KiB encoded ends its connection) (16384)",
  },
  grpcMaxConcurrentStreams: {
    env: 'SFDB_GRPC_MAX_CONCURRENT_STREAMS',
    flag: 'grpc-max-concurrent-streams',
    help: 'calls open at once on one client connection, advertised as HTTP/2 SETTINGS_MAX_CONCURRENT_STREAMS; a client queues the rest (100)',
  },
  grpcMaxConnectionBacklogBytes: {
    env: 'SFDB_GRPC_MAX_CONNECTION_BACKLOG_BYTES',
    flag: 'grpc-max-connection-backlog-bytes',
    help: 'answer bytes one connection may leave unread before its calls are refused RESOURCE_EXHAUSTED (16777216)',
  },
  grpcMaxReplicaBacklogBytes: {
    env: 'SFDB_GRPC_MAX_REPLICA_BACKLOG_BYTES',
    flag: 'grpc-max-replica-backlog-bytes',
    help: 'answer bytes all connections together may leave unread before a connection holding any is refused (134217728)',
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
  callerDaemons: { env: 'SFDB_CALLER_DAEMONS', flag: 'caller-daemons', help: 'comma list of caller_daemon label values always counted under their own name' },
  callerDaemonsMax: {
    env: 'SFDB_CALLER_DAEMONS_MAX',
    flag: 'caller-daemons-max',
    help: 'new caller_daemon names counted under their own name, first come, beyond the list; later ones count as other (32)',
  },
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
  peerProbeMs: { env: 'SFDB_PEER_PROBE_MS', flag: 'peer-probe-ms', help: 'each peer replica is health-checked this often (250)' },
  peerUnresponsiveMs: {
    env: 'SFDB_PEER_UNRESPONSIVE_MS',
    flag: 'peer-unresponsive-ms',
    help: 'a peer silent this long is unresponsive: WatchReplicas tells its processes to move their long-polls (1300)',
  },
  admin: { env: 'SFDB_ADMIN', flag: 'admin', help: 'serve the read-only admin view under /admin on the HTTP port (true)' },
  adminToken: {
    env: 'SFDB_ADMIN_TOKEN',
    flag: 'admin-token',
    help: 'bearer token of the admin view (16+ characters); required when the HTTP port binds beyond loopback',
  },
  adminBudget: { env: 'SFDB_ADMIN_BUDGET', flag: 'admin-budget', help: "load budget JSON of the admin view's Load page (ops/load-budget.json of the package)" },
};
