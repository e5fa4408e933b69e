// `--baseline REF`: the tier as it was at a git revision, measured in the same rounds as the
// tier of this checkout, so a change's cost is read as a ratio of one run instead of a
// difference between two runs of a noisy machine. The revision is checked out into a
// temporary worktree (git worktree add --detach) with this checkout's node_modules linked
// in, except its own workspace packages (@sfdb/proto and the others resolve to the
// worktree's, as npm links them in a checkout of its own); its tier runs there as the
// run's does (harness/built.ts): built by the worktree's `tsc -b tsconfig.build.json` and
// run as `node dist/server/main.js`, or `node --import tsx server/main.ts`
// (--baseline-from source), on a database of its own of the run's MariaDB, seeded with the
// same nodes. The worktree is removed when the run ends, on failure too.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../harness/children.js';
import { BUILT_MAIN, ReplicaProcess, whenReady } from '../../harness/replica.js';
import { buildCheckout } from '../../harness/built.js';
import type { From } from '../../harness/built.js';
import type { DatabaseServer } from '../../server/testing/database.js';

/** The commit `ref` names in this repository; throws with the reason when it names none. */
export function resolveRevision(ref: string): string {
  try {
    return execFileSync('git', ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { cwd: ROOT, encoding: 'utf8' }).trim();
  } catch {
    throw new Error(`--baseline: "${ref}" names no commit of this repository`);
  }
}

/** A checkout of a revision for its tier, and how to take it away. */
export interface BaselineCheckout {
  readonly dir: string;
  readonly commit: string;
  /** An executable that runs the revision's tier in `dir` (harness/replica.ts `installed`). */
  readonly bin: string;
  remove(): void;
}

/** The workspace packages of this repository, by their name in node_modules/@sfdb. */
function workspaceLinks(dir: string): Map<string, string> {
  const links = new Map<string, string>();
  for (const name of ['proto', 'client', 'daemons']) if (existsSync(join(dir, name, 'package.json'))) links.set(name, join(dir, name));
  return links;
}

/**
 * Checks `commit` out into `dir` (which must not exist), links its node_modules and, `from`
 * 'built', builds it; its tier runs with Node flags `execArgv` (a profiler's).
 */
export function checkOutBaseline(commit: string, dir: string, from: From, execArgv: readonly string[] = []): BaselineCheckout {
  execFileSync('git', ['worktree', 'add', '--detach', '--quiet', dir, commit], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  const remove = (): void => {
    try {
      execFileSync('git', ['worktree', 'remove', '--force', dir], { cwd: ROOT, stdio: 'ignore' });
    } catch {
      rmSync(dir, { recursive: true, force: true });
      execFileSync('git', ['worktree', 'prune'], { cwd: ROOT, stdio: 'ignore' });
    }
  };
  try {
    const modules = join(dir, 'node_modules');
    mkdirSync(modules);
    for (const entry of readdirSync(join(ROOT, 'node_modules'))) {
      if (entry !== '@sfdb') symlinkSync(join(ROOT, 'node_modules', entry), join(modules, entry));
    }
    mkdirSync(join(modules, '@sfdb'));
    for (const [name, target] of workspaceLinks(dir)) symlinkSync(target, join(modules, '@sfdb', name));
    const bin = join(dir, '.bench-baseline-tier');
    const flags = execArgv.map((a) => `'${a.replace(/'/g, "'\\''")}' `).join('');
    if (from === 'built') buildCheckout(dir);
    const main = from === 'built' ? BUILT_MAIN : '--import tsx server/main.ts';
    writeFileSync(bin, `#!/bin/sh\nexec "${process.execPath}" ${flags}${main} "$@"\n`);
    chmodSync(bin, 0o755);
    return { dir, commit, bin, remove };
  } catch (err) {
    remove();
    throw err;
  }
}

/** The baseline's tier, running. */
export interface BaselineTier {
  readonly replica: ReplicaProcess;
  readonly commit: string;
  /** Its database (seeded by the run like the tier's). */
  readonly url: string;
  /** Stops it (SIGTERM, SIGKILL after `graceMs`) and removes its checkout. */
  stop(graceMs?: number): Promise<void>;
}

/** Its database on the run's MariaDB: the revision's migrations never meet this checkout's. */
export const BASELINE_DATABASE = 'bench_baseline';

/**
 * Checks `commit` out into `dir` (built, `from` 'built') and starts its tier on
 * BASELINE_DATABASE of `server` (created here), with `env` (the tier's settings): ready
 * when this resolves; nothing left behind when it rejects.
 */
export async function startBaselineTier(
  commit: string,
  dir: string,
  server: DatabaseServer,
  env: Record<string, string>,
  logPath: string,
  from: From,
  execArgv: readonly string[] = [],
): Promise<BaselineTier> {
  const checkout = checkOutBaseline(commit, dir, from, execArgv);
  let replica: ReplicaProcess | undefined;
  const stop = async (graceMs = 5_000): Promise<void> => {
    try {
      if (replica?.running) {
        replica.kill('SIGTERM');
        const killed = setTimeout(() => replica?.kill('SIGKILL'), graceMs);
        const status = await replica.exited;
        clearTimeout(killed);
        // Its log is kept where it says why it did not stop cleanly.
        if (status.code === 0) rmSync(logPath, { force: true });
      }
    } finally {
      checkout.remove();
    }
  };
  try {
    await server.createDatabase(BASELINE_DATABASE);
    const url = server.urlFor(0, BASELINE_DATABASE);
    // In the run's session, as the tier and the bare server are (see main.ts).
    replica = new ReplicaProcess({ id: 'bench-baseline', databaseUrl: url, env, installed: { bin: checkout.bin, cwd: checkout.dir }, ownSession: false, logPath });
    await whenReady(replica, 180_000);
    return { replica, commit, url, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
