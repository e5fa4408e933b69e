// A tier for one test file: a fresh database on the run's private mariadbd, migrated,
// served in-process on free ports (server/testing/cluster.ts, the component every tier of
// the tests and benches is made of); plus a direct mysql2 connection for row counts.
import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';
import type { Connection } from 'mysql2/promise';
import { afterAll, beforeAll, inject } from 'vitest';
import { createClient } from '../../client/index.js';
import type { CreateClientOptions, DatabaseClient } from '../../client/index.js';
import { parseConfig } from '../../server/config.js';
import type { Config } from '../../server/config.js';
import { component } from '../../proto/runtime/lifecycle.js';
import { createLogger } from '../../proto/runtime/log.js';
import type { Tier } from '../../server/tier.js';
import { TierCluster } from '../../server/testing/cluster.js';
import { MariaDbAt } from '../../server/testing/database.js';
import { inProcessReplicas } from '../../server/testing/in-process.js';
import { scrapeText } from '../../harness/scrape.js';

export interface TestTier {
  tier: Tier;
  config: Config;
  databaseUrl: string;
  database: string;
  /** A direct connection to the test database (row counts, EXPLAIN, fault setup). */
  direct: Connection;
  /** A client with its own channel; closed by stop(). */
  client(options?: CreateClientOptions): DatabaseClient;
  /** Rows in `table` (optionally WHERE `where`). */
  count(table: string, where?: string, params?: unknown[]): Promise<number>;
  /** The tier's /metrics text. */
  metrics(): Promise<string>;
  stop(): Promise<void>;
}

/** The run's private mariadbd (or Galera node 0), as a server of test databases. */
export function testServer(port: number = inject('mariadbPort')): MariaDbAt {
  return new MariaDbAt(`mysql://root@127.0.0.1:${port}`);
}

export function mariadbUrl(database: string, port: number = inject('mariadbPort')): string {
  return testServer(port).urlFor(0, database);
}

/** A fresh name for a test file's database. */
export function testDatabaseName(): string {
  return `t_${randomBytes(6).toString('hex')}`;
}

export async function createTestDatabase(port: number = inject('mariadbPort')): Promise<string> {
  const database = testDatabaseName();
  await testServer(port).createDatabase(database);
  return database;
}

export async function dropTestDatabase(database: string, port: number = inject('mariadbPort')): Promise<void> {
  await testServer(port).dropDatabase(database);
}

export function testConfig(overrides: Record<string, string> = {}): Config {
  return parseConfig(
    {
      SFDB_GRPC_PORT: '0',
      SFDB_HTTP_PORT: '0',
      SFDB_REPLICA_ID: `test-${randomBytes(3).toString('hex')}`,
      SFDB_LOG_LEVEL: process.env['SFDB_TEST_LOG_LEVEL'] ?? 'silent',
      SFDB_DRAIN_GRACE_MS: '2000',
      ...overrides,
    },
    [],
  );
}

/**
 * Starts a tier on a new test database, or on `database` (another tier's: replicas
 * sharing one database; the database then stays for its owner to drop).
 */
export async function startTestTier(opts: { env?: Record<string, string>; port?: number; database?: string } = {}): Promise<TestTier> {
  const database = opts.database ?? testDatabaseName();
  const config = testConfig(opts.env);
  let direct: Connection | undefined;
  const clients: DatabaseClient[] = [];
  const cluster = new TierCluster({
    server: { use: testServer(opts.port) },
    database: { name: database, create: opts.database === undefined },
    replicas: [{ name: config.replicaId, config }],
    launcher: inProcessReplicas((c) => createLogger(c.logLevel)),
    // Stopped after the tier (and before its database is dropped), the clients before it.
    before: [
      component(
        'direct connection',
        async () => {
          direct = await mysql.createConnection({ uri: cluster.databaseUrl, supportBigNumbers: true, bigNumberStrings: true, dateStrings: true, jsonStrings: true });
        },
        () => direct?.end(),
      ),
    ],
    after: [component('clients', () => undefined, () => clients.forEach((c) => c.close()))],
  });
  await cluster.start();
  const tier = cluster.replica(config.replicaId);
  const conn = direct as Connection;
  return {
    tier,
    config,
    databaseUrl: cluster.databaseUrl,
    database,
    direct: conn,
    client(options: CreateClientOptions = {}) {
      const c = createClient({ targets: `127.0.0.1:${tier.grpcPort}`, callerDaemon: 'test', ...options });
      clients.push(c);
      return c;
    },
    async count(table, where, params = []) {
      const [rows] = await conn.query(`SELECT COUNT(*) AS n FROM \`${table}\`${where ? ` WHERE ${where}` : ''}`, params);
      return Number((rows as { n: string }[])[0]?.n ?? 0);
    },
    metrics: () => scrapeText(tier.httpPort),
    stop: () => cluster.stop(),
  };
}

/**
 * The usual setup of a test file: a tier on its own database and a client, started in
 * beforeAll and stopped in afterAll. `t` and `db` forward to them once started.
 */
export function useTestTier(opts: Parameters<typeof startTestTier>[0] = {}): { t: TestTier; db: DatabaseClient } {
  let tier: TestTier | undefined;
  let client: DatabaseClient | undefined;
  beforeAll(async () => {
    tier = await startTestTier(opts);
    client = tier.client();
  });
  afterAll(async () => {
    await tier?.stop();
  });
  const late = <T extends object>(get: () => T | undefined, what: string): T =>
    new Proxy({} as T, {
      get(_target, prop) {
        const real = get();
        if (!real) throw new Error(`${what} is used before beforeAll started it`);
        const value = Reflect.get(real, prop, real) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(real) : value;
      },
    });
  return { t: late(() => tier, 'the test tier'), db: late(() => client, 'the test client') };
}
