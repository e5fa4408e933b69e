// Migrations: applied once under a lease even when replicas start together; a schema
// newer than this build is refused with a message that says what to do, unless every
// newer migration is marked additive (rolling upgrades and rollback).
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Database, createPool } from '../../server/db/pool.js';
import { createLogger } from '../../proto/runtime/log.js';
import { Metrics } from '../../server/metrics.js';
import { SchemaError, loadMigrations, migrate, migrationsDir, splitStatements, verifySchema } from '../../server/migrate.js';
import { spawnTier } from '../helpers/process.js';
import { createTestDatabase, dropTestDatabase, mariadbUrl } from '../helpers/tier.js';

const log = createLogger('silent');
const cleanup: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

async function freshDatabase(): Promise<{ name: string; db: Database; other: Database }> {
  const name = await createTestDatabase();
  const db = new Database(createPool({ url: mariadbUrl(name), connectionLimit: 4 }), new Metrics('test'));
  const other = new Database(createPool({ url: mariadbUrl(name), connectionLimit: 4 }), new Metrics('other'));
  cleanup.push(async () => {
    await db.close();
    await other.close();
    await dropTestDatabase(name);
  });
  return { name, db, other };
}

describe('migrations', () => {
  it('split statements at line-ending semicolons and skip comments', () => {
    expect(splitStatements('-- c\nCREATE TABLE a (x INT);\n\n-- d;\nCREATE TABLE b (y INT);\n')).toEqual([
      'CREATE TABLE a (x INT)',
      'CREATE TABLE b (y INT)',
    ]);
  });

  it('apply every file exactly once when two replicas migrate at the same time', async () => {
    const { db, other } = await freshDatabase();
    const [a, b] = await Promise.all([
      migrate(db.sql('migration'), { log, holder: 'replica-a', pollMs: 20 }),
      migrate(other.sql('migration'), { log, holder: 'replica-b', pollMs: 20 }),
    ]);
    const known = loadMigrations().map((m) => m.version);
    expect([...a, ...b].sort((x, y) => x - y)).toEqual(known);
    const rows = await db.sql('migration').rows<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
    expect(rows.map((r) => Number(r.version))).toEqual(known);
    // Running again applies nothing, and the lease is free.
    expect(await migrate(db.sql('migration'), { log })).toEqual([]);
    const lease = await db.sql('migration').rows<{ holder: string }>('SELECT holder FROM schema_migration_lease');
    expect(lease).toEqual([{ holder: '' }]);
    await expect(verifySchema(db.sql('migration'))).resolves.toBeUndefined();
  });

  it('refuse a database whose schema is newer, naming what to do', async () => {
    const { name, db } = await freshDatabase();
    await migrate(db.sql('migration'), { log });
    const next = loadMigrations().length + 1;
    await db.sql('migration').run(
      "INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (?, 'future', REPEAT('0', 64), UTC_TIMESTAMP(6))",
      [next],
    );
    await expect(migrate(db.sql('migration'), { log })).rejects.toThrow(SchemaError);
    await expect(verifySchema(db.sql('migration'))).rejects.toThrow(/schema is at version \d+.*knows migrations up to \d+ and \d+ is not additive.*newer sf-database/);

    // The server refuses to start, with the message and exit code 3.
    const tier = spawnTier({ env: { SFDB_DATABASE_URL: mariadbUrl(name) } });
    const { code } = await tier.exited;
    expect(code).toBe(3);
    expect(tier.stderr()).toContain(`schema is at version ${next}`);
  });

  it('serve a newer schema when every newer migration is additive (a rollback, or an old replica in a rolling upgrade)', async () => {
    const { name, db } = await freshDatabase();
    await migrate(db.sql('migration'), { log });
    const next = loadMigrations().length + 1;
    await db.sql('migration').run(
      "INSERT INTO schema_migrations (version, name, checksum, applied_at, additive) VALUES (?, 'future', REPEAT('0', 64), UTC_TIMESTAMP(6), 1)",
      [next],
    );
    expect(await migrate(db.sql('migration'), { log })).toEqual([]);
    await expect(verifySchema(db.sql('migration'))).resolves.toBeUndefined();
    const tier = spawnTier({ env: { SFDB_DATABASE_URL: mariadbUrl(name) } });
    cleanup.push(async () => {
      tier.kill();
      await tier.exited;
    });
    await tier.ready();
    expect(tier.stdout() + tier.stderr()).toContain('every newer migration is additive');
    // One more that is not: refused.
    await db.sql('migration').run(
      "INSERT INTO schema_migrations (version, name, checksum, applied_at, additive) VALUES (?, 'future2', REPEAT('0', 64), UTC_TIMESTAMP(6), 0)",
      [next + 1],
    );
    await expect(verifySchema(db.sql('migration'))).rejects.toThrow(`${next + 1} is not additive`);
  });

  it('read the additive mark from the files, keep it out of the checksum, and record it for a database made before it', async () => {
    const marks = new Map(loadMigrations().map((m) => [m.name, m.additive]));
    expect(marks.get('replica_metrics_address')).toBe(true);
    expect(marks.get('secret_fields')).toBe(false); // older releases would cache secrets
    const dir = mkdtempSync(join(tmpdir(), 'sfdb-migrations-'));
    cleanup.push(async () => rmSync(dir, { recursive: true, force: true }));
    const text = 'CREATE TABLE t (x INT);\n';
    writeFileSync(join(dir, '0001_plain.sql'), text);
    writeFileSync(join(dir, '0002_marked.sql'), `-- sfdb: additive\n${text}`);
    const [plain, marked] = loadMigrations(dir);
    expect([plain?.additive, marked?.additive]).toEqual([false, true]);
    expect(marked?.checksum).toBe(plain?.checksum);
    expect(plain?.checksum).toBe(createHash('sha256').update(text).digest('hex'));
    expect(readFileSync(join(migrationsDir(), '0003_replica_metrics_address.sql'), 'utf8')).toMatch(/^-- sfdb: additive/);

    // A database migrated before the mark existed: the column is added, the marks recorded.
    const { db } = await freshDatabase();
    await migrate(db.sql('migration'), { log });
    await db.sql('migration').unprepared('ALTER TABLE schema_migrations DROP COLUMN additive');
    await expect(verifySchema(db.sql('migration'))).rejects.toThrow(/sf-database migrate/);
    expect(await migrate(db.sql('migration'), { log })).toEqual([]);
    const rows = await db.sql('migration').rows<{ version: number; additive: number }>('SELECT version, additive FROM schema_migrations ORDER BY version');
    expect(rows.map((r) => [Number(r.version), Number(r.additive)])).toEqual(loadMigrations().map((m) => [m.version, m.additive ? 1 : 0]));
  });

  it('with migrations off, refuse a database that has pending migrations', async () => {
    const { name } = await freshDatabase();
    const tier = spawnTier({ env: { SFDB_DATABASE_URL: mariadbUrl(name), SFDB_MIGRATE: 'false' } });
    const { code } = await tier.exited;
    expect(code).toBe(3);
    expect(tier.stderr()).toContain('sf-database migrate');
  });

  describe('0011: node fqdns in one normal form', () => {
    const before = (): ReturnType<typeof loadMigrations> => loadMigrations().filter((m) => m.version < 11);
    const insert = (db: Database, uuid: string, fqdn: string): Promise<unknown> =>
      db.sql('migration').run("INSERT INTO nodes (uuid, fqdn, version, created_at, updated_at) VALUES (?, ?, 3, UTC_TIMESTAMP(6), UTC_TIMESTAMP(6))", [uuid, fqdn]);
    const nodes = async (db: Database): Promise<{ uuid: string; fqdn: string; version: string }[]> =>
      (await db.sql('migration').rows<{ uuid: string; fqdn: string; version: number | string }>('SELECT uuid, fqdn, version FROM nodes ORDER BY uuid')).map((r) => ({ ...r, version: String(r.version) }));
    const A = 'a0000000-0000-4000-8000-000000000001';
    const B = 'a0000000-0000-4000-8000-000000000002';
    const C = 'a0000000-0000-4000-8000-000000000003';

    it('rewrites rows stored in another form, bumping their version, and the table keeps to it', async () => {
      const { db } = await freshDatabase();
      await migrate(db.sql('migration'), { log, migrations: before() });
      await insert(db, A, 'Upper.Example');
      await insert(db, B, 'dot.example.');
      await insert(db, C, 'plain.example');
      expect(await migrate(db.sql('migration'), { log })).toEqual([11]);
      expect(await nodes(db)).toEqual([
        { uuid: A, fqdn: 'upper.example', version: '4' },
        { uuid: B, fqdn: 'dot.example', version: '4' },
        { uuid: C, fqdn: 'plain.example', version: '3' },
      ]);
      await expect(insert(db, randomUUID(), 'new.example.')).rejects.toThrow(/nodes_fqdn_normal/);
    });

    it('refuses, naming the nodes, and changes nothing when two rows are one fqdn in normal form', async () => {
      const { name, db } = await freshDatabase();
      await migrate(db.sql('migration'), { log, migrations: before() });
      await insert(db, A, 'case-x.example');
      await insert(db, B, 'Case-X.example.');
      await insert(db, C, 'Other.example');
      const stored = await nodes(db);
      const err = await migrate(db.sql('migration'), { log }).then(() => undefined, (e: unknown) => e);
      expect(err).toBeInstanceOf(SchemaError);
      expect((err as Error).message).toBe(
        'migration 11 (fqdn_normal_form) cannot be applied: node fqdns that are one in normal form (lower case, no trailing dot): ' +
          `case-x.example is ${A} "case-x.example" and ${B} "Case-X.example." - delete or rename all but one of each with the release before this one, then start this one again`,
      );
      expect(await nodes(db)).toEqual(stored);
      const applied = await db.sql('migration').rows<{ version: number }>('SELECT version FROM schema_migrations WHERE version = 11');
      expect(applied).toEqual([]);
      // A replica of this release refuses to start with that message: exit 3.
      const tier = spawnTier({ env: { SFDB_DATABASE_URL: mariadbUrl(name) } });
      expect((await tier.exited).code).toBe(3);
      expect(tier.stderr()).toContain('sf-database: migration 11 (fqdn_normal_form) cannot be applied: node fqdns that are one');
      // Made distinct, it applies.
      await db.sql('migration').run('DELETE FROM nodes WHERE uuid = ?', [B]);
      expect(await migrate(db.sql('migration'), { log })).toEqual([11]);
      expect((await nodes(db)).map((n) => n.fqdn)).toEqual(['case-x.example', 'other.example']);
    });
  });
});
