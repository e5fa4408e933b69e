// Real sf-database processes for tests of lifecycle, signals and replicas: one replica
// (harness/replica.ts), its log kept in memory for the test to read; or a tier of them on
// a database of the suite's MariaDB (harness/cluster.ts), for the chaos tests.
import { randomUUID } from 'node:crypto';
import { ProcessCluster } from '../../harness/cluster.js';
import type { ProcessClusterOptions } from '../../harness/cluster.js';
import { ReplicaProcess } from '../../harness/replica.js';
import { testDatabaseName, testServer } from './tier.js';

export type TierProcess = ReplicaProcess;

/**
 * Spawns a replica (not yet ready: await ready()). Its id is unique unless `env` names
 * one (replicas of parallel test files share one MariaDB server); it logs at info.
 */
export function spawnTier(opts: { env?: Record<string, string>; args?: string[] } = {}): TierProcess {
  const { SFDB_REPLICA_ID: id = `test-${process.pid}-${Math.random().toString(36).slice(2, 8)}`, ...env } = opts.env ?? {};
  return new ReplicaProcess({ id, env: { SFDB_LOG_LEVEL: 'info', ...env }, ...(opts.args ? { args: opts.args } : {}) });
}

/**
 * A tier of replica processes on a fresh database of the suite's MariaDB (dropped at
 * stop): replicas `names` started in order, each id its name and a random suffix (parallel
 * test files share the server), logging at warn, in the test's session (scheduled with
 * it, as a plain child is), their logs in memory. `options` over these. Not started.
 */
export function testCluster(names: readonly string[], options: Partial<ProcessClusterOptions> = {}): ProcessCluster {
  return new ProcessCluster({
    server: testServer(),
    database: testDatabaseName(),
    replicas: names.map((name) => ({ name })),
    idFor: (name) => `${name}-${randomUUID().slice(0, 4)}`,
    ownSession: false,
    ...options,
    env: { SFDB_LOG_LEVEL: 'warn', ...options.env },
  });
}
