// The Galera run of the test suite (vitest project "galera"): one private 3-node Galera
// cluster on loopback for the run; test files get node 0's port as `mariadbPort` (so the
// shared integration tests run unchanged against Galera) and every node's port as
// `galeraPorts`. Never the machine's own database.
import type { TestProject } from 'vitest/node';
import { startGaleraInTemp } from '../../harness/galera.js';

declare module 'vitest' {
  export interface ProvidedContext {
    galeraPorts: number[];
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const { galera, stop } = await startGaleraInTemp({ database: 'sfdb_test' });
  project.provide('mariadbPort', galera.port(0));
  project.provide('galeraPorts', Array.from({ length: galera.size }, (_, i) => galera.port(i)));
  return stop;
}
