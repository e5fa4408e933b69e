// The soak's processes: a private MariaDB in a temporary directory and one real replica
// (harness/replica.ts: its own process group, ports read from its JSON serving line).
// They are parts of the run's lifecycle (harness/main.ts): the directory, MariaDB, the
// child processes, started in that order and stopped in reverse.
import { join } from 'node:path';
import type { EmbeddedMariaDb } from '../../server/embedded/mariadb.js';
import type { Children } from '../../harness/children.js';
import type { Bench } from '../../harness/main.js';
import type { PrivateMariaDb } from '../../server/testing/database.js';
import { startReplica } from '../../harness/replica.js';
import type { ReplicaProcess } from '../../harness/replica.js';
import type { TempDir } from '../../harness/temp-dir.js';

export class SoakEnvironment {
  private readonly temp: TempDir;
  private readonly db: PrivateMariaDb;
  private readonly children: Children;
  private replicaProcess: ReplicaProcess | undefined;

  /** Adds the parts to the run, in start order: the directory, MariaDB in it, the child processes (the replica). */
  constructor(bench: Bench) {
    this.temp = bench.tempDir('sfdb-bench-soak-');
    this.db = bench.mariadb(this.temp, 'soak');
    this.children = bench.children();
  }

  get dir(): string {
    return this.temp.path;
  }

  get mariadb(): EmbeddedMariaDb {
    return this.db.server;
  }

  /** The one replica: the shipped defaults (pool 16, waiter cap 20 000) but its change window. */
  async startReplica(window: number): Promise<ReplicaProcess> {
    this.replicaProcess = await startReplica({
      children: this.children,
      id: `soak-${process.pid}`,
      databaseUrl: this.mariadb.url,
      env: { SFDB_CHANGEFEED_WINDOW: String(window) },
      logPath: join(this.dir, 'replica.log'),
    });
    return this.replicaProcess;
  }

  /** Whether the replica is still running (a crash ends the soak). */
  get replicaAlive(): boolean {
    return this.replicaProcess?.running ?? false;
  }
}
