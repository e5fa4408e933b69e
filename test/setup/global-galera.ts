// The Galera run of the test suite (vitest project "galera"): one private 3-node Galera
// cluster on loopback for the run; test files get node 0's port as `mariadbPort` (so the
// shared integration tests run unchanged against Galera) and every node's port as
// `galeraPorts`. Never the machine's own database.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { EmbeddedGalera } from '../../server/embedded/galera.js';
import { reapOrphans } from '../../server/embedded/mariadb.js';

declare module 'vitest' {
  export interface ProvidedContext {
    galeraPorts: number[];
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  await reapOrphans(tmpdir(), 'sfdb-galera-');
  const dir = mkdtempSync(join(tmpdir(), 'sfdb-galera-'));
  const cluster = await EmbeddedGalera.start({ dir, database: 'sfdb_test' });
  project.provide('mariadbPort', cluster.port(0));
  project.provide('galeraPorts', Array.from({ length: cluster.size }, (_, i) => cluster.port(i)));
  return async () => {
    await cluster.stop();
    rmSync(dir, { recursive: true, force: true });
  };
}
