// What a killed run (SIGKILL: no handler runs) leaves behind: its temporary directory,
// and in it a mariadbd (started detached, so it outlives its parent) and maybe the tier.
// Each run writes its own pid and the tier's into its directory; the next run stops the
// processes of directories whose owner is dead and removes them. A directory without an
// owner file, or whose owner is alive (a concurrent run), is left alone.
import { isAlive } from '../../server/embedded/mariadb.js';
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const DIR_PREFIX = 'sfdb-bench-cache-';
const OWNER = 'owner.pid';
const TIER = 'tier.pid';


function readPid(path: string): number | undefined {
  if (!existsSync(path)) return undefined;
  const pid = Number(readFileSync(path, 'utf8').trim());
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/** True when `pid` is alive and its command line (or environment) mentions `needle`: not a reused pid. */
function runs(pid: number, needle: string, what: 'cmdline' | 'environ' = 'cmdline'): boolean {
  try {
    return isAlive(pid) && readFileSync(`/proc/${pid}/${what}`, 'utf8').includes(needle);
  } catch {
    return false;
  }
}

/** The tier's replica id: names the run that started it. */
export function tierReplicaId(owner: number = process.pid): string {
  return `bench-cache-${owner}`;
}

export function recordOwner(dir: string): void {
  writeFileSync(join(dir, OWNER), `${process.pid}\n`);
}

export function recordTier(dir: string, pid: number): void {
  writeFileSync(join(dir, TIER), `${pid}\n`);
}

/** The mariadbd of `dir` if it is still running (for a start interrupted before it answered). */
export function strayMariaDb(dir: string): number | undefined {
  const pid = readPid(join(dir, 'data.run', 'mariadbd.pid'));
  return pid !== undefined && runs(pid, dir) ? pid : undefined;
}

/** SIGTERM, then SIGKILL whatever is still alive after `graceMs`; resolves once all are gone. */
export async function stopProcesses(pids: readonly number[], graceMs = 30_000): Promise<void> {
  for (const pid of pids) process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (pids.some(isAlive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  for (const pid of pids.filter(isAlive)) process.kill(pid, 'SIGKILL');
}

/** Stops the processes of dead runs' directories under `base` and removes the directories. */
export async function reapDeadRuns(base: string, say: (message: string) => void): Promise<void> {
  for (const name of readdirSync(base)) {
    if (!name.startsWith(DIR_PREFIX)) continue;
    const dir = join(base, name);
    const owner = readPid(join(dir, OWNER));
    if (owner === undefined || isAlive(owner)) continue;
    const pids: number[] = [];
    const tier = readPid(join(dir, TIER));
    if (tier !== undefined && runs(tier, `SFDB_REPLICA_ID=${tierReplicaId(owner)}`, 'environ')) pids.push(tier);
    const mariadbd = strayMariaDb(dir);
    if (mariadbd !== undefined) pids.push(mariadbd);
    say(`removing ${dir}, left by a killed run${pids.length > 0 ? ` (stopping pids ${pids.join(', ')})` : ''}`);
    await stopProcesses(pids);
    rmSync(dir, { recursive: true, force: true });
  }
}
