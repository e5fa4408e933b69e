// What a killed bench run leaves is reaped by the next run of its kind (harness/leftovers.ts):
// its children, found by the owner in their environment, are killed and its directory
// removed; a run whose owner lives keeps both. The children are real processes of the
// harness (childEnv, spawnTs), as a bench starts them.
import { spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { OWNER_VARIABLE, childEnv, eachLine, exited, spawnTs } from '../../harness/children.js';
import { reapDeadRuns } from '../../harness/leftovers.js';
import { TempDir } from '../../harness/temp-dir.js';

const started: ChildProcess[] = [];
afterAll(() => {
  for (const child of started) child.kill('SIGKILL');
});

/** A harness child that runs until stopped, tagged with `owner` as a bench's children are; resolves once it runs. */
async function child(owner: number): Promise<ChildProcess> {
  const proc = spawnTs('test/fixtures/bench-child.ts', ['-'], { env: childEnv({ [OWNER_VARIABLE]: String(owner) }), stdio: ['ignore', 'pipe', 'inherit'] });
  started.push(proc);
  await new Promise<void>((resolve) => eachLine(proc.stdout, (line) => line.startsWith('ready') && resolve()));
  return proc;
}

it('kills the children of a dead run and removes its directory; leaves a live run alone', async () => {
  const prefix = `sfdb-harness-reap-${process.pid}-`;
  // A live run (its start reaps the prefix's dead runs: none yet), then a dead one, whose
  // owner is a process that has exited.
  const live = new TempDir(prefix);
  await live.start();
  const dead = spawnSync('true').pid as number;
  const deadDir = mkdtempSync(join(tmpdir(), prefix));
  writeFileSync(join(deadDir, 'owner.pid'), `${dead}\n`);
  try {
    const orphan = await child(dead);
    const ours = await child(process.pid);
    const orphanExit = exited(orphan);

    expect(await reapDeadRuns(prefix)).toEqual([deadDir]);
    expect((await orphanExit).signal).toBe('SIGKILL');
    expect(existsSync(deadDir)).toBe(false);
    expect(ours.exitCode === null && ours.signalCode === null).toBe(true);
    expect(existsSync(live.path)).toBe(true);
  } finally {
    live.stop();
    rmSync(deadDir, { recursive: true, force: true });
  }
});
