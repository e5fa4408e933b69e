// sf-database/testing (server/testing.ts), the test environment daemon authors get: a
// private MariaDB and real replicas started for a test and stopped again, nothing left
// behind; or a database of its own on a MariaDB the test names.
import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import mysql from 'mysql2/promise';
import { describe, expect, inject, it } from 'vitest';
import { createClient } from '../../client/index.js';
import { isAlive as alive } from '../../server/embedded/mariadb.js';
import { ConfigError, startTestTier } from '../../server/testing.js';
import { processesMentioning } from '../../harness/leftovers.js';

const ours = (): string[] => readdirSync(tmpdir()).filter((d) => d.startsWith('sfdb-testing-'));

describe('sf-database/testing', () => {
  it('starts a private MariaDB and two replicas a client balances over, and stops them leaving nothing behind', async () => {
    const before = ours();
    const tier = await startTestTier({ replicas: 2 });
    const dir = ours().find((d) => !before.includes(d));
    expect(dir, 'a temporary directory of its own').toBeDefined();
    const pids = processesMentioning(`${tmpdir()}/${dir}/`).filter((pid) => pid !== process.pid);
    expect(pids.length, 'its mariadbd').toBe(1);
    expect(tier.replicas).toHaveLength(2);
    expect(tier.targets).toBe(tier.replicas.map((r) => `127.0.0.1:${r.grpcPort}`).join(','));
    const db = createClient({ targets: tier.targets, callerDaemon: 'testing-export', cache: false });
    try {
      const uuid = randomUUID();
      await db.createNode({ uuid, fqdn: `${uuid}.example` });
      // Read back through each replica on its own: one database behind both.
      for (const r of tier.replicas) {
        const one = createClient({ targets: `127.0.0.1:${r.grpcPort}`, callerDaemon: 'testing-export', cache: false });
        expect((await one.getNode(uuid))?.fqdn).toBe(`${uuid}.example`);
        one.close();
      }
      const ready = await fetch(`http://127.0.0.1:${tier.replicas[0]?.httpPort}/readyz`);
      expect(ready.status).toBe(200);
    } finally {
      db.close();
      await tier.stop();
    }
    await tier.stop(); // twice is fine
    expect(ours()).not.toContain(dir);
    for (const pid of pids) expect(alive(pid), `mariadbd ${pid} stopped`).toBe(false);
  });

  it('makes a database of its own on a MariaDB it is given, and drops it at stop', async () => {
    const server = `mysql://root@127.0.0.1:${inject('mariadbPort')}`;
    const tier = await startTestTier({ mariadbUrl: server, env: { SFDB_NODE_LIVE_MS: '4000' } });
    const database = new URL(tier.databaseUrl).pathname.slice(1);
    const admin = await mysql.createConnection({ uri: server });
    try {
      const [present] = await admin.query('SHOW DATABASES LIKE ?', [database]);
      expect(present).toHaveLength(1);
      await tier.stop();
      const [gone] = await admin.query('SHOW DATABASES LIKE ?', [database]);
      expect(gone).toHaveLength(0);
    } finally {
      await tier.stop();
      await admin.end();
    }
  });

  it('refuses bad options before it starts anything, naming what is wrong', async () => {
    const before = ours();
    await expect(startTestTier({ replicas: 0 })).rejects.toThrow(/replicas: 1 to 8/);
    await expect(startTestTier({ mariadbUrl: 'postgres://x@y' })).rejects.toThrow(/mariadbUrl: mysql:/);
    const bad = await startTestTier({ env: { SFDB_POOL_SIZE: 'lots' } }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(ConfigError);
    expect((bad as Error).message).toContain('SFDB_POOL_SIZE');
    const badName = await startTestTier({ callerDaemons: ['Imager!'] }).catch((e: unknown) => e);
    expect(badName).toBeInstanceOf(ConfigError);
    expect((badName as Error).message).toContain('callerDaemons');
    // Nothing was started: no private MariaDB, no directory.
    expect(ours()).toEqual(before);
  });

  it('counts the extra caller names it is given under their own names, whatever room the replica has for new ones', async () => {
    const tier = await startTestTier({ callerDaemons: ['imager'], env: { SFDB_CALLER_DAEMONS_MAX: '0' } });
    try {
      for (const name of ['imager', 'scheduler']) {
        const db = createClient({ targets: tier.targets, callerDaemon: name, cache: false });
        await db.listNodes();
        db.close();
      }
      const text = await (await fetch(`http://127.0.0.1:${tier.replicas[0]?.httpPort}/metrics`)).text();
      const counted = (daemon: string): RegExpMatchArray | null => text.match(new RegExp(`^database_requests_total\\{operation="ListNodes",caller_daemon="${daemon}"\\} 1$`, 'm'));
      expect(counted('imager'), 'imager, on the list').not.toBeNull();
      expect(counted('other'), 'scheduler, past a cap of 0').not.toBeNull();
      expect(counted('scheduler')).toBeNull();
    } finally {
      await tier.stop();
    }
  });
});
