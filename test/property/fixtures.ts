// Rows for the generated requests to land on: nodes, one object of every static type,
// states, attributes, queued and claimed work items, a lease held for maintenance jobs,
// a reservation, transfers, config, events, a reference, a peer replica. Their ids and
// names go into the generators' pools. Fixed ids, so a failing example replays against
// the same rows. Generated deletes take fixtures away; `restoreFixtures` puts the
// missing ones back before each RPC's property.
import type { DatabaseClient } from '../../client/index.js';
import { STATIC_OBJECT_TYPES } from '../../proto/object-types.js';
import type { StaticTypeName } from '../../proto/object-types.js';
import type { TestTier } from '../helpers/tier.js';
import { pool } from './arbitraries.js';

const id = (kind: number, i: number): string => `f${kind.toString(16).padStart(7, '0')}-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;


const NODES = [1, 2, 3].map((i) => ({ uuid: id(1, i), fqdn: `fuzz-${i}.test`, ipAddress: `10.0.0.${i}` }));
const NODE = NODES[0]?.uuid as string;
const OBJECTS = (Object.keys(STATIC_OBJECT_TYPES) as StaticTypeName[]).map((type, i) => ({ type, uuid: id(2, i + 1) }));
const uuidOf = (type: StaticTypeName): string => OBJECTS.find((o) => o.type === type)?.uuid as string;

/** A registered peer replica that is no process: PokeChanges from it is accepted. */
export const PEER = { replicaId: 'fuzz-peer', ownerToken: 'f0000009-0000-4000-8000-000000000001' };

export async function seedFixtures(t: TestTier, db: DatabaseClient): Promise<void> {
  pool.nodes.push(...NODES.map((n) => n.uuid));
  pool.fqdns.push(...NODES.map((n) => n.fqdn));
  pool.objects.push(...OBJECTS.map((o) => o.uuid));
  pool.typed.push(...NODES.map((n): [string, string] => ['NODE', n.uuid]), ...OBJECTS.map((o): [string, string] => [STATIC_OBJECT_TYPES[o.type], o.uuid]));
  await restoreFixtures(t, db);

  const [instance, network, nic, ipam, blob] = (['Instance', 'Network', 'NetworkInterface', 'IPAM', 'Blob'] as const).map(uuidOf) as [string, string, string, string, string];
  await db.call('NodeHeartbeat', { nodeUuid: NODE, stats: '{"load":1}' });
  await db.call('SetNodeDaemonState', { nodeUuid: NODE, daemon: 'd1', state: 'RUNNING', message: 'ok' });
  await db.call('SetObjectAttributes', { objectType: 'INSTANCE', uuid: instance, attributes: { attr: '{"a":1}', k1: '"x"' } });
  await db.call('RecordReference', { fromType: 'NETWORK_INTERFACE', fromUuid: nic, toType: 'NETWORK', toUuid: network, relation: 'rel' });
  await db.call('ReserveAddress', { ipamUuid: ipam, address: '10.0.0.1', ownerType: 'NETWORK_INTERFACE', ownerUuid: nic });
  await db.call('RecordEvents', { events: [{ objectType: 'INSTANCE', objectUuid: instance, eventType: 'ev', message: 'm', extra: '{"x":1}' }] });
  await db.call('SetClusterConfig', { key: 'k1', value: '{"a":1}', expectedVersion: '0' });

  const transfers = [1, 2, 3, 4].map((i) => id(3, i));
  for (const transfer of transfers) {
    await db.call('CreateBlobTransfer', { id: transfer, blobUuid: blob, nodeUuid: NODE, sourceNodeUuid: NODES[1]?.uuid ?? '', bytesTotal: '1000' });
  }
  pool.transfers.push(...transfers);

  const lease = await db.call('AcquireLease', { name: pool.fence.name, holder: pool.fence.holder, ttlMs: '3600000' });
  pool.fence = { ...pool.fence, token: String(lease.lease?.token ?? '1') };
  await db.call('AcquireLease', { name: 'fuzz-lease', holder: 'holder-a', ttlMs: '60000' });

  // Its address takes no connection: the tier's own pokes to it fail fast and are only counted.
  await t.direct.query(
    `INSERT INTO tier_replicas (replica_id, owner_token, address, metrics_address, started_at, heartbeat_at)
     VALUES (?, ?, '127.0.0.1:1', '', UTC_TIMESTAMP(6), UTC_TIMESTAMP(6))`,
    [PEER.replicaId, PEER.ownerToken],
  );
  pool.replicaIds.push(PEER.replicaId, t.config.replicaId);
  pool.ownerTokens.push(PEER.ownerToken, t.tier.registry.ownerToken);
}

let batch = 0;

/**
 * Puts back what generated calls took away: deleted nodes and objects (and the instance's
 * state), and claims (two items claimed at epoch 1 when none is), keeps the peer live
 * (a replica is live while its heartbeat is younger than SFDB_REPLICA_LIVE_MS).
 */
export async function restoreFixtures(t: TestTier, db: DatabaseClient): Promise<void> {
  await t.direct.query('UPDATE tier_replicas SET heartbeat_at = UTC_TIMESTAMP(6) WHERE replica_id = ?', [PEER.replicaId]);
  const [present] = await t.direct.query(
    `SELECT uuid FROM nodes WHERE uuid IN (?) UNION ALL SELECT uuid FROM object_values WHERE uuid IN (?)
     UNION ALL SELECT uuid FROM object_states WHERE uuid = ? AND state = 'CREATED'`,
    [NODES.map((n) => n.uuid), OBJECTS.map((o) => o.uuid), uuidOf('Instance')],
  );
  const rows = (present as { uuid: string }[]).map((r) => r.uuid);
  const have = new Set(rows);
  // A create can clash with a generated node or object holding the same fqdn or uuid: left as it is.
  const quietly = (p: Promise<unknown>): Promise<unknown> => p.catch(() => undefined);
  for (const n of NODES) if (!have.has(n.uuid)) await quietly(db.call('CreateNode', n));
  for (const o of OBJECTS) {
    if (!have.has(o.uuid)) await quietly(db.call(`Create${o.type}`, { uuid: o.uuid, namespace: 'ns1', nodeUuid: NODE, staticValues: '{"name":"fuzz"}' }));
  }
  if (rows.filter((u) => u === uuidOf('Instance')).length < 2) {
    await quietly(db.call('SetObjectState', { objectType: 'INSTANCE', uuid: uuidOf('Instance'), state: 'CREATED', message: '' }));
  }
  const [claimed] = await t.direct.query(`SELECT COUNT(*) AS n FROM work_items WHERE id IN (?) AND state = 'CLAIMED'`, [pool.items.length > 0 ? pool.items : ['']]);
  if (Number((claimed as { n: string }[])[0]?.n ?? 0) === 0) {
    batch += 1;
    const items = [1, 2, 3].map((i) => id(4, batch * 16 + i));
    for (const item of items) await quietly(db.call('Enqueue', { id: item, nodeUuid: NODE, queue: 'fixture', payload: '{"n":1}', delayMs: '0' }));
    await quietly(db.call('Dequeue', { nodeUuid: NODE, queues: ['fixture'], limit: 2, leaseMs: '3600000', holder: 'fuzz' }));
    pool.items.push(...items);
  }
}
