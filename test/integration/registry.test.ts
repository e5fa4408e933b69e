// The tier replica registry against real MariaDB: ids, takeover, owner tokens, sweeping.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Fenced } from '../../client/index.js';
import type { DatabaseClient } from '../../client/index.js';
import { Database, createPool } from '../../server/db/pool.js';
import { createLogger } from '../../proto/runtime/log.js';
import { Metrics } from '../../server/metrics.js';
import { RegistryError, ReplicaRegistry } from '../../server/registry/registry.js';
import { Tier } from '../../server/tier.js';
import { FakeClock, until } from '../helpers/fake-clock.js';
import { startTestTier, testConfig } from '../helpers/tier.js';
import type { TestTier } from '../helpers/tier.js';

let t: TestTier;
let db: DatabaseClient;
let registryDb: Database;
const log = createLogger('silent');

beforeAll(async () => {
  t = await startTestTier({ env: { SFDB_REPLICA_ID: 'main-replica' } });
  db = t.client();
  registryDb = new Database(createPool({ url: t.databaseUrl, connectionLimit: 2 }), new Metrics('registry-test'));
});
afterAll(async () => {
  await registryDb.close();
  await t.stop();
});

function registry(id: string, clock = new FakeClock()): { reg: ReplicaRegistry; clock: FakeClock } {
  return { reg: new ReplicaRegistry(registryDb.sql('registry'), { replicaId: id, address: 'test:1', metricsAddress: 'test:2', heartbeatMs: 1000, liveMs: 3000 }, log, clock), clock };
}

async function row(id: string): Promise<{ owner_token: string } | undefined> {
  const [rows] = await t.direct.query('SELECT owner_token FROM tier_replicas WHERE replica_id = ?', [id]);
  return (rows as { owner_token: string }[])[0];
}

describe('replica registry', () => {
  it('registers the running tier under its id and shows it in /healthz and cluster status', async () => {
    const health = (await (await fetch(`http://127.0.0.1:${t.tier.httpPort}/healthz`)).json()) as Record<string, unknown>;
    expect(health).toMatchObject({ status: 'serving', replica_id: 'main-replica', registry: 'registered', live_replicas: 1, database: 'up' });
    expect(typeof health['heartbeat_age_ms']).toBe('number');
    const status = await db.getClusterStatus();
    expect(status.replicas.map((r) => [r.replicaId, r.live])).toEqual([['main-replica', true]]);
    expect(status.replicas[0]?.address).toBe(`127.0.0.1:${t.tier.grpcPort}`);
    // Load tools find each replica's /metrics here.
    expect(status.replicas[0]?.metricsAddress).toBe(`127.0.0.1:${t.tier.httpPort}`);
  });

  it('refuses to start a second replica with a live id, with a clear message', async () => {
    const config = testConfig({ SFDB_REPLICA_ID: 'main-replica' });
    await expect(Tier.start(config, t.databaseUrl, log)).rejects.toThrow(RegistryError);
    await expect(Tier.start(config, t.databaseUrl, log)).rejects.toThrow(/replica id "main-replica" is live.*another --id/);
    expect(await t.count('tier_replicas')).toBe(1);
  });

  it('lets a new replica take a dead id; the stalled one can neither refresh nor delete the new row', async () => {
    const { reg: old, clock: oldClock } = registry('taken-over');
    await old.register();
    const lost: string[] = [];
    old.start((reason) => lost.push(reason));
    const oldToken = (await row('taken-over'))?.owner_token;
    expect(oldToken).toBe(old.ownerToken);

    // The old one stalls past the liveness window (by database time).
    await t.direct.query("UPDATE tier_replicas SET heartbeat_at = UTC_TIMESTAMP(6) - INTERVAL 10 SECOND WHERE replica_id = 'taken-over'");
    const { reg: fresh } = registry('taken-over');
    await fresh.register();
    expect((await row('taken-over'))?.owner_token).toBe(fresh.ownerToken);

    // The old one wakes up: its heartbeat finds the row taken and reports the loss.
    await oldClock.advance(1000);
    await until(() => lost.length > 0);
    expect(lost).toHaveLength(1);
    expect(lost[0]).toMatch(/gone or owned by another process/);
    expect(old.snapshot().state).toBe('lost');
    await old.stop();
    expect((await row('taken-over'))?.owner_token).toBe(fresh.ownerToken);

    await fresh.stop();
    expect(await row('taken-over')).toBeUndefined();
  });

  it('heartbeats once per interval while its row is its own', async () => {
    const { reg, clock } = registry('steady');
    await reg.register();
    const lost: string[] = [];
    reg.start((reason) => lost.push(reason));
    for (let beat = 1; beat <= 3; beat++) {
      await clock.advance(1000);
      await until(() => reg.snapshot().beats === beat);
    }
    expect(reg.snapshot()).toMatchObject({ state: 'registered', beats: 3, failures: 0, msSinceLastBeat: 0 });
    await reg.stop();
    expect(lost).toEqual([]);
  });

  it('sweeps stale rows under a lease, and refuses a stale fence without deleting anything', async () => {
    await t.direct.query(
      `INSERT INTO tier_replicas (replica_id, owner_token, address, started_at, heartbeat_at)
       VALUES ('long-dead', ?, '', UTC_TIMESTAMP(6) - INTERVAL 1 HOUR, UTC_TIMESTAMP(6) - INTERVAL 1 HOUR)`,
      [randomUUID()],
    );
    const { acquired, lease } = await db.acquireLease('maintenance/registry', 'sweeper', 10_000);
    expect(acquired).toBe(true);
    const stale = { name: lease.name, holder: 'sweeper', token: String(BigInt(lease.token) + 1n) };
    await expect(db.sweepReplicaRegistry(stale)).rejects.toBeInstanceOf(Fenced);
    expect(await row('long-dead')).toBeDefined();

    const removed = await db.sweepReplicaRegistry({ name: lease.name, holder: 'sweeper', token: lease.token });
    expect(removed).toEqual(['long-dead']);
    expect(await row('long-dead')).toBeUndefined();
    expect(await row('main-replica')).toBeDefined();
  });
});
