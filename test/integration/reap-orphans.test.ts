// A mariadbd whose owner died without stopping it is reaped by the next run; one whose
// owner lives is left alone.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { EmbeddedMariaDb, reapOrphans } from '../../server/embedded/mariadb.js';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

it('reaps a mariadbd whose owner is dead, and leaves a live owner alone', async () => {
  const prefix = `sfdb-reap-${process.pid}-`;
  const orphanDir = mkdtempSync(join(tmpdir(), prefix));
  const liveDir = mkdtempSync(join(tmpdir(), prefix));
  const orphan = await EmbeddedMariaDb.start({ dataDir: join(orphanDir, 'data'), database: 'x' });
  const live = await EmbeddedMariaDb.start({ dataDir: join(liveDir, 'data'), database: 'x' });
  try {
    // The orphan's owner: a process that has exited.
    const dead = spawnSync('true').pid as number;
    writeFileSync(join(orphanDir, 'data.run', 'owner.pid'), `${dead}\n`);
    const orphanPid = orphan.pid as number;

    expect(await reapOrphans(tmpdir(), prefix)).toEqual([orphanDir]);
    expect(alive(orphanPid)).toBe(false);
    expect(existsSync(orphanDir)).toBe(false);
    expect(alive(live.pid as number)).toBe(true);
    expect(existsSync(liveDir)).toBe(true);
  } finally {
    await live.stop();
    await orphan.stop();
    rmSync(liveDir, { recursive: true, force: true });
    rmSync(orphanDir, { recursive: true, force: true });
  }
});
