// The soak's processes: a private MariaDB in a temporary directory and one real replica
// (`node --import tsx server/main.ts`, its own process group, ports read from its JSON
// serving line). They are parts of the run's lifecycle (harness/main.ts): the
// directory, MariaDB, the child processes, started in that order and stopped in reverse.
import { join } from 'node:path';
import type { Component } from '../../proto/runtime/lifecycle.js';
import type { EmbeddedMariaDb } from '../../server/embedded/mariadb.js';
import { Children } from '../../harness/children.js';
import { PrivateMariaDb } from '../../harness/mariadb.js';
import { startReplica } from '../../harness/replica.js';
import type { ReplicaProcess } from '../../harness/replica.js';
import { TempDir } from '../../harness/temp-dir.js';

export class SoakEnvironment {
  private readonly temp: TempDir;
  private readonly children = new Children();
  private readonly db: PrivateMariaDb;
  private replicaProcess: ReplicaProcess | undefined;

  constructor(private readonly say: (message: string) => void) {
    this.temp = new TempDir('sfdb-bench-soak-', say);
    this.db = new PrivateMariaDb(this.temp, { database: 'soak', say });
  }

  /** The parts, in start order: the directory, MariaDB in it, the child processes (the replica). */
  parts(): Component[] {
    return [
      this.temp,
      this.db,
      this.children.part(),
    ];
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
