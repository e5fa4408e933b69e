// `sf-ctl migrate`: runs `sf-database migrate` (the server's own migration runner, in its
// own process: ops tools never import the server) with the same environment, forwarding
// its output and its exit code.
import type { Command, Io, Parsed } from './cli.js';
import { refuseReplicaOptions, runSfDatabase } from './sf-database.js';

const HELP = `usage: sf-ctl migrate [-- sf-database flags…]

Applies pending migrations (migrations/NNNN_*.sql) and exits: runs \`sf-database migrate\`
(dist/server/main.js beside a built sf-ctl; server/main.ts under tsx from a checkout) with
this environment, forwarding its output and exit code. Migrations are applied under the
schema_migration_lease, so it is safe beside running replicas.

It needs SFDB_DATABASE_URL (mysql://user:pass@host:3306/sfdb), or flags after \`--\` such as
\`-- --database-url …\`; without either it uses the embedded default (the MariaDB under
SFDB_DATA_DIR, .data/mariadb), starting it for the run.

exit: sf-database's: 0 applied or current, 2 bad configuration or no mariadbd, 3 schema
      newer than this version; 1 when sf-database could not be started

global options: -h, --help   this help`;

async function run({ values, positionals }: Parsed, io: Io): Promise<number> {
  refuseReplicaOptions('migrate', values);
  return runSfDatabase(['migrate', ...positionals], io);
}

export const migrateCommand: Command = {
  name: 'migrate',
  summary: 'apply pending migrations (sf-database migrate), then exit',
  help: HELP,
  options: {},
  positionals: true,
  run,
};
