// The benchmark's processes, parts of the run's lifecycle (harness/main.ts): a tier
// (harness/cluster.ts) of a temporary directory, a private MariaDB in it and the real
// tier as a child (harness/replica.ts), started in this order and stopped in reverse.
// What a SIGKILLed run left is removed by the next run (harness/leftovers.ts).
import type { ProcessCluster } from '../../harness/cluster.js';
import type { Bench } from '../../harness/main.js';
import type { ReplicaProcess } from '../../harness/replica.js';

/** Adds the directory and MariaDB to the run; after bench.start(), startTier() runs the tier. */
export class BenchProcesses {
  private readonly tier: ProcessCluster;

  constructor(bench: Bench) {
    this.tier = bench.tier({ dir: 'sfdb-bench-cache-', server: 'mariadb', database: 'bench', graceMs: 15_000, timeoutMs: 180_000 });
  }

  /** Starts the tier (it migrates first) and waits until it is ready; its log is tier.log. */
  startTier(): Promise<ReplicaProcess> {
    return this.tier.add({
      name: 'tier',
      id: `bench-cache-${process.pid}`,
      // One host drives the load: the per-caller rate limits are not what is measured.
      env: { SFDB_RATE_LIMIT_NODE_RPS: '0', SFDB_RATE_LIMIT_DAEMON_RPS: '0' },
    });
  }
}
