// What writes name must exist (docs/contract.md): tests create the
// nodes and objects they write to.
import { randomUUID } from 'node:crypto';
import type { DatabaseClient } from '../../client/index.js';

/** A new node: its uuid. */
export async function newNode(db: DatabaseClient): Promise<string> {
  const uuid = randomUUID();
  await db.createNode({ uuid, fqdn: `${uuid}.test.example` });
  return uuid;
}

/** Static-object types by their RPC name part. */
export type StaticTypeName = 'Instance' | 'Network' | 'NetworkInterface' | 'IPAM' | 'AgentOperation' | 'Blob' | 'Artifact' | 'Upload' | 'Namespace';

/** A new object of `type` (placed on `nodeUuid` when given): its uuid. */
export async function newObject(db: DatabaseClient, type: StaticTypeName, opts: { uuid?: string; nodeUuid?: string; namespace?: string } = {}): Promise<string> {
  const uuid = opts.uuid ?? randomUUID();
  await db.call(`Create${type}`, { uuid, namespace: opts.namespace ?? '', nodeUuid: opts.nodeUuid ?? '', staticValues: '{}' });
  return uuid;
}
