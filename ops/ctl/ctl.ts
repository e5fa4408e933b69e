// sf-ctl's dispatch: the global options, one module per command, help and exit codes.
// main.ts runs it on the process; tests run it with an Io of their own.
import { parseArgs } from 'node:util';
import { backupCommand, restoreCommand } from './archive.js';
import { auditCommand } from './audit.js';
import { CtlError, EXIT, GLOBAL_HELP, GLOBAL_OPTIONS, UsageError, flag, splitCommand, usageFromParseError } from './cli.js';
import type { Command, Io } from './cli.js';
import { loadCommand } from './load.js';
import { migrateCommand } from './migrate.js';
import { queueCommand } from './queue.js';
import { startDaemonCommand } from './start-daemon.js';
import { statusCommand } from './status.js';
import { stopDaemonCommand } from './stop-daemon.js';

export const COMMANDS: readonly Command[] = [statusCommand, loadCommand, auditCommand, queueCommand, stopDaemonCommand, startDaemonCommand, migrateCommand, backupCommand, restoreCommand];

export const MAIN_HELP = `usage: sf-ctl [--target host:port] <command> [options]

commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(13)} ${c.summary}`).join('\n')}

\`sf-ctl <command> --help\` says more. Calls go to one replica (--target), identify as caller
daemon sf-ctl, and each has a 5 s deadline; /metrics scrapes have a 5 s deadline too.
migrate, backup and restore talk to MariaDB (SFDB_DATABASE_URL), not to a replica.

${GLOBAL_HELP}

exit codes:
  0  done; for load: every pair within its budget
  1  load: a pair over its ceiling, or an unbudgeted daemon pair at a steady rate;
     stop-daemon: the daemon did not stop within --timeout; start-daemon: the daemon
     did not record RUNNING within --timeout, or was not held by an operator stop;
     queue item: no item with that id; a call the tier refused
  2  bad arguments (the message names the flag and the accepted form)
  3  a replica unreachable, a /metrics scrape failed, or a replica gone between scrapes
  (migrate, backup and restore exit with sf-database's own code: see their --help)
`;

/** Runs sf-ctl with `argv` (without node and the script); answers the exit code. */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  try {
    const { command: name, rest } = splitCommand(argv);
    if (name === undefined) {
      if (rest.includes('--help') || rest.includes('-h')) {
        io.out(MAIN_HELP);
        return EXIT.ok;
      }
      throw new UsageError(`a command is needed: ${COMMANDS.map((c) => c.name).join(', ')} (see sf-ctl --help)`);
    }
    const command = COMMANDS.find((c) => c.name === name);
    if (!command) throw new UsageError(`unknown command "${name}"; commands: ${COMMANDS.map((c) => c.name).join(', ')} (see sf-ctl --help)`);
    let parsed;
    try {
      parsed = parseArgs({ args: [...rest], options: { ...GLOBAL_OPTIONS, ...command.options }, allowPositionals: command.positionals ?? false, strict: true });
    } catch (err) {
      throw usageFromParseError(err, command.name);
    }
    if (flag(parsed.values, 'help')) {
      io.out(`${command.help}\n`);
      return EXIT.ok;
    }
    return await command.run(parsed, io);
  } catch (err) {
    const e = err instanceof CtlError ? err : new CtlError(((err as Error).message ?? String(err)).replace(/\s+/g, ' '), EXIT.failed);
    io.note(e.message);
    return e.exitCode;
  }
}
