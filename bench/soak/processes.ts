// The soak's processes: a tier (harness/cluster.ts) of a private MariaDB in a temporary
// directory and one real replica (harness/replica.ts: its own process group, ports read
// from its JSON serving line), a part of the run's lifecycle (harness/main.ts): the
// directory, MariaDB, the replica, started in that order and stopped in reverse.
import type { EmbeddedMariaDb } from '../../server/embedded/mariadb.js';
import type { ProcessCluster } from '../../harness/cluster.js';
import type { Bench } from '../../harness/main.js';
import type { ReplicaProcess } from '../../harness/replica.js';

export class SoakEnvironment {
  private readonly tier: ProcessCluster;
  private replicaProcess: ReplicaProcess | undefined;

  /** Adds the tier to the run: the directory, MariaDB in it, and (startReplica) the replica. */
  constructor(bench: Bench) {
    this.tier = bench.tier({ dir: 'sfdb-bench-soak-', server: 'mariadb', database: 'soak', timeoutMs: 180_000 });
  }

  get dir(): string {
    return this.tier.dir;
  }

  get mariadb(): EmbeddedMariaDb {
    return this.tier.mariadb.server;
  }

  /** The one replica: the shipped defaults (pool 16, waiter cap 20 000) but its change window; its log is replica.log. */
  async startReplica(window: number): Promise<ReplicaProcess> {
    this.replicaProcess = await this.tier.add({ name: 'replica', id: `soak-${process.pid}`, env: { SFDB_CHANGEFEED_WINDOW: String(window) } });
    return this.replicaProcess;
  }

  /** Whether the replica is still running (a crash ends the soak). */
  get replicaAlive(): boolean {
    return this.replicaProcess?.running ?? false;
  }
}
