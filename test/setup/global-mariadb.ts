// Starts one private mariadbd for the test run, in a temporary directory on a free
// port. Never the machine's own database service.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { EmbeddedMariaDb, reapOrphans } from '../../server/embedded-mariadb.js';

declare module 'vitest' {
  export interface ProvidedContext {
    mariadbPort: number;
  }
}

/** Speed over durability: a test database is thrown away, and a killed test loses nothing it needs. */
export const TEST_MARIADB_ARGS = ['--innodb-flush-log-at-trx-commit=2', '--innodb-doublewrite=0', '--innodb-buffer-pool-size=128M'];

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // A run killed before its teardown (SIGKILL, a timeout) leaves its mariadbd running.
  for (const prefix of ['sfdb-test-', 'sfdb-outage-', 'sfdb-embedded-']) await reapOrphans(tmpdir(), prefix);
  const dir = mkdtempSync(join(tmpdir(), 'sfdb-test-'));
  const db = await EmbeddedMariaDb.start({ dataDir: join(dir, 'data'), database: 'sfdb_test', extraArgs: TEST_MARIADB_ARGS });
  project.provide('mariadbPort', db.port);
  return async () => {
    await db.stop();
    rmSync(dir, { recursive: true, force: true });
  };
}
