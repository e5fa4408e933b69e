// The tier's one lifecycle: a failure at any start step stops what started, in reverse —
// no registry row, no listener, no MariaDB connection is left behind.
import { connect } from 'node:net';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { createLogger } from '../../proto/runtime/log.js';
import { freePort } from '../../server/embedded/mariadb.js';
import { TIER_STEPS, Tier } from '../../server/tier.js';
import { createTestDatabase, dropTestDatabase, mariadbUrl, testConfig } from '../helpers/tier.js';

let database: string;
let admin: mysql.Connection;
beforeAll(async () => {
  database = await createTestDatabase();
  admin = await mysql.createConnection({ host: '127.0.0.1', port: inject('mariadbPort'), user: 'root' });
});
afterAll(async () => {
  await admin.end();
  await dropTestDatabase(database);
});

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function registryRows(replicaId: string): Promise<number> {
  const [tables] = await admin.query('SELECT COUNT(*) AS n FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?', [database, 'tier_replicas']);
  if (Number((tables as { n: string }[])[0]?.n) === 0) return 0;
  const [rows] = await admin.query(`SELECT COUNT(*) AS n FROM \`${database}\`.tier_replicas WHERE replica_id = ?`, [replicaId]);
  return Number((rows as { n: string }[])[0]?.n);
}

async function connections(): Promise<number> {
  const [rows] = await admin.query('SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE DB = ?', [database]);
  return Number((rows as { n: string }[])[0]?.n);
}

describe('tier lifecycle', () => {
  it.each(TIER_STEPS.map((step) => [step]))('a failure at the %s step leaves no registry row, listener or connection', async (step) => {
    const grpcPort = await freePort();
    const httpPort = await freePort();
    const config = testConfig({ SFDB_GRPC_PORT: String(grpcPort), SFDB_HTTP_PORT: String(httpPort) });
    const reached: string[] = [];
    const failure = new Error(`injected before ${step}`);
    await expect(
      Tier.start(config, mariadbUrl(database), createLogger('silent'), {
        beforeStart: (at) => {
          reached.push(at);
          if (at === step) throw failure;
        },
      }),
    ).rejects.toBe(failure);
    expect(reached.at(-1)).toBe(step);
    expect(await registryRows(config.replicaId)).toBe(0);
    expect(await listening(grpcPort)).toBe(false);
    expect(await listening(httpPort)).toBe(false);
    // A closed pool's connections leave the server's process list once it has read the
    // COM_QUIT: waited for, not slept on.
    await vi.waitFor(async () => expect(await connections()).toBe(0), { timeout: 10_000, interval: 50 });
  });

  it('a started tier stops everything it started', async () => {
    const config = testConfig();
    const tier = await Tier.start(config, mariadbUrl(database), createLogger('silent'));
    expect(await registryRows(config.replicaId)).toBe(1);
    expect(await listening(tier.grpcPort)).toBe(true);
    expect(await listening(tier.httpPort)).toBe(true);
    expect(await connections()).toBeGreaterThan(0);
    await tier.stop();
    expect(await registryRows(config.replicaId)).toBe(0);
    expect(await listening(tier.grpcPort)).toBe(false);
    expect(await listening(tier.httpPort)).toBe(false);
    await vi.waitFor(async () => expect(await connections()).toBe(0), { timeout: 10_000, interval: 50 });
  });
});
