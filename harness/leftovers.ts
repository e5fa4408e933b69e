// What a killed run (SIGKILL: no handler runs) leaves behind: its temporary directory,
// in it a mariadbd (started detached, so it outlives its parent), and its children
// (replicas, simulators, load clients, a replica's embedded mariadbd). The directory and
// its mariadbd are reaped as sf-database/testing reaps its own (server/testing/temp-dir.ts);
// the harness adds the children: every one carries its owner in its environment
// (childEnv), and those of a dead owner are killed first. A directory whose owner lives (a
// concurrent run) is left alone.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readPid, reapDeadRuns as reapRuns } from '../server/testing/temp-dir.js';
import { OWNER_VARIABLE, kill } from './children.js';

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

/** Kills (SIGKILL: nothing of theirs is kept) the children a dead `owner` left; says which. */
export function killChildrenOf(_dir: string, owner: number): string | undefined {
  const tag = `${OWNER_VARIABLE}=${owner}`;
  const children = processesWhose('environ', (vars) => vars.includes(tag));
  for (const pid of children) kill(pid, 'SIGKILL');
  return children.length > 0 ? `killing pids ${children.join(', ')}` : undefined;
}

/**
 * Stops what the dead runs of `prefix` (directories under the system's temporary
 * directory) left: their children at once, their mariadbd cleanly, then removes the
 * directories. Returns those removed.
 */
export function reapDeadRuns(prefix: string, say: (message: string) => void = () => {}): Promise<string[]> {
  return reapRuns(prefix, { say, onDeadRun: killChildrenOf });
}
