// Starts one private mariadbd for the test run, in a temporary directory on a free
// port. Never the machine's own database service.
import { existsSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { findBinary } from '../../server/embedded/mariadb.js';
import { ProcessCluster } from '../../harness/cluster.js';
import { reapDeadRuns } from '../../harness/leftovers.js';
import { aptInstall, systemHost } from '../../server/embedded/install.js';

declare module 'vitest' {
  export interface ProvidedContext {
    mariadbPort: number;
  }
}

/** Speed over durability: a test database is thrown away, and a killed test loses nothing it needs. */
export const TEST_MARIADB_ARGS = ['--innodb-flush-log-at-trx-commit=2', '--innodb-doublewrite=0', '--innodb-buffer-pool-size=128M'];

/** What the tests run, by the Debian package that brings it. */
const TOOLS: [present: () => boolean, pkg: string][] = [
  [() => findBinary('mariadbd') !== undefined, 'mariadb-server'],
  // mariadb-dump and the mariadb client: backup and restore (mariadb-server brings them).
  [() => findBinary('mariadb-dump') !== undefined && findBinary('mariadb') !== undefined, 'mariadb-client'],
  [() => findBinary('prometheus') !== undefined && findBinary('promtool') !== undefined, 'prometheus'],
  [() => findBinary('openssl') !== undefined, 'openssl'],
  [() => existsSync('/usr/bin/chromium'), 'chromium'],
];

/**
 * `npm test` on a fresh machine: what is missing is installed from Debian's packages when
 * we are root with apt-get (no service of theirs starts), as `npm start` does for MariaDB;
 * otherwise the tests that need it fail saying how to install it.
 */
async function installMissingTools(): Promise<void> {
  const missing = TOOLS.filter(([present]) => !present()).map(([, pkg]) => pkg);
  if (missing.length === 0) return;
  const say = (m: string): void => void process.stderr.write(`test setup: ${m}\n`);
  const host = systemHost(say);
  const aptGet = host.aptGet;
  if (!host.isRoot || !aptGet) {
    say(`missing ${missing.join(', ')}: run \`sudo apt-get install -y ${missing.join(' ')}\` (the tests that need them fail until then)`);
    return;
  }
  say(`installing ${missing.join(', ')} from Debian's packages (no service of theirs is started)`);
  const code = await aptInstall({ ...host, aptGet }, missing);
  if (code !== 0) say(`apt-get install ${missing.join(' ')} exited ${code}`);
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  await installMissingTools();
  // A run killed before its teardown (SIGKILL, a timeout) leaves its mariadbd running (the
  // servers' own directory, sfdb-test-, is reaped as it is made).
  for (const prefix of ['sfdb-outage-', 'sfdb-embedded-']) await reapDeadRuns(prefix);
  // The servers of a tier with no replicas (harness/cluster.ts): each test file makes its
  // own database and replicas on it.
  const servers = new ProcessCluster({ dir: 'sfdb-test-', server: 'mariadb', database: 'sfdb_test', mariadb: { extraArgs: TEST_MARIADB_ARGS } });
  await servers.start();
  project.provide('mariadbPort', servers.mariadb.server.port);
  return () => servers.stop();
}
