// Seeds a cluster for the simulator through the client (the orchestrator's job; its
// tests use it too): nodes; networks, each with its IPAM; standing instances placed round
// robin on the nodes, CREATED, each with one interface on a network (address reserved in
// the network's IPAM, references instance→interface→network); and history: completed
// instances (DELETED, with their events) and finished work items, spread over the nodes.
// Answers the SimConfig minus mode and targets.
import { randomUUID } from 'node:crypto';
import type { DatabaseClient, ObjectEventInput } from '../../../client/index.js';
import { WORK_QUEUES } from '../protocol.js';
import type { SimConfig } from '../protocol.js';

export interface SeedShape {
  nodes: number;
  /** Standing instances. */
  instances: number;
  /** Completed instances, and as many finished work items. */
  history: number;
  /** Networks the standing instances are spread over (default 2). */
  networks?: number;
}

export type SeededCluster = Omit<SimConfig, 'mode' | 'targets'>;

/** Calls in flight while seeding. */
const CONCURRENCY = 16;
const EVENTS_PER_CALL = 1000;
const DEQUEUE_LIMIT = 100;

/** Runs `fn` on every item, at most `limit` at a time. */
async function each<T>(items: readonly T[], fn: (item: T, index: number) => Promise<unknown>, limit = CONCURRENCY): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      await fn(items[i] as T, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}

function count(name: string, n: number | undefined, min: number): number {
  if (n === undefined || !Number.isInteger(n) || n < min) throw new Error(`seed: ${name} must be an integer ≥ ${min}`);
  return n;
}

export async function seed(db: DatabaseClient, shape: SeedShape): Promise<SeededCluster> {
  const nodeCount = count('nodes', shape.nodes, 1);
  const instanceCount = count('instances', shape.instances, 0);
  const historyCount = count('history', shape.history, 0);
  const networkCount = count('networks', shape.networks ?? 2, 1);
  if (networkCount > 250) throw new Error('seed: at most 250 networks');
  const tag = randomUUID().slice(0, 8);

  const nodes = range(nodeCount).map((i) => ({ uuid: randomUUID(), fqdn: `sim-${tag}-${i}.cluster.test` }));
  await each(nodes, (n) => db.createNode({ uuid: n.uuid, fqdn: n.fqdn }));

  const networks = range(networkCount).map(() => ({ uuid: randomUUID(), ipamUuid: randomUUID() }));
  await each(networks, async (n, k) => {
    const cidr = `10.${k}.0.0/16`;
    await db.createIPAM({ uuid: n.ipamUuid, staticValues: { name: `ipam-${tag}-${k}`, cidr } });
    await db.createNetwork({ uuid: n.uuid, staticValues: { name: `net-${tag}-${k}`, cidr, ipamUuid: n.ipamUuid } });
    await db.recordReference({ fromType: 'NETWORK', fromUuid: n.uuid, toType: 'IPAM', toUuid: n.ipamUuid, relation: 'uses-ipam' });
  });

  const instances = range(instanceCount).map((i) => ({
    uuid: randomUUID(),
    nodeUuid: (nodes[i % nodeCount] as { uuid: string }).uuid,
    networkUuid: (networks[i % networkCount] as { uuid: string }).uuid,
    interfaceUuid: randomUUID(),
  }));
  await each(instances, async (inst, i) => {
    const network = networks[i % networkCount] as { uuid: string; ipamUuid: string };
    const k = Math.floor(i / networkCount); // this instance's index on its network
    const address = `10.${i % networkCount}.${Math.floor(k / 250)}.${(k % 250) + 2}`;
    await db.createInstance({ uuid: inst.uuid, nodeUuid: inst.nodeUuid, staticValues: { name: `vm-${tag}-${i}`, cpus: 2, memoryMb: 2048, diskGb: 20 } });
    await db.setObjectState('INSTANCE', inst.uuid, 'CREATED', 'seeded');
    await db.createNetworkInterface({
      uuid: inst.interfaceUuid,
      nodeUuid: inst.nodeUuid,
      staticValues: { instanceUuid: inst.uuid, networkUuid: network.uuid, ipamUuid: network.ipamUuid, address, order: 0 },
    });
    await db.reserveAddress({ ipamUuid: network.ipamUuid, address, ownerType: 'NETWORK_INTERFACE', ownerUuid: inst.interfaceUuid });
    await db.recordReference({ fromType: 'INSTANCE', fromUuid: inst.uuid, toType: 'NETWORK_INTERFACE', toUuid: inst.interfaceUuid, relation: 'has-interface' });
    await db.recordReference({ fromType: 'NETWORK_INTERFACE', fromUuid: inst.interfaceUuid, toType: 'NETWORK', toUuid: network.uuid, relation: 'on-network' });
  });

  await seedHistory(db, nodes, historyCount, tag);
  await recordAll(
    db,
    instances.map((i) => ({ objectType: 'INSTANCE', objectUuid: i.uuid, eventType: 'created', message: 'seeded' })),
  );
  return { nodes, instances, networks };
}

/** Completed instances (DELETED, three events each) and finished work items, spread over the nodes. */
async function seedHistory(db: DatabaseClient, nodes: readonly { uuid: string }[], n: number, tag: string): Promise<void> {
  const done = range(n).map((i) => ({ uuid: randomUUID(), nodeUuid: (nodes[i % nodes.length] as { uuid: string }).uuid }));
  await each(done, async (inst, i) => {
    await db.createInstance({ uuid: inst.uuid, nodeUuid: inst.nodeUuid, staticValues: { name: `old-${tag}-${i}`, cpus: 1, memoryMb: 1024, diskGb: 10 } });
    await db.setObjectState('INSTANCE', inst.uuid, 'DELETED', 'history');
  });
  await recordAll(
    db,
    done.flatMap((inst) =>
      (['created', 'started', 'deleted'] as const).map((eventType) => ({ objectType: 'INSTANCE' as const, objectUuid: inst.uuid, eventType, message: 'history' })),
    ),
  );

  const queues = Object.values(WORK_QUEUES);
  const items = range(n).map((i) => ({
    id: randomUUID(),
    nodeUuid: (nodes[i % nodes.length] as { uuid: string }).uuid,
    queue: queues[Math.floor(i / nodes.length) % queues.length] as string,
  }));
  await each(items, (item) => db.enqueue({ ...item, payload: { history: true } }));
  // Claim and finish them (before any daemon runs, so only the seed dequeues them).
  const pairs = nodes.flatMap((node) => queues.map((queue) => ({ node: node.uuid, queue })));
  await each(pairs, async ({ node, queue }) => {
    for (;;) {
      const claims = await db.dequeue({ nodeUuid: node, queues: [queue], limit: DEQUEUE_LIMIT, holder: 'seed' });
      await each(claims, (c) => db.resolve(c.item.id, c.epoch, 'SUCCEEDED', { history: true }), 4);
      if (claims.length < DEQUEUE_LIMIT) return;
    }
  });
}

async function recordAll(db: DatabaseClient, events: readonly ObjectEventInput[]): Promise<void> {
  const batches = range(Math.ceil(events.length / EVENTS_PER_CALL)).map((b) => events.slice(b * EVENTS_PER_CALL, (b + 1) * EVENTS_PER_CALL));
  await each(batches, (batch) => db.recordEvents(batch), 4);
}
