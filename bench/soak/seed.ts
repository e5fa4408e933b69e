// What the soak's calls act on: nodes, instances placed on them (so a state change
// publishes on `node/<node>/instance`), and one queue per node (`queue/<node>/soak`).
import { randomUUID } from 'node:crypto';
import type { DatabaseClient } from '../../client/index.js';

export const QUEUE = 'soak';

export interface Seeded {
  nodes: string[];
  /** Every instance, and the node it is placed on. */
  instances: { uuid: string; node: string }[];
}

async function inBatches<T>(items: readonly T[], width: number, fn: (item: T, i: number) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += width) await Promise.all(items.slice(i, i + width).map((item, j) => fn(item, i + j)));
}

export async function seed(db: DatabaseClient, nodes: number, instancesPerNode: number): Promise<Seeded> {
  const nodeUuids = Array.from({ length: nodes }, () => randomUUID());
  await inBatches(nodeUuids, 16, (uuid, i) => db.createNode({ uuid, fqdn: `soak-${i}.bench.example`, ipAddress: `10.9.${i >> 8}.${i & 255}` }));
  const instances = nodeUuids.flatMap((node) => Array.from({ length: instancesPerNode }, () => ({ uuid: randomUUID(), node })));
  await inBatches(instances, 16, (inst, i) =>
    db.createInstance({ uuid: inst.uuid, nodeUuid: inst.node, staticValues: { name: `soak-vm-${i}`, cpus: 2, memoryMb: 2048 } }),
  );
  await inBatches(instances, 16, (inst) => db.setObjectState('INSTANCE', inst.uuid, 'CREATED', 'seeded'));
  return { nodes: nodeUuids, instances };
}
