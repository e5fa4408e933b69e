// Real sf-database processes for tests of lifecycle, signals and replicas: the harness's
// replica (harness/replica.ts), its log kept in memory for the test to read.
import { ReplicaProcess } from '../../harness/replica.js';

export type TierProcess = ReplicaProcess;

/**
 * Spawns a replica (not yet ready: await ready()). Its id is unique unless `env` names
 * one (replicas of parallel test files share one MariaDB server); it logs at info.
 */
export function spawnTier(opts: { env?: Record<string, string>; args?: string[] } = {}): TierProcess {
  const { SFDB_REPLICA_ID: id = `test-${process.pid}-${Math.random().toString(36).slice(2, 8)}`, ...env } = opts.env ?? {};
  return new ReplicaProcess({ id, env: { SFDB_LOG_LEVEL: 'info', ...env }, ...(opts.args ? { args: opts.args } : {}) });
}

/** Kills every replica at once (SIGKILL), resuming a stopped one first so that it dies now. */
export function killReplicas(replicas: readonly TierProcess[]): void {
  for (const p of replicas) {
    p.kill('SIGCONT');
    p.kill('SIGKILL');
  }
}
