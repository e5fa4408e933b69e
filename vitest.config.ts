import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';
import { galeraUnavailable } from './harness/galera.js';

/**
 * The workspace packages (@sfdb/proto, @sfdb/client, @sfdb/daemon) resolved to their
 * sources, as tsconfig.json's `paths` resolve them for tsc and tsx: one table, read from
 * there. Built and installed, they resolve through their package.json exports instead.
 */
function sourceAliases(): { find: RegExp; replacement: string }[] {
  const { compilerOptions } = JSON.parse(readFileSync(new URL('./tsconfig.json', import.meta.url), 'utf8')) as { compilerOptions: { paths: Record<string, [string]> } };
  return Object.entries(compilerOptions.paths).map(([from, [to]]) => ({
    find: new RegExp(`^${from.replace('*', '(.+)')}$`), // the keys hold no regex specials but the one '*'
    replacement: new URL(to.replace('*', '$1'), import.meta.url).pathname,
  }));
}

/** The integration tests that run a second time against a 3-node Galera cluster. */
const GALERA_FILES = [
  'test/integration/queue.test.ts',
  'test/integration/leases.test.ts',
  'test/integration/registry.test.ts',
  'test/integration/changefeed.test.ts',
  'test/integration/retired-counters.test.ts',
  'test/integration/retired-fold.test.ts',
  'test/integration/lease-expiry.test.ts',
  'test/integration/changefeed-reports.test.ts',
  'test/galera/**/*.test.ts',
];

// Never silently: a machine that cannot run Galera says why, and its tests are left out.
const galeraReason = galeraUnavailable();
if (galeraReason) process.stderr.write(`vitest: the Galera tests are skipped: ${galeraReason}\n`);

export default defineConfig({
  resolve: { alias: sourceAliases() },
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // 2 cores: keep MariaDB and the tier processes of the integration tests breathing.
    maxWorkers: 2,
    reporters: ['default', 'json'],
    outputFile: { json: '.data/test-results.json' },
    projects: [
      {
        extends: true,
        test: {
          name: 'mariadb',
          include: ['test/**/*.test.ts'],
          exclude: ['test/galera/**'],
          // One private mariadbd for the whole run (a database per test file); tests that
          // stop or kill MariaDB start their own.
          globalSetup: ['test/setup/global-mariadb.ts'],
        },
      },
      ...(galeraReason
        ? []
        : [
            {
              extends: true as const,
              test: {
                name: 'galera',
                include: GALERA_FILES,
                // One private 3-node Galera cluster for these files (a database per file).
                globalSetup: ['test/setup/global-galera.ts'],
              },
            },
          ]),
    ],
  },
});
