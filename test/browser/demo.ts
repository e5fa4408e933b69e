// A cluster to look at, outside the test runner (screenshots, the cost measurement): a
// private mariadbd in a temporary directory and two replicas in this process (a
// TierCluster, server/testing/cluster.ts), N simulated nodes running the reference
// daemons (sim.ts), and some objects, leases and a stuck claim.
import { randomUUID } from 'node:crypto';
import { parseConfig } from '../../server/config.js';
import { TierCluster } from '../../server/testing/cluster.js';
import { PrivateMariaDb } from '../../server/testing/database.js';
import { inProcessReplicas } from '../../server/testing/in-process.js';
import type { InProcessPlan } from '../../server/testing/in-process.js';
import { TempDir } from '../../harness/temp-dir.js';
import { component } from '../../proto/runtime/lifecycle.js';
import { createLogger } from '../../proto/runtime/log.js';
import type { Tier } from '../../server/tier.js';
import { startSim } from './sim.js';
import type { Sim } from './sim.js';

export interface Demo {
  replicas: Tier[];
  sim: Sim;
  /** The first replica's HTTP base URL. */
  base: string;
  /** Claims an item with a 1 s lease and lets it lapse. */
  stuckClaim(): Promise<void>;
  stop(): Promise<void>;
}

export interface DemoOptions {
  nodes: number;
  heartbeatMs: number;
  /** Tier settings (SFDB_*) of both replicas. */
  env?: Record<string, string>;
  /** Objects of namespace `payments` (instances), with states. */
  objects?: number;
}

/** The demo's private MariaDB directories in the temporary folder. */
const DEMO_PREFIX = 'sfdb-embedded-admin-';

export async function startDemo(opts: DemoOptions): Promise<Demo> {
  // Only this demo's own leftovers: another harness's directories of a similar name are theirs.
  const dir = new TempDir(DEMO_PREFIX);
  const database = 'sfdb_admin_demo';
  const cluster: TierCluster<InProcessPlan, Tier> = new TierCluster({
    dir,
    server: { run: new PrivateMariaDb(dir, { database, extraArgs: ['--innodb-flush-log-at-trx-commit=2', '--innodb-doublewrite=0', '--innodb-buffer-pool-size=128M'] }) },
    database: { name: database, create: false },
    replicas: ['replica-a', 'replica-b'].map((id) => ({
      name: id,
      config: parseConfig({ SFDB_GRPC_PORT: '0', SFDB_HTTP_PORT: '0', SFDB_REPLICA_ID: id, SFDB_LOG_LEVEL: 'silent', ...opts.env }, []),
    })),
    launcher: inProcessReplicas(() => createLogger('silent')),
    after: [component('peers', () => Promise.all(cluster.replicas.map((r) => r.feed.refreshPeers())))],
  });
  await cluster.start();
  const replicas = cluster.replicas;
  const stopAll = (): Promise<void> => cluster.stop();
  try {
    // Ctrl-C stops the replicas and the private mariadbd (a later run reaps what a SIGKILL leaves).
    const onSignal = (): void => void stopAll().finally(() => process.exit(130));
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    const targets = replicas.map((r) => `127.0.0.1:${r.grpcPort}`);
    const sim = await startSim({ targets, nodes: opts.nodes, heartbeatMs: opts.heartbeatMs, prefix: 'node' });
    const db = sim.db;
    const states = ['CREATED', 'CREATED', 'CREATED', 'CREATING', 'ERRORED'] as const;
    for (let i = 0; i < (opts.objects ?? 0); i++) {
      const uuid = randomUUID();
      const node = sim.nodes[i % sim.nodes.length];
      await db.createInstance({
        uuid,
        namespace: 'payments',
        nodeUuid: node?.uuid,
        staticValues: { name: `pay-${i + 1}`, vcpus: 2 + (i % 3) * 2, memory_mb: 4096, root_password: 'not-for-your-eyes' },
        secretFields: ['root_password'],
      });
      await db.setObjectState('INSTANCE', uuid, states[i % states.length] ?? 'CREATED');
    }
    await db.acquireLease('scheduler/placement', 'scheduler@node-2', 45_000);
    await db.acquireLease('backup/nightly', 'backup@node-1', 600_000);
    return {
      replicas,
      sim,
      base: `http://127.0.0.1:${replicas[0]?.httpPort}`,
      async stuckClaim() {
        const node = sim.nodes[0];
        if (!node) return;
        // A claim whose holder went quiet: its 1 s lease runs out (until the next recovery sweep requeues it).
        await db.enqueue({ id: randomUUID(), nodeUuid: node.uuid, queue: 'slow', payload: { task: 'resize-disk' } });
        await db.dequeue({ nodeUuid: node.uuid, queues: ['slow'], leaseMs: 1000, holder: `queues@${node.fqdn}/4242` });
      },
      async stop() {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
        await sim.stop();
        await stopAll();
      },
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
