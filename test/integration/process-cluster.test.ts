// The harness's tier of real replica processes (harness/cluster.ts, on the shared
// component server/testing/cluster.ts): replicas behind their own TCP proxies (registered
// and dialled there), restarted with their identity or a fresh one, frozen, killed; a stop
// with a replica frozen and a proxy blackholed does not wait behind them; a failed start
// stops what started; a private MariaDB in the run's directory, dialled through a proxy,
// leaves nothing behind.
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import mysql from 'mysql2/promise';
import { describe, expect, inject, it } from 'vitest';
import { createClient } from '../../client/index.js';
import { ProcessCluster } from '../../harness/cluster.js';
import { isAlive } from '../../server/embedded/mariadb.js';
import { testDatabaseName } from '../helpers/tier.js';

const server = (): { url: string } => ({ url: `mysql://root@127.0.0.1:${inject('mariadbPort')}` });

async function query<T>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const conn = await mysql.createConnection({ uri: url });
  try {
    const [rows] = await conn.query(sql, params);
    return rows as T[];
  } finally {
    await conn.end();
  }
}

/** Pids of processes whose environment mentions `needle` (a replica's names its database). */
function processesWithEnv(needle: string): number[] {
  return readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .filter((e) => {
      try {
        return readFileSync(`/proc/${e}/environ`, 'utf8').includes(needle);
      } catch {
        return false;
      }
    })
    .map(Number);
}

const databaseExists = async (name: string): Promise<boolean> => (await query(server().url, 'SHOW DATABASES LIKE ?', [name])).length === 1;

describe('ProcessCluster', () => {
  it('runs replicas behind proxies; restarts, freezes and kills them; stops with faults on, leaving nothing', async () => {
    const database = testDatabaseName();
    const cluster = new ProcessCluster({
      server: server(),
      database,
      replicas: [{ name: 'one' }, { name: 'two' }],
      idFor: (name, n) => `pc-${name}-${n}`,
      env: { SFDB_DRAIN_GRACE_MS: '1000' },
      proxies: true,
      ownSession: false,
    });
    await cluster.start();
    const pids: number[] = [];
    try {
      const [one, two] = cluster.replicas as [typeof cluster.replicas[0], typeof cluster.replicas[0]];
      pids.push(one.pid as number, two.pid as number);
      // Registered under its proxy's address, which is what clients dial.
      const rows = await query<{ replica_id: string; address: string }>(cluster.urlFor(0), 'SELECT replica_id, address FROM tier_replicas ORDER BY replica_id');
      expect(rows).toEqual([
        { replica_id: 'pc-one-1', address: one.address },
        { replica_id: 'pc-two-2', address: two.address },
      ]);
      expect(cluster.targets).toEqual([one.address, two.address]);
      expect(one.address).not.toBe(one.grpcAddress);
      const db = createClient({ targets: cluster.targets, callerDaemon: 'process-cluster', cache: false, feed: false });
      const uuid = randomUUID();
      await db.createNode({ uuid, fqdn: `${uuid}.example` });
      db.close();

      // The same identity on the same ports; the proxy follows to the new process.
      const again = await cluster.restart('one', { ports: 'same' });
      pids.push(again.pid as number);
      expect([again.id, again.grpcPort, again.address]).toEqual([one.id, one.grpcPort, one.address]);
      expect(one.running).toBe(false);
      const viaProxy = createClient({ targets: [again.address], callerDaemon: 'process-cluster', cache: false, feed: false });
      expect((await viaProxy.getNode(uuid))?.fqdn).toBe(`${uuid}.example`);
      viaProxy.close();

      // Killed, then started with a fresh id (the old one stays live for the window).
      expect(await cluster.terminate('two', 'SIGKILL', 10_000)).toEqual({ code: null, signal: 'SIGKILL' });
      const fresh = await cluster.restart('two', { id: 'fresh' });
      pids.push(fresh.pid as number);
      expect(fresh.id).toBe('pc-two-3');
      expect(fresh.address).toBe(two.address);

      // Frozen and cut off while the cluster stops: stop lifts both first.
      cluster.signal('one', 'SIGSTOP');
      cluster.replica('two').proxy?.blackhole(true);
    } finally {
      await cluster.stop();
    }
    for (const pid of pids) expect(isAlive(pid), `replica ${pid} stopped`).toBe(false);
    expect(await databaseExists(database)).toBe(false);
  }, 180_000);

  it('after a replica fails to start, stops the one that started and drops the database', async () => {
    const database = testDatabaseName();
    const cluster = new ProcessCluster({
      server: server(),
      database,
      replicas: [{ name: 'good' }, { name: 'bad', env: { SFDB_POOL_SIZE: 'lots' } }],
      idFor: (name) => `pc-${name}-${randomUUID().slice(0, 6)}`,
      ownSession: false,
    });
    const started = cluster.start();
    // The good one runs (its environment names the database) until the bad one fails.
    await expect.poll(() => processesWithEnv(`/${database}`).length, { timeout: 60_000, interval: 100 }).toBe(1);
    await expect(started).rejects.toThrow(/replica bad did not start: .*SFDB_POOL_SIZE/s);
    expect(processesWithEnv(`/${database}`)).toEqual([]);
    expect(await databaseExists(database)).toBe(false);
  }, 120_000);

  it("runs a private MariaDB in the run's directory, the replicas dialling it through a proxy, and removes both", async () => {
    const cluster = new ProcessCluster({ dir: `sfdb-process-cluster-${process.pid}-`, server: 'mariadb', database: 'pc', replicas: [{ name: 'a' }], databaseProxy: true });
    await cluster.start();
    let dir = '';
    let mariadbd: number | undefined;
    try {
      dir = cluster.dir;
      mariadbd = cluster.mariadb.server.pid;
      const proxy = cluster.databaseProxy;
      expect(proxy?.accepted, 'the replica dialled MariaDB through the proxy').toBeGreaterThan(0);
      expect(existsSync(`${dir}/a.log`)).toBe(true);
      expect(cluster.urlFor(0)).toBe(cluster.mariadb.server.url);
    } finally {
      await cluster.stop();
    }
    expect(existsSync(dir)).toBe(false);
    expect(isAlive(mariadbd as number)).toBe(false);
  }, 180_000);
});
