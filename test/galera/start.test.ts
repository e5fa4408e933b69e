// The Galera harness itself, where a run on a busy machine found it wanting (the CI failure
// of ec5a110: a start that failed then hung in stop until the hook's timeout). A joiner whose
// SST port another process took aborts; it is started again with fresh ports and the
// cluster comes up. A node that died by a signal does not hold up stop(). Its own 2-node
// cluster: the shared one stays whole.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import type { Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EmbeddedGalera } from '../../harness/galera.js';
import { freePort, isAlive } from '../../server/embedded/mariadb.js';

const dir = mkdtempSync(join(tmpdir(), 'sfdb-galera-'));
let cluster: EmbeddedGalera | undefined;
let squatter: Server | undefined;

afterAll(async () => {
  await cluster?.stop();
  squatter?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the embedded Galera cluster', () => {
  it('starts a joiner again with fresh ports when its SST port was taken, and stops with a node dead by a signal', async () => {
    // Ports are picked as sql, group, IST, SST for node 0, then for node 1: the 8th pick is
    // node 1's SST port, and a listener of ours holds it.
    squatter = createServer();
    const taken = await new Promise<number>((resolve) => {
      const s = squatter as Server;
      s.listen(0, '127.0.0.1', () => resolve((s.address() as { port: number }).port));
    });
    let picks = 0;
    const log: string[] = [];
    cluster = await EmbeddedGalera.start({
      dir,
      nodes: 2,
      database: 'harness',
      log: (m) => log.push(m),
      pickPort: async () => (++picks === 8 ? taken : freePort()),
    });
    expect(log.filter((m) => m.includes('node 1 exited during start')), log.join('\n')).toHaveLength(1);
    expect(await cluster.clusterSize(0)).toBe(2);
    expect(await cluster.clusterSize(1)).toBe(2);

    // Killed from outside, so the harness only hears of it: its stop() must not wait for it.
    const pid = cluster.pid(1) as number;
    process.kill(pid, 'SIGKILL');
    while (isAlive(pid)) await new Promise((r) => setTimeout(r, 50));
    await cluster.stop();
    expect(cluster.pid(0)).toBeUndefined();
    cluster = undefined;
  }, 180_000);
});
