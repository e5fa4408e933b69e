// The embedded default of `npm start`: no SFDB_DATABASE_URL starts a private mariadbd
// under the data directory, reuses it on the next start, and Ctrl-C leaves no process.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createClient } from '../../client/index.js';
import { EmbeddedMariaDb, freePort, isAlive as alive } from '../../server/embedded/mariadb.js';
import { processesMentioning } from '../../harness/leftovers.js';
import { spawnTier } from '../helpers/process.js';
import { runCtl } from '../helpers/sf-ctl.js';

const dir = mkdtempSync(join(tmpdir(), 'sfdb-default-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('embedded MariaDB default', () => {
  it('starts, serves, stops cleanly on SIGINT, and reuses its data on the next start', async () => {
    const dataDir = join(dir, 'mariadb');
    const uuid = randomUUID();
    for (const round of [1, 2]) {
      const tier = spawnTier({ env: { SFDB_DATA_DIR: dataDir } });
      let pid = 0;
      try {
        await tier.ready();
        pid = Number(readFileSync(`${dataDir}.run/mariadbd.pid`, 'utf8'));
        expect(alive(pid)).toBe(true);
        const db = createClient({ targets: `127.0.0.1:${tier.grpcPort}`, callerDaemon: 'test' });
        if (round === 1) await db.createNode({ uuid, fqdn: 'embedded.example.com' });
        else expect((await db.getNode(uuid))?.fqdn).toBe('embedded.example.com');
        db.close();
      } finally {
        // Also when an expectation failed: no replica (and its mariadbd) outlives the test.
        tier.kill('SIGINT');
      }
      expect(await tier.exited).toEqual({ code: 0, signal: null });
      expect(alive(pid)).toBe(false);
      expect(existsSync(join(dataDir, 'mysql'))).toBe(true);
    }
  });

  it('when the tier fails to start, stops the embedded mariadbd it started (no child left)', async () => {
    const dataDir = join(dir, 'failing');
    // The gRPC port is taken: the tier's grpc step fails after MariaDB has started.
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as AddressInfo).port;
    try {
      const tier = spawnTier({ env: { SFDB_DATA_DIR: dataDir, SFDB_GRPC_PORT: String(port) } });
      const { code } = await tier.exited;
      expect(code).toBe(1);
      expect(tier.stderr() + tier.stdout()).toMatch(/cannot listen for gRPC/);
      // MariaDB had started (its data directory exists); no process of it is left.
      expect(existsSync(join(dataDir, 'mysql'))).toBe(true);
      expect(processesMentioning(dataDir)).toEqual([]);
    } finally {
      taken.close();
    }
  });

  it('is not taken from a replica that serves on it: sf-ctl backup refuses (exit 2), and backs it up through its port', async () => {
    const dataDir = join(dir, 'shared');
    const port = await freePort();
    const tier = spawnTier({ env: { SFDB_DATA_DIR: dataDir, SFDB_EMBEDDED_PORT: String(port) } });
    try {
      await tier.ready();
      const db = createClient({ targets: `127.0.0.1:${tier.grpcPort}`, callerDaemon: 'test' });
      const file = join(dir, 'embedded-backup.sql');
      const refused = await runCtl(['backup', file], { env: { SFDB_DATA_DIR: dataDir, SFDB_LOG_LEVEL: 'warn' } });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/^sf-database: the embedded MariaDB under .*shared is in use by process \d+/);
      // The replica's MariaDB was left alone: it still serves.
      await db.createNode({ uuid: randomUUID(), fqdn: `in-use-${randomUUID().slice(0, 8)}.example.com` });
      const taken = await runCtl(['backup', file], { env: { SFDB_DATABASE_URL: `mysql://root@127.0.0.1:${port}/sfdb`, SFDB_LOG_LEVEL: 'warn' } });
      expect(taken.code).toBe(0);
      expect(readFileSync(file, 'utf8')).toMatch(/^-- sf-database backup v1: database sfdb,/);
      db.close();
    } finally {
      tier.kill('SIGINT');
      await tier.exited;
    }
  });

  it('a start that fails after mariadbd answered stops that mariadbd (none left)', async () => {
    const dataDir = join(dir, 'half-started');
    // mariadbd comes up; creating the database then fails (a backtick ends the quoted name).
    await expect(EmbeddedMariaDb.start({ dataDir, database: 'bad`name' })).rejects.toThrow(/SQL syntax/);
    expect(existsSync(join(dataDir, 'mysql'))).toBe(true);
    expect(processesMentioning(dataDir)).toEqual([]);
  });

  it('without mariadbd, exits 2 with a one-line message naming the package', async () => {
    const empty = join(dir, 'no-binaries');
    mkdirSync(empty);
    const tier = spawnTier({ env: { SFDB_DATA_DIR: join(dir, 'never'), SFDB_MARIADB_BIN_DIR: empty } });
    const { code } = await tier.exited;
    expect(code).toBe(2);
    const lines = tier.stderr().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/mariadbd not found.*apt-get install -y mariadb-server/);
  });
});
