// The benchmark's processes as parts of its lifecycle: a temporary directory, a private
// MariaDB in it and the real tier as a child (harness/replica.ts); the run's lifecycle
// (harness/main.ts) starts them in this order and stops them in reverse. What a
// SIGKILLed run left is removed by the next run (harness/leftovers.ts).
import { join } from 'node:path';
import { component } from '../../proto/runtime/lifecycle.js';
import type { Component } from '../../proto/runtime/lifecycle.js';
import { Children } from '../../harness/children.js';
import { PrivateMariaDb } from '../../harness/mariadb.js';
import { startReplica } from '../../harness/replica.js';
import type { ReplicaProcess } from '../../harness/replica.js';
import { TempDir } from '../../harness/temp-dir.js';

export class BenchProcesses {
  private readonly dir: TempDir;
  private readonly children = new Children();
  private readonly mariadb: PrivateMariaDb;
  private running: ReplicaProcess | undefined;

  constructor(private readonly say: (message: string) => void) {
    this.dir = new TempDir('sfdb-bench-cache-', say);
    this.mariadb = new PrivateMariaDb(this.dir, { database: 'bench', say, graceMs: 30_000 });
  }

  /** The parts, in start order: the run's directory, MariaDB in it, the tier on it. */
  parts(): Component[] {
    return [
      this.dir,
      this.mariadb,
      this.children.part(15_000),
      component('tier', async () => {
        this.say('starting the tier');
        this.running = await startReplica({
          children: this.children,
          id: `bench-cache-${process.pid}`,
          databaseUrl: this.mariadb.server.url,
          // One host drives the load: the per-caller rate limits are not what is measured.
          env: { SFDB_RATE_LIMIT_NODE_RPS: '0', SFDB_RATE_LIMIT_DAEMON_RPS: '0' },
          logPath: join(this.dir.path, 'tier.log'),
        });
      }, () => undefined), // stopped with the child processes
    ];
  }

  /** The tier, once started. */
  get tier(): ReplicaProcess {
    if (!this.running) throw new Error('the tier is not started');
    return this.running;
  }
}
