// The soak's processes: a private MariaDB in a temporary directory and one real replica
// (`node --import tsx server/main.ts`, its own process group, ports read from its JSON
// serving line). `stop()` stops the replica, then MariaDB, and removes the directory;
// safe to call twice (normal end, then a signal).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedMariaDb } from '../../server/embedded/mariadb.js';
import { startReplica } from '../cluster/processes.js';
import { Children } from '../common/children.js';
import type { Replica } from '../cluster/processes.js';
import { ROOT } from '../cluster/run.js';

export class SoakEnvironment {
  private stopping: Promise<void> | undefined;
  private replicaProcess: Replica | undefined;
  private constructor(
    readonly dir: string,
    readonly mariadb: EmbeddedMariaDb,
    private readonly children: Children,
  ) {}

  static async start(say: (message: string) => void): Promise<SoakEnvironment> {
    const dir = mkdtempSync(join(tmpdir(), 'sfdb-bench-soak-'));
    say(`starting a private MariaDB in ${dir}`);
    try {
      const mariadb = await EmbeddedMariaDb.start({ dataDir: join(dir, 'data'), database: 'soak' });
      return new SoakEnvironment(dir, mariadb, new Children(ROOT));
    } catch (err) {
      rmSync(dir, { recursive: true, force: true });
      throw err;
    }
  }

  /** The one replica: the shipped defaults (pool 16, waiter cap 20 000) but its change window. */
  async startReplica(window: number): Promise<Replica> {
    this.replicaProcess = await startReplica(this.children, {
      id: `soak-${process.pid}`,
      databaseUrl: this.mariadb.url,
      env: { SFDB_CHANGEFEED_WINDOW: String(window) },
      logPath: join(this.dir, 'replica.log'),
    });
    return this.replicaProcess;
  }

  /** Whether the replica is still running (a crash ends the soak). */
  get replicaAlive(): boolean {
    const p = this.replicaProcess?.proc;
    return p !== undefined && p.exitCode === null && p.signalCode === null;
  }

  stop(): Promise<void> {
    this.stopping ??= (async () => {
      await this.children.stopAll();
      await this.mariadb.stop();
      rmSync(this.dir, { recursive: true, force: true });
    })();
    return this.stopping;
  }
}
