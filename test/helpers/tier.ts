// A tier for one test file: a fresh database on the run's private mariadbd, migrated,
// served in-process on free ports; plus a direct mysql2 connection for row counts.
import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';
import type { Connection } from 'mysql2/promise';
import { afterAll, beforeAll, inject } from 'vitest';
import { createClient } from '../../client/index.js';
import type { CreateClientOptions, DatabaseClient } from '../../client/index.js';
import { parseConfig } from '../../server/config.js';
import type { Config } from '../../server/config.js';
import { createLogger } from '../../proto/runtime/log.js';
import { Tier } from '../../server/tier.js';
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

export function mariadbUrl(database: string, port: number = inject('mariadbPort')): string {
  return `mysql://root@127.0.0.1:${port}/${database}`;
}

export async function createTestDatabase(port: number = inject('mariadbPort')): Promise<string> {
  const database = `t_${randomBytes(6).toString('hex')}`;
  const admin = await mysql.createConnection({ host: '127.0.0.1', port, user: 'root' });
  await admin.query(`CREATE DATABASE \`${database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`);
  await admin.end();
  return database;
}

export async function dropTestDatabase(database: string, port: number = inject('mariadbPort')): Promise<void> {
  const admin = await mysql.createConnection({ host: '127.0.0.1', port, user: 'root' });
  await admin.query(`DROP DATABASE IF EXISTS \`${database}\``);
  await admin.end();
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
  const port = opts.port ?? inject('mariadbPort');
  const ownsDatabase = opts.database === undefined;
  const database = opts.database ?? (await createTestDatabase(port));
  const databaseUrl = mariadbUrl(database, port);
  const config = testConfig(opts.env);
  const tier = await Tier.start(config, databaseUrl, createLogger(config.logLevel));
  const direct = await mysql.createConnection({ uri: databaseUrl, supportBigNumbers: true, bigNumberStrings: true, dateStrings: true, jsonStrings: true });
  const clients: DatabaseClient[] = [];
  return {
    tier,
    config,
    databaseUrl,
    database,
    direct,
    client(options: CreateClientOptions = {}) {
      const c = createClient({ targets: `127.0.0.1:${tier.grpcPort}`, callerDaemon: 'test', ...options });
      clients.push(c);
      return c;
    },
    async count(table, where, params = []) {
      const [rows] = await direct.query(`SELECT COUNT(*) AS n FROM \`${table}\`${where ? ` WHERE ${where}` : ''}`, params);
      return Number((rows as { n: string }[])[0]?.n ?? 0);
    },
    metrics: () => scrapeText(tier.httpPort),
    async stop() {
      for (const c of clients) c.close();
      await tier.stop();
      await direct.end();
      if (ownsDatabase) await dropTestDatabase(database, port);
    },
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
