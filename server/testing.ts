// sf-database/testing: a real tier for the tests of a daemon written against @sfdb/client,
// in one line. It starts a private MariaDB from the system's `mariadbd` (in a temporary
// directory, on a free loopback port, never the machine's own service) and one or more
// replicas of the tier in this process, on free ports, and stops them all again.
//
//   import { startTestTier } from 'sf-database/testing';
//   const tier = await startTestTier();              // in beforeAll / before
//   const db = createClient({ targets: tier.targets, callerDaemon: 'mine', callerNode: uuid });
//   ...
//   await tier.stop();                               // in afterAll / after
//
// What it is not: a mock. Calls cross gRPC to a tier that writes MariaDB, with the
// change feed, leases, fencing and the operator hold as in production.
import { randomBytes } from 'node:crypto';
import { isCallerDaemon } from '@sfdb/proto/metadata';
import { component } from '@sfdb/proto/runtime/lifecycle';
import { createLogger } from '@sfdb/proto/runtime/log';
import { ConfigError, DEFAULT_CALLER_DAEMONS, parseConfig } from './config.js';
import { MariaDbMissingError } from './embedded/mariadb.js';
import { TierCluster } from './testing/cluster.js';
import { MariaDbAt, PrivateMariaDb } from './testing/database.js';
import { inProcessReplicas } from './testing/in-process.js';
import type { InProcessPlan } from './testing/in-process.js';
import { TempDir } from './testing/temp-dir.js';
import type { Tier } from './tier.js';

export { ConfigError, MariaDbMissingError };

/** The temporary directories of the private MariaDBs (a later start reaps one whose owner died). */
const DIR_PREFIX = 'sfdb-testing-';

/**
 * A test database trades durability for speed: it is thrown away, and a killed test run
 * loses nothing it needs.
 */
const FAST_MARIADB_ARGS = ['--innodb-flush-log-at-trx-commit=2', '--innodb-doublewrite=0', '--innodb-buffer-pool-size=64M'];

export interface TestTierOptions {
  /** Replicas serving the one database (default 1); with more, clients balance over them. */
  replicas?: number;
  /**
   * Tier settings by their SFDB_* names (docs/settings.md, "Settings"), e.g.
   * `{ SFDB_NODE_LIVE_MS: '3000' }`. The ports, the replica ids and the database are the
   * test tier's own.
   */
  env?: Record<string, string>;
  /**
   * A MariaDB to use instead of a private one (mysql://user:password@host:port): a fresh
   * database is created on it for this tier and dropped by stop().
   */
  mariadbUrl?: string;
  /** The tier's log level: 'silent' (the default), 'error', 'warn', 'info', 'debug'. */
  logLevel?: string;
  /**
   * Daemon names counted under their own `caller_daemon` always, added to the tier's list
   * (`SFDB_CALLER_DAEMONS`, its default or `env`'s): e.g. `['imager']`. Without it a new name
   * is still counted under its own while the replica has room (`SFDB_CALLER_DAEMONS_MAX`,
   * 32 names beyond the list); this makes it certain, as the list does in production.
   */
  callerDaemons?: readonly string[];
}

/** SFDB_CALLER_DAEMONS with `extra` added: env's list, or the default. Throws ConfigError naming a bad name. */
function callerDaemonsWith(env: Record<string, string> | undefined, extra: readonly string[] | undefined): Record<string, string> {
  if (extra === undefined || extra.length === 0) return {};
  for (const name of extra) {
    if (!isCallerDaemon(name)) throw new ConfigError(`callerDaemons: ${JSON.stringify(name).slice(0, 70)} is not a daemon name (1–64 of a-z 0-9 _ . : -, starting with a letter or digit)`);
  }
  const base = env?.['SFDB_CALLER_DAEMONS'] ?? DEFAULT_CALLER_DAEMONS.join(',');
  return { SFDB_CALLER_DAEMONS: [...new Set([...base.split(',').filter((n) => n !== ''), ...extra])].join(',') };
}

export interface TestReplica {
  readonly replicaId: string;
  readonly grpcPort: number;
  /** /healthz, /readyz, /metrics. */
  readonly httpPort: number;
}

export interface TestTier {
  /** What a client dials: `createClient({ targets })`, or SFDB_TARGETS for code that reads the environment. */
  readonly targets: string;
  readonly replicas: readonly TestReplica[];
  /** The tier's database (mysql://…), for a test that wants to look at the rows itself. */
  readonly databaseUrl: string;
  /** Stops the replicas (draining their calls), then MariaDB; removes what it wrote. Safe to call twice. */
  stop(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** Starts a private MariaDB (or a database on `mariadbUrl`) and `replicas` tier replicas on it. */
export async function startTestTier(options: TestTierOptions = {}): Promise<TestTier> {
  const count = options.replicas ?? 1;
  if (!Number.isInteger(count) || count < 1 || count > 8) throw new RangeError(`replicas: 1 to 8, not ${String(options.replicas)}`);
  const logLevel = options.logLevel ?? 'silent';
  const database = `sfdb_test_${randomBytes(4).toString('hex')}`;
  // Every replica's settings read before anything starts: a bad one (ConfigError, naming
  // it) starts nothing.
  const configs = Array.from({ length: count }, (_, i) =>
    parseConfig(
      {
        SFDB_LOG_LEVEL: logLevel,
        // Stopping a test tier should not wait out a production drain.
        SFDB_DRAIN_GRACE_MS: '1000',
        ...options.env,
        ...callerDaemonsWith(options.env, options.callerDaemons),
        SFDB_GRPC_PORT: '0',
        SFDB_HTTP_PORT: '0',
        SFDB_REPLICA_ID: `${database}-${i + 1}`,
      },
      [],
    ),
  );
  // A URL that is not one is refused here, before anything starts.
  const server = options.mariadbUrl === undefined ? undefined : new MariaDbAt(options.mariadbUrl);
  // A private MariaDB lives in a directory of its own (a run killed before its stop() left
  // its mariadbd behind: the start reaps those of dead owners). On a server of the caller's,
  // the tier's database is created at start and dropped by stop().
  const dir = server === undefined ? new TempDir(DIR_PREFIX) : undefined;
  const cluster: TierCluster<InProcessPlan, Tier> = new TierCluster({
    ...(dir ? { dir } : {}),
    server: server ? { use: server } : { run: new PrivateMariaDb(dir as TempDir, { database, extraArgs: FAST_MARIADB_ARGS, graceMs: 10_000 }) },
    database: { name: database, create: server !== undefined },
    replicas: configs.map((config) => ({ name: config.replicaId, config })),
    launcher: inProcessReplicas((config) => createLogger(config.logLevel, { replica: config.replicaId })),
    // Replicas of a running cluster know each other (the change feed's pokes, peer probes).
    after: [component('peers', () => Promise.all(cluster.replicas.map((t) => t.feed.refreshPeers())))],
  });

  // A failed start (no mariadbd: MariaDbMissingError; MariaDB unreachable) stops what had
  // started, in reverse.
  await cluster.start();
  const tiers = cluster.replicas;
  const stop = (): Promise<void> => cluster.stop();
  return {
    targets: tiers.map((t) => `127.0.0.1:${t.grpcPort}`).join(','),
    replicas: tiers.map((t) => ({ replicaId: t.config.replicaId, grpcPort: t.grpcPort, httpPort: t.httpPort })),
    databaseUrl: cluster.databaseUrl,
    stop,
    [Symbol.asyncDispose]: stop,
  };
}
