// A run's temporary directory as a part of its lifecycle, for sf-database/testing and the
// harness alike: made when started (under the system's temporary directory, after reaping
// what killed runs of the same prefix left), marked as ours (owner.pid), removed with
// everything in it when stopped.
//
// What a killed run (SIGKILL: no handler runs) leaves is its directory and, in it, a
// mariadbd (started detached, so it outlives its parent). A directory names its owner
// (owner.pid; a private MariaDB writes its own `*.run/owner.pid` too). The next run of
// the prefix stops the mariadbd of directories whose owner is dead and removes them; a
// directory whose owner lives (a concurrent run) is left alone. The harness adds the
// children a dead run left (harness/leftovers.ts: they carry their owner in their
// environment), through `onDeadRun`.
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Component } from '@sfdb/proto/runtime/lifecycle';
import { isAlive, reapOrphans } from '../embedded/mariadb.js';

const OWNER_FILE = 'owner.pid';

/** The pid a file names, if it names one. */
export function readPid(path: string): number | undefined {
  if (!existsSync(path)) return undefined;
  const pid = Number(readFileSync(path, 'utf8').trim());
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/** Marks `dir` as this process's: a later run reaps it once we are dead. */
function recordOwner(dir: string): void {
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

export interface ReapOptions {
  say?: (message: string) => void;
  /**
   * Told of each dead run before its MariaDB is stopped and its directory removed; what it
   * returns is added to the message (the harness kills the run's children here).
   */
  onDeadRun?: (dir: string, owner: number) => string | undefined;
}

/**
 * Stops what the dead runs of `prefix` (directories under the system's temporary
 * directory) left: `onDeadRun` first, their mariadbd cleanly (reapOrphans), then removes
 * the directories. Returns those removed.
 */
export async function reapDeadRuns(prefix: string, options: ReapOptions = {}): Promise<string[]> {
  const base = tmpdir();
  const dead: string[] = [];
  for (const name of readdirSync(base)) {
    if (!name.startsWith(prefix)) continue;
    const dir = join(base, name);
    const owner = ownerOf(dir);
    if (owner === undefined || isAlive(owner)) continue;
    dead.push(dir);
    const note = options.onDeadRun?.(dir, owner);
    options.say?.(`removing ${dir}, left by a killed run${note ? ` (${note})` : ''}`);
  }
  if (dead.length === 0) return dead;
  await reapOrphans(base, prefix);
  for (const dir of dead) rmSync(dir, { recursive: true, force: true });
  return dead;
}

export class TempDir implements Component {
  readonly name = 'temporary directory';
  private dir: string | undefined;

  constructor(
    private readonly prefix: string,
    private readonly reap: ReapOptions = {},
  ) {}

  /** Its path; known once started. */
  get path(): string {
    if (this.dir === undefined) throw new Error(`the temporary directory ${this.prefix}… is not made yet`);
    return this.dir;
  }

  async start(): Promise<void> {
    await reapDeadRuns(this.prefix, this.reap);
    this.dir = mkdtempSync(join(tmpdir(), this.prefix));
    recordOwner(this.dir);
  }

  stop(): void {
    if (this.dir !== undefined) rmSync(this.dir, { recursive: true, force: true });
  }
}
