// A small simulated cluster for the admin view's browser tests and screenshots: N nodes,
// each running the reference daemons in this process (agent: heartbeat with stats; queues;
// and the elected cluster daemon on the first node), each node's daemons talking to one of
// the given replicas in turn, in feed mode, with their own clients.
import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { createClient } from '../../client/index.js';
import type { DatabaseClient } from '../../client/index.js';
import { AgentDaemon, ClusterDaemon, QueuesDaemon, daemonSettings } from '../../daemons/index.js';
import type { Daemon } from '../../daemons/index.js';

export interface SimNode {
  uuid: string;
  fqdn: string;
  /** The replica (gRPC host:port) its daemons use. */
  target: string;
  agent: AgentDaemon;
  queues: QueuesDaemon;
}

export interface Sim {
  nodes: SimNode[];
  /** A client of the first replica (caller `test`). */
  db: DatabaseClient;
  stop(): Promise<void>;
}

export async function startSim(opts: { targets: readonly string[]; nodes: number; heartbeatMs: number; prefix?: string }): Promise<Sim> {
  const log = pino({ level: 'silent' });
  const settings = daemonSettings({}, { nodeHeartbeatMs: opts.heartbeatMs, maintenanceLeaseMs: 30_000 });
  const clients: DatabaseClient[] = [];
  const daemons: Daemon[] = [];
  const client = (target: string, callerDaemon: string, callerNode?: string): DatabaseClient => {
    const c = createClient({ targets: target, callerDaemon, callerNode });
    clients.push(c);
    return c;
  };
  const db = client(opts.targets[0] as string, 'test');
  const nodes: SimNode[] = [];
  for (let i = 0; i < opts.nodes; i++) {
    const uuid = randomUUID();
    const fqdn = `${opts.prefix ?? 'node'}-${i + 1}.cluster.example`;
    const target = opts.targets[i % opts.targets.length] as string;
    await db.createNode({ uuid, fqdn, ipAddress: `10.0.0.${i + 1}` });
    const agent = new AgentDaemon({ name: 'agent', nodeUuid: uuid, db: client(target, 'agent', uuid), settings, log });
    const queues = new QueuesDaemon({ name: 'queues', nodeUuid: uuid, db: client(target, 'queues', uuid), settings, log }).handle('jobs', async () => 'done');
    daemons.push(agent, queues);
    if (i === 0) daemons.push(new ClusterDaemon({ name: 'cluster', nodeUuid: uuid, db: client(target, 'cluster', uuid), settings, log }));
    nodes.push({ uuid, fqdn, target, agent, queues });
  }
  await Promise.all(daemons.map((d) => d.start()));
  return {
    nodes,
    db,
    async stop() {
      await Promise.all(daemons.map((d) => d.stop()));
      for (const c of clients) c.close();
    },
  };
}
