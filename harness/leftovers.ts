// What a killed run (SIGKILL: no handler runs) leaves behind: its temporary directory,
// in it a mariadbd (started detached, so it outlives its parent), and its children
// (replicas, simulators, load clients, a replica's embedded mariadbd). A run's directory
// names its owner (owner.pid, written by TempDir; a private MariaDB writes its own
// `*.run/owner.pid`), and every child carries the owner in its environment (childEnv).
// The next run of the kind stops the processes of directories whose owner is dead and
// removes the directories; a directory whose owner lives (a concurrent run) is left alone.
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isAlive, reapOrphans } from '../server/embedded/mariadb.js';
import { OWNER_VARIABLE, kill } from './children.js';

const OWNER_FILE = 'owner.pid';

function readPid(path: string): number | undefined {
  if (!existsSync(path)) return undefined;
  const pid = Number(readFileSync(path, 'utf8').trim());
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/** Marks `dir` as this process's: a later run reaps it once we are dead. */
export function recordOwner(dir: string): void {
  writeFileSync(join(dir, OWNER_FILE), `${process.pid}\n`);
}

/** The owner of a run directory: its owner.pid, else its private MariaDB's; undefined when neither is there. */
function ownerOf(dir: string): number | undefined {
  const own = readPid(join(dir, OWNER_FILE));
  if (own !== undefined) return own;
  try {
    for (const entry of readdirSync(dir)) {
      if (entry.endsWith('.run')) return readPid(join(dir, entry, OWNER_FILE));
    }
  } catch {
    // not a directory, or gone meanwhile
  }
  return undefined;
}

/** Pids (other than ours) whose /proc/<pid>/<file> satisfies `test` (cmdline and environ are NUL-separated). */
function processesWhose(file: 'cmdline' | 'environ', test: (entries: string[]) => boolean): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (test(readFileSync(`/proc/${entry}/${file}`, 'utf8').split('\0'))) pids.push(Number(entry));
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return pids;
}

/** Pids whose command line mentions `needle` (tests that check nothing was left behind). */
export function processesMentioning(needle: string): number[] {
  return processesWhose('cmdline', (args) => args.some((a) => a.includes(needle)));
}

/** The mariadbd of run directory `dir` if it is still running (a start interrupted before it answered). */
export function strayMariaDb(dir: string): number | undefined {
  const pid = readPid(join(dir, 'data.run', 'mariadbd.pid'));
  if (pid === undefined) return undefined;
  try {
    // Its command line names the directory: not a reused pid.
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(dir) ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Stops what the dead runs of `prefix` (directories under the system's temporary
 * directory) left: their children at once (SIGKILL: nothing of theirs is kept), their
 * mariadbd cleanly (reapOrphans), then removes the directories. Returns those removed.
 */
export async function reapDeadRuns(prefix: string, say: (message: string) => void = () => {}): Promise<string[]> {
  const base = tmpdir();
  const dead: string[] = [];
  for (const name of readdirSync(base)) {
    if (!name.startsWith(prefix)) continue;
    const dir = join(base, name);
    const owner = ownerOf(dir);
    if (owner === undefined || isAlive(owner)) continue;
    dead.push(dir);
    const tag = `${OWNER_VARIABLE}=${owner}`;
    const children = processesWhose('environ', (vars) => vars.includes(tag));
    say(`removing ${dir}, left by a killed run${children.length > 0 ? ` (killing pids ${children.join(', ')})` : ''}`);
    for (const pid of children) kill(pid, 'SIGKILL');
  }
  if (dead.length === 0) return dead;
  await reapOrphans(base, prefix);
  for (const dir of dead) rmSync(dir, { recursive: true, force: true });
  return dead;
}
