// What each mutating RPC publishes: the exact change rows it appends in the transaction
// of its write (topic, object_type, object_id, kind), nothing from the writes nobody
// waits on, and nothing from a refused call (which writes nothing at all).
import { randomUUID } from 'node:crypto';
import type { RowDataPacket } from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import { Conflict, Fenced, InvalidArgument, NotFound } from '../../client/index.js';
import { topics } from '../../proto/topics.js';
import { newNode, newObject } from '../helpers/targets.js';
import { useTestTier } from '../helpers/tier.js';

const { t, db } = useTestTier();

type Row = [topic: string, objectType: string, objectId: string, kind: string];

async function lastSeq(): Promise<string> {
  const [rows] = await t.direct.query<RowDataPacket[]>('SELECT COALESCE(MAX(seq), 0) AS seq FROM changes');
  return String(rows[0]?.['seq'] ?? '0');
}

/** The change rows `action` appended, in seq order (calls in this file run one at a time). */
async function appended(action: () => Promise<unknown>): Promise<Row[]> {
  const before = await lastSeq();
  await action();
  const [rows] = await t.direct.query<RowDataPacket[]>(
    'SELECT topic, object_type, object_id, kind FROM changes WHERE seq > ? ORDER BY seq',
    [before],
  );
  return rows.map((r) => [r['topic'], r['object_type'], r['object_id'], r['kind']] as Row);
}

/** `action` is refused with `error` and appends no change row. */
async function refused(action: () => Promise<unknown>, error: abstract new (...args: never[]) => Error): Promise<void> {
  expect(await appended(() => expect(action()).rejects.toBeInstanceOf(error))).toEqual([]);
}

const fqdnOf = (uuid: string): string => `n-${uuid.slice(0, 8)}.example.com`;

describe('daemon state', () => {
  it('SetNodeDaemonState publishes the state on the daemon topic', async () => {
    const node = await newNode(db);
    expect(await appended(() => db.setNodeDaemonState(node, 'queues', 'RUNNING'))).toEqual([
      [topics.daemonState(node, 'queues'), 'daemon_state', 'queues', 'state'],
    ]);
    // Set-to-a-value: every call is a change (the daemon re-reads its state).
    expect(await appended(() => db.setNodeDaemonState(node, 'queues', 'RUNNING'))).toEqual([
      [topics.daemonState(node, 'queues'), 'daemon_state', 'queues', 'state'],
    ]);
    await refused(() => db.setNodeDaemonState('not-a-uuid', 'queues', 'RUNNING'), InvalidArgument);
    await refused(() => db.setNodeDaemonState(randomUUID(), 'queues', 'RUNNING'), NotFound);
  });
});

describe('queue', () => {
  it('Enqueue publishes a created item, its replay nothing; Release publishes its state', async () => {
    const node = await newNode(db);
    const id = randomUUID();
    const topic = topics.queue(node, 'jobs');
    expect(await appended(() => db.enqueue({ id, nodeUuid: node, queue: 'jobs', payload: { n: 1 } }))).toEqual([
      [topic, 'work_item', id, 'created'],
    ]);
    // An idempotent replay, a conflict, a bad uuid: no row.
    expect(await appended(() => db.enqueue({ id, nodeUuid: node, queue: 'jobs', payload: { n: 1 } }))).toEqual([]);
    await refused(() => db.enqueue({ id, nodeUuid: node, queue: 'jobs', payload: { n: 2 } }), Conflict);
    await refused(() => db.enqueue({ id: 'nope', nodeUuid: node, queue: 'jobs' }), InvalidArgument);
    await refused(() => db.enqueue({ id: randomUUID(), nodeUuid: randomUUID(), queue: 'jobs' }), NotFound);

    // Claims publish nothing: Dequeue, RenewClaim, Resolve.
    let claims: Awaited<ReturnType<typeof db.dequeue>> = [];
    expect(await appended(async () => (claims = await db.dequeue({ nodeUuid: node, queues: ['jobs'], holder: 'w' })))).toEqual([]);
    const claim = claims[0];
    if (!claim) throw new Error('nothing dequeued');
    expect(await appended(() => db.renewClaim(id, claim.epoch, 5000))).toEqual([]);

    // Release: the item is due-able again.
    await refused(() => db.release(id, String(BigInt(claim.epoch) + 1n)), Fenced);
    await refused(() => db.release(randomUUID(), '1'), NotFound);
    expect(await appended(() => db.release(id, claim.epoch, { message: 'later' }))).toEqual([[topic, 'work_item', id, 'state']]);
    // The released claim is fenced now: a second release writes nothing.
    await refused(() => db.release(id, claim.epoch), Fenced);

    const again = (await db.dequeue({ nodeUuid: node, queues: ['jobs'] }))[0];
    if (!again) throw new Error('nothing dequeued');
    expect(await appended(() => db.resolve(id, again.epoch, 'SUCCEEDED'))).toEqual([]);
    // A repeated resolve succeeds without writing; a stale epoch is refused.
    expect(await appended(() => db.resolve(id, again.epoch, 'SUCCEEDED'))).toEqual([]);
    await refused(() => db.resolve(id, claim.epoch, 'FAILED'), Fenced);
  });

  it('RequeueExpiredClaims publishes one state change per requeued item, on its queue', async () => {
    const { lease } = await db.acquireLease('maintenance/publish', 'sweeper', 60_000);
    const fence = { name: lease.name, holder: 'sweeper', token: lease.token };
    const nodeA = await newNode(db);
    const nodeB = await newNode(db);
    const ids = { a1: randomUUID(), a2: randomUUID(), b1: randomUUID(), live: randomUUID() };
    await db.enqueue({ id: ids.a1, nodeUuid: nodeA, queue: 'jobs' });
    await db.enqueue({ id: ids.a2, nodeUuid: nodeA, queue: 'other' });
    await db.enqueue({ id: ids.b1, nodeUuid: nodeB, queue: 'jobs' });
    await db.enqueue({ id: ids.live, nodeUuid: nodeB, queue: 'jobs' });
    await db.dequeue({ nodeUuid: nodeA, queues: ['jobs', 'other'], limit: 2 });
    await db.dequeue({ nodeUuid: nodeB, queues: ['jobs'], limit: 2 });
    // Oldest expiry first: a2, then a1, then b1; `live` keeps its lease.
    const expire = async (id: string, seconds: number): Promise<void> => {
      await t.direct.query('UPDATE work_items SET claim_expires_at = UTC_TIMESTAMP(6) - INTERVAL ? SECOND WHERE id = ?', [seconds, id]);
    };
    await expire(ids.a2, 30);
    await expire(ids.a1, 20);
    await expire(ids.b1, 10);

    // A stale fence is refused and requeues nothing.
    await refused(() => db.requeueExpiredClaims({ ...fence, token: String(BigInt(fence.token) + 1n) }), Fenced);
    expect(await t.count('work_items', "id IN (?, ?, ?) AND state = 'CLAIMED'", [ids.a1, ids.a2, ids.b1])).toBe(3);

    // The limit takes the oldest expired claims.
    expect(await appended(() => db.requeueExpiredClaims(fence, 2))).toEqual([
      [topics.queue(nodeA, 'other'), 'work_item', ids.a2, 'state'],
      [topics.queue(nodeA, 'jobs'), 'work_item', ids.a1, 'state'],
    ]);
    expect(await appended(() => db.requeueExpiredClaims(fence))).toEqual([[topics.queue(nodeB, 'jobs'), 'work_item', ids.b1, 'state']]);
    expect(await appended(() => db.requeueExpiredClaims(fence))).toEqual([]);
    expect(await t.count('work_items', "id = ? AND state = 'CLAIMED'", [ids.live])).toBe(1);
  });
});

describe('blob transfers', () => {
  it('CreateBlobTransfer publishes a created transfer; UpdateBlobTransfer its state or progress', async () => {
    const node = await newNode(db);
    const id = randomUUID();
    const input = { id, blobUuid: await newObject(db, 'Blob'), nodeUuid: node, bytesTotal: 100 };
    const topic = topics.transfers(node);
    expect(await appended(() => db.createBlobTransfer(input))).toEqual([[topic, 'blob_transfer', id, 'created']]);
    expect(await appended(() => db.createBlobTransfer(input))).toEqual([]);
    await refused(() => db.createBlobTransfer({ ...input, bytesTotal: 101 }), Conflict);

    expect(await appended(() => db.updateBlobTransfer(id, { state: 'TRANSFER_RUNNING', bytesDone: 10 }))).toEqual([
      [topic, 'blob_transfer', id, 'state'],
    ]);
    expect(await appended(() => db.updateBlobTransfer(id, { state: 'TRANSFER_RUNNING', bytesDone: 50 }))).toEqual([
      [topic, 'blob_transfer', id, 'updated'],
    ]);
    await refused(() => db.updateBlobTransfer(id, { state: 'TRANSFER_RUNNING', bytesDone: 500 }), InvalidArgument);
    await refused(() => db.updateBlobTransfer(randomUUID(), { state: 'TRANSFER_RUNNING' }), NotFound);
    expect(await appended(() => db.updateBlobTransfer(id, { state: 'TRANSFER_COMPLETE', bytesDone: 100 }))).toEqual([
      [topic, 'blob_transfer', id, 'state'],
    ]);
    // The repeat of the finishing update answers without writing; moving on is a Conflict.
    expect(await appended(() => db.updateBlobTransfer(id, { state: 'TRANSFER_COMPLETE', bytesDone: 100 }))).toEqual([]);
    await refused(() => db.updateBlobTransfer(id, { state: 'TRANSFER_RUNNING', bytesDone: 100 }), Conflict);
  });
});

describe('static objects', () => {
  it('Create publishes on the node and namespace topics only; its replay and a conflict nothing', async () => {
    const node = await newNode(db);
    const uuid = randomUUID();
    const input = { uuid, namespace: 'tenant-a', nodeUuid: node, staticValues: { cpus: 2 } };
    expect(await appended(() => db.createInstance(input))).toEqual([
      [topics.nodeObjects(node, 'instance'), 'instance', uuid, 'created'],
      [topics.namespaceObjects('tenant-a', 'instance'), 'instance', uuid, 'created'],
    ]);
    expect(await appended(() => db.createInstance(input))).toEqual([]);
    await refused(() => db.createInstance({ ...input, staticValues: { cpus: 4 } }), Conflict);
    await refused(() => db.createInstance({ ...input, uuid: 'bad' }), InvalidArgument);

    // Only the scopes the object has; none at all: no row.
    const iface = randomUUID();
    expect(await appended(() => db.createNetworkInterface({ uuid: iface, nodeUuid: node, staticValues: {} }))).toEqual([
      [topics.nodeObjects(node, 'network_interface'), 'network_interface', iface, 'created'],
    ]);
    const net = randomUUID();
    expect(await appended(() => db.createNetwork({ uuid: net, namespace: 'tenant-a', staticValues: {} }))).toEqual([
      [topics.namespaceObjects('tenant-a', 'network'), 'network', net, 'created'],
    ]);
    expect(await appended(() => db.createBlob({ uuid: randomUUID(), staticValues: {} }))).toEqual([]);
  });

  it('Update publishes on the static topic and the object scopes', async () => {
    const uuid = randomUUID();
    const node = await newNode(db);
    await db.createArtifact({ uuid, namespace: 'builds', nodeUuid: node, staticValues: { v: 1 } });
    expect(await appended(() => db.updateArtifact(uuid, { v: 2 }))).toEqual([
      [topics.staticValues('artifact'), 'artifact', uuid, 'updated'],
      [topics.nodeObjects(node, 'artifact'), 'artifact', uuid, 'updated'],
      [topics.namespaceObjects('builds', 'artifact'), 'artifact', uuid, 'updated'],
    ]);
    const blob = randomUUID();
    await db.createBlob({ uuid: blob, staticValues: {} });
    expect(await appended(() => db.updateBlob(blob, { size: 1 }))).toEqual([[topics.staticValues('blob'), 'blob', blob, 'updated']]);
    // A stale version, a missing object: refused, no row.
    await refused(() => db.updateBlob(blob, { size: 2 }, { expectedVersion: '1' }), Conflict);
    await refused(() => db.updateBlob(randomUUID(), { size: 2 }), NotFound);
  });

  it("an update answers the seq of its static/<type> change row (a cache skips that change for a copy read after it)", async () => {
    const staticSeq = async (topic: string, id: string): Promise<string> => {
      const [rows] = await t.direct.query<RowDataPacket[]>('SELECT MAX(seq) AS seq FROM changes WHERE topic = ? AND object_id = ?', [topic, id]);
      return String(rows[0]?.['seq']);
    };
    const node = await newNode(db);
    const uuid = randomUUID();
    await db.createArtifact({ uuid, namespace: 'builds', nodeUuid: node, staticValues: { v: 1 } });
    const artifact = await db.call('UpdateArtifact', { uuid, staticValues: '{"v":2}' });
    expect(artifact.changeSeq).not.toBe('0');
    expect(artifact.changeSeq).toBe(await staticSeq(topics.staticValues('artifact'), uuid)); // not the node's or namespace's row
    const n = await db.call('UpdateNode', { uuid: node, ipAddress: '10.0.0.9', updateMask: ['ip_address'] });
    expect(n.changeSeq).not.toBe('0');
    expect(n.changeSeq).toBe(await staticSeq(topics.staticValues('node'), node));
  });

  it('Delete publishes deleted on the static topic and the object scopes, only when a row was deleted', async () => {
    const uuid = randomUUID();
    const node = await newNode(db);
    await db.createInstance({ uuid, namespace: 'tenant-b', nodeUuid: node, staticValues: {} });
    await db.setObjectState('INSTANCE', uuid, 'CREATED');
    await db.setObjectAttributes('INSTANCE', uuid, { a: 1 });
    expect(await appended(() => db.deleteInstance(uuid))).toEqual([
      [topics.staticValues('instance'), 'instance', uuid, 'deleted'],
      [topics.nodeObjects(node, 'instance'), 'instance', uuid, 'deleted'],
      [topics.namespaceObjects('tenant-b', 'instance'), 'instance', uuid, 'deleted'],
    ]);
    // Its state and attributes went with it.
    expect(await t.count('object_states', 'uuid = ?', [uuid])).toBe(0);
    expect(await t.count('object_attributes', 'uuid = ?', [uuid])).toBe(0);
    expect(await appended(() => db.deleteInstance(uuid))).toEqual([]);
    await refused(() => db.deleteInstance('bad'), InvalidArgument);
  });
});

describe('nodes', () => {
  it('UpdateNode and DeleteNode publish on static/node (DeleteNode also the states of its daemons); CreateNode and NodeHeartbeat nothing', async () => {
    const uuid = randomUUID();
    const other = randomUUID();
    expect(await appended(() => db.createNode({ uuid, fqdn: fqdnOf(uuid) }))).toEqual([]);
    await db.createNode({ uuid: other, fqdn: fqdnOf(other) });
    expect(await appended(() => db.nodeHeartbeat(uuid, { load: 1 }))).toEqual([]);
    expect(await appended(() => db.updateNode(uuid, { ipAddress: '10.0.0.1' }))).toEqual([[topics.staticValues('node'), 'node', uuid, 'updated']]);
    // A taken fqdn, a stale version, a missing node: no row.
    await refused(() => db.updateNode(uuid, { fqdn: fqdnOf(other) }), Conflict);
    await refused(() => db.updateNode(uuid, { ipAddress: '10.0.0.2' }, { expectedVersion: '1' }), Conflict);
    await refused(() => db.updateNode(randomUUID(), { ipAddress: '10.0.0.2' }), NotFound);
    expect(await appended(() => db.deleteNode(uuid))).toEqual([[topics.staticValues('node'), 'node', uuid, 'deleted']]);
    expect(await appended(() => db.deleteNode(uuid))).toEqual([]);
    await db.setNodeDaemonState(other, 'queues', 'RUNNING');
    await db.setNodeDaemonState(other, 'agent', 'RUNNING');
    expect(await appended(() => db.deleteNode(other))).toEqual([
      [topics.staticValues('node'), 'node', other, 'deleted'],
      [topics.daemonState(other, 'agent'), 'daemon_state', 'agent', 'deleted'],
      [topics.daemonState(other, 'queues'), 'daemon_state', 'queues', 'deleted'],
    ]);
    // A missing node: nothing to delete, nothing written.
    expect(await appended(() => db.deleteNode(other))).toEqual([]);
  });
});

describe('object state', () => {
  it('SetObjectState publishes state on the node and namespace topics of the object', async () => {
    const node = await newNode(db);
    const uuid = randomUUID();
    await db.createInstance({ uuid, namespace: 'tenant-c', nodeUuid: node, staticValues: {} });
    expect(await appended(() => db.setObjectState('INSTANCE', uuid, 'CREATING'))).toEqual([
      [topics.nodeObjects(node, 'instance'), 'instance', uuid, 'state'],
      [topics.namespaceObjects('tenant-c', 'instance'), 'instance', uuid, 'state'],
    ]);
    expect(await appended(() => db.deleteObjectState('INSTANCE', uuid))).toEqual([
      [topics.nodeObjects(node, 'instance'), 'instance', uuid, 'deleted'],
      [topics.namespaceObjects('tenant-c', 'instance'), 'instance', uuid, 'deleted'],
    ]);
    expect(await appended(() => db.deleteObjectState('INSTANCE', uuid))).toEqual([]);

    // Only a namespace; neither: nothing (no waiter can scope on it).
    const upload = randomUUID();
    await db.createUpload({ uuid: upload, namespace: 'tenant-c', staticValues: {} });
    expect(await appended(() => db.setObjectState('UPLOAD', upload, 'CREATED'))).toEqual([
      [topics.namespaceObjects('tenant-c', 'upload'), 'upload', upload, 'state'],
    ]);
    const blob = randomUUID();
    await db.createBlob({ uuid: blob, staticValues: {} });
    expect(await appended(() => db.setObjectState('BLOB', blob, 'CREATED'))).toEqual([]);
    expect(await appended(() => db.deleteObjectState('BLOB', blob))).toEqual([]);

    // A node's state is placed on the node itself.
    const n = randomUUID();
    await db.createNode({ uuid: n, fqdn: fqdnOf(n) });
    expect(await appended(() => db.setObjectState('NODE', n, 'CREATED'))).toEqual([[topics.nodeObjects(n, 'node'), 'node', n, 'state']]);
    expect(await appended(() => db.deleteObjectState('NODE', n))).toEqual([[topics.nodeObjects(n, 'node'), 'node', n, 'deleted']]);

    // A missing object, a bad uuid: refused, nothing written.
    await refused(() => db.setObjectState('INSTANCE', randomUUID(), 'CREATED'), NotFound);
    await refused(() => db.setObjectState('INSTANCE', 'bad', 'CREATED'), InvalidArgument);
  });

  it('attributes, events and leases publish nothing', async () => {
    const uuid = randomUUID();
    const node = await newNode(db);
    await db.createInstance({ uuid, nodeUuid: node, staticValues: {} });
    expect(await appended(() => db.setObjectAttributes('INSTANCE', uuid, { cpu: 0.5 }))).toEqual([]);
    expect(await appended(() => db.deleteObjectAttributes('INSTANCE', uuid, ['cpu']))).toEqual([]);
    expect(await appended(() => db.recordEvents([{ objectType: 'INSTANCE', objectUuid: uuid, eventType: 'booted' }]))).toEqual([]);
    expect(await appended(() => db.acquireLease(`publish/${uuid}`, 'holder', 10_000))).toEqual([]);
  });
});

describe('ipam, references, cluster config', () => {
  it('ReserveAddress and ReleaseAddress publish on ipam-reservations only when they change something', async () => {
    const ipam = await newObject(db, 'IPAM');
    const owner = await newObject(db, 'Instance');
    const reserve = { ipamUuid: ipam, address: '10.1.0.5', ownerType: 'INSTANCE' as const, ownerUuid: owner };
    const row: Row = [topics.ipamReservations(), 'ipam_reservation', ipam, 'updated'];
    expect(await appended(() => db.reserveAddress(reserve))).toEqual([row]);
    expect(await appended(() => db.reserveAddress(reserve))).toEqual([]);
    await refused(async () => db.reserveAddress({ ...reserve, ownerUuid: await newObject(db, 'Instance') }), Conflict);
    await refused(() => db.reserveAddress({ ...reserve, ipamUuid: randomUUID() }), NotFound);
    await refused(() => db.releaseAddress(ipam, '10.1.0.5', { ownerUuid: randomUUID() }), Conflict);
    expect(await appended(() => db.releaseAddress(ipam, '10.1.0.5', { ownerUuid: owner }))).toEqual([row]);
    expect(await appended(() => db.releaseAddress(ipam, '10.1.0.5'))).toEqual([]);
    await db.reserveAddress(reserve);
    expect(await appended(() => db.releaseAddress(ipam, '10.1.0.5'))).toEqual([row]);
    await refused(() => db.releaseAddress(ipam, 'not-an-address'), InvalidArgument);
  });

  it('RecordReference and RemoveReference publish on the target type', async () => {
    const ref = { fromType: 'NETWORK_INTERFACE' as const, fromUuid: await newObject(db, 'NetworkInterface'), toType: 'NETWORK' as const, toUuid: await newObject(db, 'Network'), relation: 'on' };
    expect(await appended(() => db.recordReference(ref))).toEqual([[topics.references('network'), 'reference', ref.toUuid, 'created']]);
    expect(await appended(() => db.recordReference(ref))).toEqual([]);
    expect(await appended(() => db.removeReference(ref))).toEqual([[topics.references('network'), 'reference', ref.toUuid, 'deleted']]);
    expect(await appended(() => db.removeReference(ref))).toEqual([]);
    await refused(() => db.recordReference({ ...ref, toUuid: 'bad' }), InvalidArgument);
    await refused(() => db.recordReference({ ...ref, toUuid: randomUUID() }), NotFound);
  });

  it('SetClusterConfig publishes the key; a version conflict nothing', async () => {
    const key = `publish.${randomUUID().slice(0, 8)}`;
    const row: Row = [topics.clusterConfig(), 'cluster_config', key, 'updated'];
    expect(await appended(() => db.setClusterConfig(key, { a: 1 }, { expectedVersion: -1 }))).toEqual([row]);
    await refused(() => db.setClusterConfig(key, { a: 2 }, { expectedVersion: -1 }), Conflict);
    await refused(() => db.setClusterConfig(key, { a: 2 }, { expectedVersion: 7 }), Conflict);
    expect(await appended(() => db.setClusterConfig(key, { a: 2 }, { expectedVersion: 1 }))).toEqual([row]);
    expect(await appended(() => db.setClusterConfig(key, { a: 3 }))).toEqual([row]);
    expect((await db.getClusterConfig(key))?.value).toEqual({ a: 3 });
  });
});
