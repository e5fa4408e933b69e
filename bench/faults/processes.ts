// The processes of a fault run: the harness's tier of replica processes
// (harness/cluster.ts) with a private mariadbd in a temporary directory (durable settings:
// the defaults, every commit flushed) and, when a fault of the network to MariaDB is run,
// a TCP proxy between the replicas and it. Everything is stopped and the directory removed
// by stop() (the faults lifted first: MariaDB continued, the proxy passing bytes); a
// process exit without stop() (a failed test) kills them synchronously; a run killed
// outright is cleaned up by the next one (harness/leftovers.ts).
import type { EmbeddedMariaDb } from '../../server/embedded/mariadb.js';
import { ProcessCluster } from '../../harness/cluster.js';
import type { ClusterReplica } from '../../harness/cluster.js';
import type { ExitStatus } from '../../harness/children.js';
import { metricSum } from '../../harness/scrape.js';
import type { TcpProxy } from '../../harness/tcp-proxy.js';

const DIR_PREFIX = 'sfdb-faults-';

export class FaultProcesses {
  private running: ProcessCluster | undefined;

  constructor(private readonly say: (message: string) => void) {}

  /**
   * Makes the run's directory (after reaping what killed runs left), starts MariaDB in it
   * and, with `databaseProxy`, the proxy in front of it: replicas started from then on dial it.
   */
  async start(opts: { databaseProxy: boolean }): Promise<void> {
    this.running = new ProcessCluster({
      dir: DIR_PREFIX,
      server: 'mariadb',
      database: 'faults',
      mariadb: { graceMs: 30_000 },
      databaseProxy: opts.databaseProxy,
      // The id names the run (its pid) and the replica, and is fresh each time.
      idFor: (name, n) => `faults-${process.pid}-${name}-${n}`,
      timeoutMs: 60_000,
      say: this.say,
    });
    await this.running.start();
  }

  private get cluster(): ProcessCluster {
    if (!this.running) throw new Error('the fault processes are not started');
    return this.running;
  }

  get mariadb(): EmbeddedMariaDb {
    return this.cluster.mariadb.server;
  }

  /** The proxy between the replicas and MariaDB, when the run has one (the ledger checks always read MariaDB itself). */
  get proxy(): TcpProxy | undefined {
    return this.cluster.databaseProxy;
  }

  /** The replicas started, in order (a stopped one until it is replaced). */
  get replicas(): ClusterReplica[] {
    return this.cluster.replicas;
  }

  replica(name: string): ClusterReplica {
    return this.cluster.replica(name);
  }

  /** Starts replica `name` and waits for /readyz. */
  startReplica(name: string, env: Record<string, string> = {}): Promise<ClusterReplica> {
    return this.cluster.add({ name, env });
  }

  /**
   * Starts a replacement for replica `name` (stopped or killed) on its ports, so clients
   * with a fixed target list reconnect to it, under a fresh registry id (a SIGKILLed
   * replica's id stays live for the liveness window), with `env`.
   */
  replaceReplica(name: string, env: Record<string, string>): Promise<ClusterReplica> {
    return this.cluster.restart(name, { id: 'fresh', ports: 'same', env });
  }

  /** Sends `sig` to replica `name` and waits (at most `timeoutMs`) for it to exit. */
  signalReplica(name: string, sig: 'SIGKILL' | 'SIGTERM', timeoutMs: number): Promise<ExitStatus> {
    return this.cluster.terminate(name, sig, timeoutMs);
  }

  /** database_requests_total of replica `name` from `caller` (undefined: any caller). */
  async requestsServed(name: string, caller?: string): Promise<number> {
    const samples = await this.replica(name).metrics(5_000);
    return metricSum(samples, 'database_requests_total', caller === undefined ? {} : { caller_daemon: caller });
  }

  /** Stops the replicas, the proxy, then MariaDB, and removes the directory. Safe to call twice. */
  async stop(): Promise<void> {
    if (!this.running) return;
    await this.running.stop();
    this.say('stopped every process and removed the run directory');
  }
}
