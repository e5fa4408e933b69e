// The benchmark's processes, parts of the run's lifecycle (harness/main.ts): a temporary
// directory, a private MariaDB in it, and the real tier as a child (harness/replica.ts),
// started in this order and stopped in reverse. What a SIGKILLed run left is removed by
// the next run (harness/leftovers.ts).
import { join } from 'node:path';
import type { Children } from '../../harness/children.js';
import type { Bench } from '../../harness/main.js';
import type { PrivateMariaDb } from '../../server/testing/database.js';
import { startReplica } from '../../harness/replica.js';
import type { ReplicaProcess } from '../../harness/replica.js';
import type { TempDir } from '../../harness/temp-dir.js';

/** Adds the directory, MariaDB and the children to the run; after bench.start(), startTier() runs the tier. */
export class BenchProcesses {
  private readonly dir: TempDir;
  private readonly mariadb: PrivateMariaDb;
  private readonly children: Children;

  constructor(bench: Bench) {
    this.dir = bench.tempDir('sfdb-bench-cache-');
    this.mariadb = bench.mariadb(this.dir, 'bench');
    this.children = bench.children(15_000);
  }

  /** Starts the tier (it migrates first) and waits until it is ready. */
  startTier(): Promise<ReplicaProcess> {
    return startReplica({
      children: this.children,
      id: `bench-cache-${process.pid}`,
      databaseUrl: this.mariadb.server.url,
      // One host drives the load: the per-caller rate limits are not what is measured.
      env: { SFDB_RATE_LIMIT_NODE_RPS: '0', SFDB_RATE_LIMIT_DAEMON_RPS: '0' },
      logPath: join(this.dir.path, 'tier.log'),
    });
  }
}
