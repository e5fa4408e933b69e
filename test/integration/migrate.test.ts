// Migrations: applied once under a lease even when replicas start together; a schema
// newer than this build is refused with a message that says what to do.
import { afterEach, describe, expect, it } from 'vitest';
import { Database, createPool } from '../../server/db/pool.js';
import { createLogger } from '../../server/log.js';
import { Metrics } from '../../server/metrics.js';
import { SchemaError, loadMigrations, migrate, splitStatements, verifySchema } from '../../server/migrate.js';
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
    expect([...a, ...b].sort()).toEqual(known);
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
    await expect(verifySchema(db.sql('migration'))).rejects.toThrow(/schema is at version \d+.*knows migrations up to \d+.*newer sf-database/);

    // The server refuses to start, with the message and exit code 3.
    const tier = await spawnTier({ env: { SFDB_DATABASE_URL: mariadbUrl(name) } });
    const { code } = await tier.exited;
    expect(code).toBe(3);
    expect(tier.stderr()).toContain(`schema is at version ${next}`);
  });

  it('with migrations off, refuse a database that has pending migrations', async () => {
    const { name } = await freshDatabase();
    const tier = await spawnTier({ env: { SFDB_DATABASE_URL: mariadbUrl(name), SFDB_MIGRATE: 'false' } });
    const { code } = await tier.exited;
    expect(code).toBe(3);
    expect(tier.stderr()).toContain('sf-database migrate');
  });
});
