// What backup and restore refuse, each with its exit code and one line, touching nothing:
// a backup over an existing file (2) or of a database without the schema (1); a restore
// not confirmed (2), of a file that is not a backup (2), while a replica is live in the
// database (4), or of a backup from a newer release (3). A backup taken while the replica
// serves is fine.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseClient } from '../../client/index.js';
import { childEnv, spawnTs } from '../../harness/children.js';
import { runCtl } from '../helpers/sf-ctl.js';
import { createTestDatabase, dropTestDatabase, mariadbUrl, startTestTier } from '../helpers/tier.js';
import type { TestTier } from '../helpers/tier.js';

const dir = mkdtempSync(join(tmpdir(), 'sfdb-restore-refusals-'));
let database: string;
let env: Record<string, string>;
let t: TestTier | undefined;
let db: DatabaseClient;
/** A backup of `database`, taken while its replica served. */
const good = join(dir, 'good.sql');

beforeAll(async () => {
  database = await createTestDatabase();
  env = { SFDB_DATABASE_URL: mariadbUrl(database), SFDB_LOG_LEVEL: 'warn' };
  t = await startTestTier({ database });
  db = t.client({ feed: false, cache: false, maxAttempts: 1 });
  await db.acquireLease('refusals/kept', 'holder', 3_600_000);
  const r = await runCtl(['backup', good], { env });
  expect(r.code).toBe(0);
}, 60_000);

afterAll(async () => {
  await t?.stop();
  if (database) await dropTestDatabase(database);
  rmSync(dir, { recursive: true, force: true });
});

/** The lease made in beforeAll, as the database holds it now (untouched by a refused restore). */
async function kept(conn: mysql.Connection): Promise<unknown> {
  const [rows] = await conn.query<mysql.RowDataPacket[]>("SELECT holder, token FROM leases WHERE name = 'refusals/kept'");
  return rows[0];
}

async function databasesLike(pattern: string): Promise<string[]> {
  const conn = await mysql.createConnection({ uri: mariadbUrl(database) });
  try {
    const [rows] = await conn.query<mysql.RowDataPacket[]>('SELECT SCHEMA_NAME AS name FROM information_schema.SCHEMATA WHERE SCHEMA_NAME LIKE ?', [pattern]);
    return rows.map((r) => (r as { name: string }).name);
  } finally {
    await conn.end();
  }
}

describe('sf-ctl backup refuses', () => {
  it('a file that exists, exit 2, and leaves it as it was', async () => {
    const existing = join(dir, 'existing.sql');
    writeFileSync(existing, 'precious\n');
    const r = await runCtl(['backup', existing], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`sf-database: ${existing} exists: a backup never overwrites a file; name a new one\n`);
    expect(readFileSync(existing, 'utf8')).toBe('precious\n');
  });

  it('a database without the schema, exit 1', async () => {
    const empty = await createTestDatabase();
    try {
      const r = await runCtl(['backup', join(dir, 'empty.sql')], { env: { ...env, SFDB_DATABASE_URL: mariadbUrl(empty) } });
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(`sf-database: database ${empty} holds no sf-database schema: nothing to back up\n`);
    } finally {
      await dropTestDatabase(empty);
    }
  });
});

describe('restore refuses, touching nothing', () => {
  it('without --yes, exit 2 (sf-ctl and sf-database alike)', async () => {
    const r = await runCtl(['restore', good], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^sf-ctl: restore: replaces every table of the database with the backup: stop every replica, then add --yes/);
    const direct = spawnTs('server/main.ts', ['restore', good], { env: childEnv(env), stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    direct.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    expect(await new Promise((res) => direct.once('close', res))).toBe(2);
    expect(stderr).toMatch(/^sf-database: restore replaces every table of the database with the backup .* run it again with --yes\n$/);
  });

  it('a file that is not a backup, exit 2', async () => {
    const other = join(dir, 'other.sql');
    writeFileSync(other, 'DROP TABLE leases;\n');
    const r = await runCtl(['restore', other, '--yes'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`sf-database: ${other} is not a backup made by sf-database backup (its first line is not "-- sf-database backup v1…")\n`);
    expect(await kept(t!.direct)).toEqual({ holder: 'holder', token: '1' });
  });

  it('while a replica is live in the database, exit 4, naming it', async () => {
    const r = await runCtl(['restore', good, '--yes'], { env });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain(`1 replica(s) are live in database ${database}: ${t!.config.replicaId}`);
    expect(r.stderr).toContain('Stop every replica first');
    expect(await kept(t!.direct)).toEqual({ holder: 'holder', token: '1' });
  });

  it('a backup from a newer release, exit 3, and the staging database is gone', async () => {
    const newer = join(dir, 'newer.sql');
    await t!.direct.query(
      "INSERT INTO schema_migrations (version, name, checksum, applied_at, additive) VALUES (999, 'future', REPEAT('0', 64), UTC_TIMESTAMP(6), 0)",
    );
    try {
      expect((await runCtl(['backup', newer], { env })).code).toBe(0);
    } finally {
      await t!.direct.query('DELETE FROM schema_migrations WHERE version = 999');
    }
    await t!.stop();
    t = undefined;
    const conn = await mysql.createConnection({ uri: mariadbUrl(database), supportBigNumbers: true, bigNumberStrings: true });
    try {
      const r = await runCtl(['restore', newer, '--yes'], { env });
      expect(r.code).toBe(3);
      expect(r.stderr).toMatch(/^sf-database: the backup cannot be used by this release: the database schema is at version 999/);
      expect(await kept(conn)).toEqual({ holder: 'holder', token: '1' });
      expect(await databasesLike(`${database}\\_\\_%`)).toEqual([]);
    } finally {
      await conn.end();
    }
  });

  it('nothing once the replica is stopped: the backup taken while it served restores', async () => {
    const r = await runCtl(['restore', good, '--yes'], { env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const conn = await mysql.createConnection({ uri: mariadbUrl(database), supportBigNumbers: true, bigNumberStrings: true });
    try {
      const lease = (await kept(conn)) as { holder: string; token: string };
      expect(lease.holder).toBe('');
      expect(BigInt(lease.token)).toBeGreaterThan(1_000_000_000n);
      expect(await databasesLike(`${database}\\_\\_%`)).toEqual([]);
    } finally {
      await conn.end();
    }
  });
});
