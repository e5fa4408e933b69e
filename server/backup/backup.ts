// `sf-database backup FILE`: one consistent snapshot of the database, taken while replicas
// serve. mariadb-dump --single-transaction reads every table in one InnoDB snapshot (every
// table is InnoDB), takes no table locks, and so neither blocks nor is blocked by the
// tier's writes; only DDL (a migration) must not run meanwhile. The file is plain SQL
// behind one header line that says what it is; it appears under its name only once it is
// whole.
import { existsSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Sql } from '../db/sql.js';
import { schemaVersion } from './queries.js';
import { ARCHIVE_EXIT, ArchiveError, addressOf, clientTool, runTool, withOptionFile } from './tools.js';

/** The first line of every backup: `restore` refuses a file without it. */
export const BACKUP_HEADER = '-- sf-database backup v1';

export interface BackupResult {
  file: string;
  bytes: number;
  schemaVersion: number;
}

/**
 * Writes a backup of the database of `url` to `file` (which must not exist). `sql` is a
 * connection to the same database (for its schema version).
 */
export async function backup(opts: { url: string; sql: Sql; file: string; binDir: string | undefined }): Promise<BackupResult> {
  const { file } = opts;
  if (existsSync(file)) throw new ArchiveError(`${file} exists: a backup never overwrites a file; name a new one`, ARCHIVE_EXIT.usage);
  if (!existsSync(dirname(file))) throw new ArchiveError(`${dirname(file)}: no such directory`, ARCHIVE_EXIT.usage);
  const dump = clientTool('mariadb-dump', opts.binDir);
  const server = addressOf(opts.url);
  const version = await schemaVersion(opts.sql);
  if (version === undefined) throw new ArchiveError(`database ${server.database} holds no sf-database schema: nothing to back up`, ARCHIVE_EXIT.failed);

  const partial = join(dirname(file), `.${basename(file)}.partial-${process.pid}`);
  writeFileSync(partial, `${BACKUP_HEADER}: database ${server.database}, schema ${version}, taken ${new Date().toISOString()}\n`, { flag: 'wx', mode: 0o600 });
  try {
    await withOptionFile(server, (options) =>
      runTool(
        dump,
        [
          // The option file must come first.
          `--defaults-extra-file=${options}`,
          // One consistent InnoDB snapshot, no table locks (replicas keep serving).
          '--single-transaction',
          '--skip-lock-tables',
          '--skip-add-locks',
          // Rows streamed, not buffered; binary-safe; no privileges beyond the database's.
          '--quick',
          '--hex-blob',
          '--no-tablespaces',
          '--default-character-set=utf8mb4',
          // The tables of this one database: no CREATE DATABASE or USE, so restore loads it where it chooses.
          server.database,
        ],
        { stdoutFile: partial, what: 'mariadb-dump' },
      ),
    );
    renameSync(partial, file);
  } catch (err) {
    rmSync(partial, { force: true });
    throw err;
  }
  return { file, bytes: statSync(file).size, schemaVersion: version };
}
