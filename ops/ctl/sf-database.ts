// Runs an `sf-database` subcommand (migrate, backup, restore) in its own process — ops
// tools never import the server — with sf-ctl's environment, forwarding its output and
// answering its exit code.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { CtlError, EXIT, UsageError } from './cli.js';
import type { Io, Values } from './cli.js';
import { sfDatabaseCommand } from './paths.js';

/** migrate, backup and restore talk to MariaDB, not to a replica: the read options do not apply. */
export function refuseReplicaOptions(command: string, values: Values): void {
  for (const name of ['target', 'json']) {
    if (values[name] !== undefined) throw new UsageError(`${command}: --${name} does not apply (it talks to MariaDB, not to a replica); see sf-ctl ${command} --help`);
  }
}

export async function runSfDatabase(args: string[], io: Io): Promise<number> {
  const { file, args: nodeArgs } = sfDatabaseCommand();
  if (!existsSync(file)) throw new CtlError(`cannot find sf-database at ${file} (run npm run build, or sf-ctl from a checkout)`, EXIT.failed);
  const child = spawn(process.execPath, [...nodeArgs, ...args], { env: io.env, stdio: 'inherit' });
  return new Promise<number>((resolve, reject) => {
    child.once('error', (err) => reject(new CtlError(`cannot start sf-database (${err.message})`, EXIT.failed)));
    child.once('exit', (code, signal) => resolve(code ?? (signal ? EXIT.failed : EXIT.ok)));
  });
}
