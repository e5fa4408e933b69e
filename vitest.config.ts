import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One private mariadbd for the whole run (a database per test file); tests that
    // stop or kill MariaDB start their own.
    globalSetup: ['test/setup/global-mariadb.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // 2 cores: keep MariaDB and the tier processes of the integration tests breathing.
    maxWorkers: 2,
    reporters: ['default', 'json'],
    outputFile: { json: '.data/test-results.json' },
  },
});
