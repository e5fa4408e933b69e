// `sf-ctl migrate`: runs `sf-database migrate` (the server's own migration runner, in its
// own process: ops tools never import the server) with the same environment, forwarding
// its output and its exit code.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { CtlError, EXIT, UsageError } from './cli.js';
import type { Command, Io, Parsed } from './cli.js';
import { sfDatabaseCommand } from './paths.js';

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
  for (const name of ['target', 'json']) {
    if (values[name] !== undefined) throw new UsageError(`migrate: --${name} does not apply (it talks to MariaDB, not to a replica); see sf-ctl migrate --help`);
  }
  const { file, args } = sfDatabaseCommand();
  if (!existsSync(file)) throw new CtlError(`cannot find sf-database at ${file} (run npm run build, or sf-ctl from a checkout)`, EXIT.failed);
  const child = spawn(process.execPath, [...args, 'migrate', ...positionals], { env: io.env, stdio: 'inherit' });
  return new Promise<number>((resolve, reject) => {
    child.once('error', (err) => reject(new CtlError(`cannot start sf-database (${err.message})`, EXIT.failed)));
    child.once('exit', (code, signal) => resolve(code ?? (signal ? EXIT.failed : EXIT.ok)));
  });
}

export const migrateCommand: Command = {
  name: 'migrate',
  summary: 'apply pending migrations (sf-database migrate), then exit',
  help: HELP,
  options: {},
  positionals: true,
  run,
};
