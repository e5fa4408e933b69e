// `sf-ctl backup` and `sf-ctl restore`: run `sf-database backup|restore` (server/backup/,
// in its own process: ops tools never import the server) with this environment,
// forwarding its output and its exit code.
import { resolve } from 'node:path';
import { UsageError, flag, str } from './cli.js';
import type { Command, Io, Parsed } from './cli.js';
import { refuseReplicaOptions, runSfDatabase } from './sf-database.js';

const DATABASE = `It needs SFDB_DATABASE_URL (mysql://user:pass@host:3306/sfdb), or flags after \`--\` such as
\`-- --database-url …\`; without either it uses the embedded default (the MariaDB under
SFDB_DATA_DIR, .data/mariadb), starting it for the run. The MariaDB client tools come with
mariadb-server (Debian's mariadb-client package).`;

const BACKUP_HELP = `usage: sf-ctl backup FILE [-- sf-database flags…]

Writes a backup of the database to FILE (which must not exist): \`sf-database backup\`, which
runs mariadb-dump --single-transaction — one consistent InnoDB snapshot without table locks,
so replicas keep serving meanwhile (do not run a migration at the same time). FILE is plain
SQL behind a header line; it appears under its name only once it is whole.

${DATABASE}

exit: 0 written; 1 mariadb-dump failed, or the database holds no sf-database schema;
      2 FILE exists, its directory does not, mariadb-dump is missing, or bad configuration

global options: -h, --help   this help`;

const RESTORE_HELP = `usage: sf-ctl restore FILE --yes [--bump N] [-- sf-database flags…]

Replaces every table of the database with the backup in FILE (\`sf-database restore\`), then
puts every counter above anything the cluster before the restore can have issued: no lease
token, claim epoch, version or change sequence from before is issued again, every lease and
claim of the backup ends, and every change cursor from before answers resync.

Stop every replica first: the restore refuses while one is live in the database (exit 4).
Then start them again. The backup is loaded into a staging database <db>__restore and
migrated to this release; only then is it swapped in, in one RENAME TABLE. The MariaDB
account needs to create and drop databases.

  --yes      required: the database's current contents are replaced and not kept
  --bump N   the counters continue at least N past the backup's highest (default
             1000000000): it must exceed how many values any one counter was issued after
             the backup was taken, should the database restored over be lost (the
             restore also uses the replaced database's own counters, and the clock)

${DATABASE}

exit: 0 restored; 1 failed (nothing replaced unless it says so); 2 not confirmed, FILE is not
      a backup, a tool is missing, or bad configuration; 3 the backup is of a newer release;
      4 live replicas in the database

global options: -h, --help   this help`;

/** FILE, then anything after `--` for sf-database. */
function fileAndRest(command: string, positionals: string[]): { file: string; rest: string[] } {
  const [file, ...rest] = positionals;
  if (file === undefined || file.startsWith('-')) throw new UsageError(`${command}: FILE is needed: sf-ctl ${command} FILE (see sf-ctl ${command} --help)`);
  return { file: resolve(file), rest };
}

export const backupCommand: Command = {
  name: 'backup',
  summary: 'write a consistent backup of the database to FILE, replicas serving',
  help: BACKUP_HELP,
  options: {},
  positionals: true,
  async run({ values, positionals }: Parsed, io: Io): Promise<number> {
    refuseReplicaOptions('backup', values);
    const { file, rest } = fileAndRest('backup', positionals);
    return runSfDatabase(['backup', file, ...rest], io);
  },
};

export const restoreCommand: Command = {
  name: 'restore',
  summary: 'replace the database with a backup; counters continue above the old ones',
  help: RESTORE_HELP,
  options: { yes: { type: 'boolean' }, bump: { type: 'string' } },
  positionals: true,
  async run({ values, positionals }: Parsed, io: Io): Promise<number> {
    refuseReplicaOptions('restore', values);
    const { file, rest } = fileAndRest('restore', positionals);
    const bump = str(values, 'bump');
    if (bump !== undefined && (!/^\d{1,18}$/.test(bump) || BigInt(bump) < 1n)) {
      throw new UsageError(`--bump: "${bump}" is not a whole number from 1 to 999999999999999999`);
    }
    if (!flag(values, 'yes')) {
      throw new UsageError('restore: replaces every table of the database with the backup: stop every replica, then add --yes (see sf-ctl restore --help)');
    }
    return runSfDatabase(['restore', file, '--yes', ...(bump !== undefined ? ['--bump', bump] : []), ...rest], io);
  },
};
