// Forward-only migrations: numbered .sql files in migrations/, applied in order while
// holding a lease row (not GET_LOCK, which dies with pooled connections and is refused
// under Galera), each recorded in schema_migrations. Two replicas starting at once:
// one applies, the other waits for the lease and then finds nothing pending.
//
// Rolling upgrades and rollback: a migration whose file has the line `-- sfdb: additive`
// leaves the schema usable by releases that do not know it (a new table, a column with a
// default that older code may ignore). The mark is recorded in schema_migrations with the
// migration, so an older release can read it: it serves against a schema newer than it
// knows when every newer migration is additive, and refuses otherwise. `-- sfdb:` lines
// say why and are not part of the checksum (a mark added later changes no checksum).
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Sql } from './db/sql.js';
import type { Logger } from '@sfdb/proto/runtime/log';

export interface Migration {
  version: number;
  name: string;
  statements: string[];
  checksum: string;
  /** Releases that do not know this migration still run against a schema that has it. */
  additive: boolean;
}

const MARK = /^--\s*sfdb:/;
const ADDITIVE = /^--\s*sfdb:\s*additive\b/;

export class SchemaError extends Error {
  override name = 'SchemaError';
}

/** migrations/ beside the source tree, or two levels up from dist/server. */
export function migrationsDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  for (const candidate of [join(here, '..', 'migrations'), join(here, '..', '..', 'migrations')]) {
    if (existsSync(candidate)) return candidate;
  }
  throw new Error(`cannot find migrations/ near ${here}`);
}

/** Splits a file into statements: `;` at the end of a line ends one; `--` lines are comments. */
export function splitStatements(text: string): string[] {
  const withoutComments = text
    .split('\n')
    .filter((line) => !line.trim().startsWith('--'))
    .join('\n');
  return withoutComments
    .split(/;\s*$/m)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

export function loadMigrations(dir: string = migrationsDir()): Migration[] {
  const migrations = readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .map((file) => {
      const match = /^(\d{4})_([a-z0-9_]+)\.sql$/.exec(file);
      if (!match) throw new Error(`migration file ${file} is not named NNNN_name.sql`);
      const text = readFileSync(join(dir, file), 'utf8');
      const lines = text.split('\n');
      const unmarked = lines.filter((line) => !MARK.test(line.trim())).join('\n');
      return {
        version: Number(match[1]),
        name: match[2] as string,
        statements: splitStatements(text),
        checksum: createHash('sha256').update(unmarked).digest('hex'),
        additive: lines.some((line) => ADDITIVE.test(line.trim())),
      };
    })
    .sort((a, b) => a.version - b.version);
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`migrations must be numbered 1, 2, 3…; found ${m.version} at position ${i + 1}`);
  });
  return migrations;
}

const BOOKKEEPING = [
  `CREATE TABLE IF NOT EXISTS schema_migrations (
     version INT UNSIGNED NOT NULL PRIMARY KEY,
     name VARCHAR(128) NOT NULL,
     checksum CHAR(64) NOT NULL,
     applied_at DATETIME(6) NOT NULL
   ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4`,
  `CREATE TABLE IF NOT EXISTS schema_migration_lease (
     id TINYINT UNSIGNED NOT NULL PRIMARY KEY,
     holder VARCHAR(128) NOT NULL,
     expires_at DATETIME(6) NOT NULL
   ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4`,
  `INSERT IGNORE INTO schema_migration_lease (id, holder, expires_at) VALUES (1, '', UTC_TIMESTAMP(6))`,
  // Since the additive mark: a database made before it gets the column (all 0 until a
  // release that knows the files records their marks).
  `ALTER TABLE schema_migrations ADD COLUMN IF NOT EXISTS additive TINYINT(1) NOT NULL DEFAULT 0`,
];

interface Applied {
  checksum: string;
  additive: boolean;
}

const LEASE_MS = 60_000;

async function appliedVersions(sql: Sql): Promise<Map<number, Applied>> {
  const rows = await sql.rows<{ version: number; checksum: string; additive: number | string }>('SELECT version, checksum, additive FROM schema_migrations');
  return new Map(rows.map((r) => [Number(r.version), { checksum: r.checksum, additive: Number(r.additive) === 1 }]));
}

async function tryLease(sql: Sql, holder: string): Promise<boolean> {
  const r = await sql.run(
    `UPDATE schema_migration_lease SET holder = ?, expires_at = UTC_TIMESTAMP(6) + INTERVAL ? SECOND
     WHERE id = 1 AND (holder = '' OR holder = ? OR expires_at < UTC_TIMESTAMP(6))`,
    [holder, LEASE_MS / 1000, holder],
  );
  return r.affectedRows === 1;
}

async function releaseLease(sql: Sql, holder: string): Promise<void> {
  await sql.run(`UPDATE schema_migration_lease SET holder = '', expires_at = UTC_TIMESTAMP(6) WHERE id = 1 AND holder = ?`, [holder]);
}

/**
 * Refuses a database whose schema is newer than the migrations this build knows, unless
 * every newer migration is additive (then it logs that it serves a newer schema).
 */
function refuseNewer(applied: Map<number, Applied>, known: Migration[], log?: Logger): void {
  const newer = [...applied].filter(([version]) => version > known.length).sort(([a], [b]) => a - b);
  if (newer.length === 0) return;
  const newest = (newer[newer.length - 1] as [number, Applied])[0];
  const breaking = newer.filter(([, a]) => !a.additive).map(([version]) => version);
  if (breaking.length > 0) {
    throw new SchemaError(
      `the database schema is at version ${newest}, but this sf-database knows migrations up to ${known.length} ` +
        `and ${breaking.join(', ')} ${breaking.length === 1 ? 'is' : 'are'} not additive: ` +
        'run a newer sf-database release against this database (or point SFDB_DATABASE_URL at the right one); ' +
        'migrations are forward-only and are never undone',
    );
  }
  log?.warn(
    { schemaVersion: newest, knownVersion: known.length },
    'the database schema is newer than this release; every newer migration is additive, so this release serves it',
  );
}

/** Records the additive mark of applied migrations whose row does not have it yet (a database made before the mark). */
async function recordMarks(sql: Sql, applied: Map<number, Applied>, known: Migration[]): Promise<void> {
  for (const m of known) {
    const a = applied.get(m.version);
    if (a !== undefined && a.additive !== m.additive) {
      await sql.run('UPDATE schema_migrations SET additive = ? WHERE version = ?', [m.additive ? 1 : 0, m.version]);
    }
  }
}

/** ER_SIGNAL_EXCEPTION: a migration's SIGNAL SQLSTATE '45000', its refusal of data an operator must fix first. */
const ER_SIGNAL_EXCEPTION = 1644;

async function applyStatement(sql: Sql, m: Migration, statement: string): Promise<void> {
  try {
    await sql.unprepared(statement);
  } catch (err) {
    if ((err as { errno?: number }).errno !== ER_SIGNAL_EXCEPTION) throw err;
    throw new SchemaError(`migration ${m.version} (${m.name}) cannot be applied: ${(err as Error).message}`);
  }
}

/**
 * Applies every pending migration; startup only, never periodic. `pollMs` is how often a
 * waiting replica retries the lease while another applies.
 */
export async function migrate(
  sql: Sql,
  opts: { log: Logger; holder?: string; migrations?: Migration[]; pollMs?: number },
): Promise<number[]> {
  const known = opts.migrations ?? loadMigrations();
  const holder = opts.holder ?? `migrate-${randomUUID()}`;
  for (const statement of BOOKKEEPING) await sql.unprepared(statement);

  refuseNewer(await appliedVersions(sql), known);
  while (!(await tryLease(sql, holder))) {
    opts.log.info('another process holds the migration lease; waiting');
    await new Promise((r) => setTimeout(r, opts.pollMs ?? 500));
  }
  const appliedNow: number[] = [];
  try {
    const applied = await appliedVersions(sql);
    refuseNewer(applied, known, opts.log);
    await recordMarks(sql, applied, known);
    for (const m of known) {
      const checksum = applied.get(m.version)?.checksum;
      if (checksum !== undefined) {
        if (checksum !== m.checksum) opts.log.warn({ version: m.version }, 'an applied migration file has changed since it was applied');
        continue;
      }
      opts.log.info({ version: m.version, name: m.name }, 'applying migration');
      for (const statement of m.statements) await applyStatement(sql, m, statement);
      await sql.run(
        'INSERT INTO schema_migrations (version, name, checksum, applied_at, additive) VALUES (?, ?, ?, UTC_TIMESTAMP(6), ?)',
        [m.version, m.name, m.checksum, m.additive ? 1 : 0],
      );
      appliedNow.push(m.version);
      if (!(await tryLease(sql, holder))) throw new SchemaError('lost the migration lease while applying migrations');
    }
  } finally {
    await releaseLease(sql, holder);
  }
  return appliedNow;
}

/** For a server started with migrations off: nothing pending, and nothing newer that is not additive. */
export async function verifySchema(sql: Sql, migrations: Migration[] = loadMigrations(), log?: Logger): Promise<void> {
  let applied: Map<number, Applied>;
  try {
    applied = await appliedVersions(sql);
  } catch (err) {
    // 1146: no schema_migrations; 1054: made before the additive mark, never migrated since.
    if ((err as { errno?: number }).errno === 1054) throw new SchemaError('the database schema predates this release: run `sf-database migrate`');
    if ((err as { errno?: number }).errno === 1146) {
      throw new SchemaError('the database has no sf-database schema: run `sf-database migrate` (or start without --no-migrate)');
    }
    throw err;
  }
  refuseNewer(applied, migrations, log);
  const pending = migrations.filter((m) => !applied.has(m.version));
  if (pending.length > 0) {
    throw new SchemaError(
      `${pending.length} migration(s) pending (${pending.map((m) => m.version).join(', ')}): run \`sf-database migrate\``,
    );
  }
}
