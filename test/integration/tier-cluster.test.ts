// The one component for "a MariaDB and N replicas" (server/testing/cluster.ts): its parts
// start in order and stop in reverse, a failed start stops what started, and replicas are
// added, stopped and restarted (with their identity or another) once it runs. The order is
// watched through a launcher that records what it is asked (the servers and the database
// are real: the suite's MariaDB); then real replicas, in this process, on one database.
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import mysql from 'mysql2/promise';
import { describe, expect, inject, it } from 'vitest';
import { createClient } from '../../client/index.js';
import { component } from '../../proto/runtime/lifecycle.js';
import { createLogger } from '../../proto/runtime/log.js';
import { TierCluster } from '../../server/testing/cluster.js';
import type { ReplicaLauncher } from '../../server/testing/cluster.js';
import { MariaDbAt } from '../../server/testing/database.js';
import { inProcessReplicas } from '../../server/testing/in-process.js';
import type { InProcessPlan } from '../../server/testing/in-process.js';
import { TempDir } from '../../server/testing/temp-dir.js';
import { testConfig } from '../helpers/tier.js';

const server = (): MariaDbAt => new MariaDbAt(`mysql://root@127.0.0.1:${inject('mariadbPort')}`);
const freshName = (): string => `tc_${randomBytes(5).toString('hex')}`;

async function databaseExists(name: string): Promise<boolean> {
  const conn = await mysql.createConnection({ host: '127.0.0.1', port: inject('mariadbPort'), user: 'root' });
  try {
    const [rows] = await conn.query('SHOW DATABASES LIKE ?', [name]);
    return (rows as unknown[]).length === 1;
  } finally {
    await conn.end();
  }
}

interface Plan {
  name: string;
  id: string;
}

/** A launcher that records each start and stop in `events`, and fails the start of `failing`. */
function recording(events: string[], failing?: string): ReplicaLauncher<Plan, Plan & { url: string }> {
  return {
    start: async (plan, url) => {
      if (plan.name === failing) throw new Error(`${plan.name} refused to start`);
      events.push(`start ${plan.name}/${plan.id}`);
      return { ...plan, url };
    },
    stop: async (replica) => void events.push(`stop ${replica.name}/${replica.id}`),
  };
}

/**
 * A cluster in a directory of its own, on a fresh database of the suite's MariaDB, with a
 * part before the replicas and one after, all recorded in `events`; `failing` refuses to start.
 */
function recorded(names: string[], failing?: string): { cluster: TierCluster<Plan, Plan & { url: string }>; events: string[]; dir: TempDir; database: string } {
  const events: string[] = [];
  const dir = new TempDir(`sfdb-tier-cluster-${process.pid}-`);
  const database = freshName();
  const cluster = new TierCluster({
    dir,
    server: { use: server() },
    database: { name: database, create: true },
    replicas: names.map((name) => ({ name, id: `${name}1` })),
    launcher: recording(events, failing),
    before: [component('proxy', () => void events.push('start proxy'), () => void events.push('stop proxy'))],
    after: [component('peers', () => void events.push('start peers'), () => void events.push('stop peers'))],
  });
  return { cluster, events, dir, database };
}

describe('TierCluster', () => {
  it('starts the directory, the database, the parts and the replicas in order, and stops them in reverse', async () => {
    const { cluster, events, dir, database } = recorded(['a', 'b']);
    await cluster.start();
    expect(existsSync(dir.path)).toBe(true);
    expect(await databaseExists(database)).toBe(true);
    expect(cluster.replicas.map((r) => r.url)).toEqual([cluster.databaseUrl, cluster.databaseUrl]);
    expect(cluster.databaseUrl).toBe(`mysql://root@127.0.0.1:${inject('mariadbPort')}/${database}`);

    // Added, restarted with its identity and with another, stopped: each stops with the
    // cluster, the last started first.
    await cluster.add({ name: 'c', id: 'c1' });
    await cluster.restart('a');
    await cluster.restart('b', (plan) => ({ ...plan, id: 'b2' }));
    await expect(cluster.add({ name: 'c', id: 'c2' })).rejects.toThrow(/c runs already/);
    await cluster.stopReplica('c');
    expect(() => cluster.replica('c')).toThrow(/no replica c/);
    expect(cluster.plan('b').id).toBe('b2');
    await cluster.stop();
    await cluster.stop(); // twice is fine

    expect(events).toEqual([
      'start proxy',
      'start a/a1',
      'start b/b1',
      'start peers',
      'start c/c1',
      'stop a/a1',
      'start a/a1',
      'stop b/b1',
      'start b/b2',
      'stop c/c1',
      'stop peers',
      'stop b/b2',
      'stop a/a1',
      'stop proxy',
    ]);
    expect(await databaseExists(database)).toBe(false);
    expect(existsSync(dir.path)).toBe(false);
    await expect(cluster.add({ name: 'd', id: 'd1' })).rejects.toThrow(/stopping/);
  });

  it('after a failed start, stops what had started, in reverse, and rejects with the failure', async () => {
    const { cluster, events, dir, database } = recorded(['a', 'b', 'c'], 'c');
    await expect(cluster.start()).rejects.toThrow('c refused to start');
    expect(events).toEqual(['start proxy', 'start a/a1', 'start b/b1', 'stop b/b1', 'stop a/a1', 'stop proxy']);
    expect(await databaseExists(database)).toBe(false);
    expect(existsSync(dir.path)).toBe(false);
  });

  it('leaves servers it uses and a database it did not create, and spreads replicas over the servers', async () => {
    const database = freshName();
    const shared = server();
    await shared.createDatabase(database);
    try {
      // Two "servers" (the same MariaDB under two URLs): replica i dials server i % 2.
      const urls = [`mysql://root@127.0.0.1:${inject('mariadbPort')}`, `mysql://root@localhost:${inject('mariadbPort')}`];
      const events: string[] = [];
      // Servers another cluster runs (a part of its lifecycle): used here, never started or stopped.
      const two = {
        name: 'servers',
        start: () => void events.push('start servers'),
        stop: () => void events.push('stop servers'),
        size: 2,
        urlFor: (i: number, db: string) => `${urls[i]}/${db}`,
        createDatabase: shared.createDatabase.bind(shared),
        dropDatabase: shared.dropDatabase.bind(shared),
        pids: () => [undefined, undefined],
      };
      const cluster = new TierCluster({ server: { use: two }, database: { name: database, create: false }, replicas: ['a', 'b', 'c'].map((n) => ({ name: n, id: n })), launcher: recording(events) });
      await cluster.start();
      expect(cluster.replicas.map((r) => new URL(r.url).hostname)).toEqual(['127.0.0.1', 'localhost', '127.0.0.1']);
      await cluster.stop();
      expect(events).toEqual(['start a/a', 'start b/b', 'start c/c', 'stop c/c', 'stop b/b', 'stop a/a']);
      expect(await databaseExists(database)).toBe(true);
    } finally {
      await shared.dropDatabase(database);
    }
  });

  it('runs real replicas on one database: a row written through one is read through the other, and a restarted replica keeps its id', async () => {
    const plan = (name: string): InProcessPlan => ({ name, config: testConfig({ SFDB_REPLICA_ID: `tc-${name}-${randomBytes(3).toString('hex')}` }) });
    const database = freshName();
    const cluster = new TierCluster({
      server: { use: server() },
      database: { name: database, create: true },
      replicas: [plan('one'), plan('two')],
      launcher: inProcessReplicas((config) => createLogger(config.logLevel)),
    });
    await cluster.start();
    try {
      const dial = (name: string) => createClient({ targets: `127.0.0.1:${cluster.replica(name).grpcPort}`, callerDaemon: 'tier-cluster', cache: false, feed: false });
      const uuid = randomUUID();
      const one = dial('one');
      await one.createNode({ uuid, fqdn: `${uuid}.example` });
      one.close();
      const id = cluster.replica('two').config.replicaId;
      const restarted = await cluster.restart('two');
      expect(restarted.config.replicaId).toBe(id);
      const two = dial('two');
      expect((await two.getNode(uuid))?.fqdn).toBe(`${uuid}.example`);
      two.close();
    } finally {
      await cluster.stop();
    }
    expect(await databaseExists(database)).toBe(false);
  });
});
