import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Conflict, Fenced, InvalidArgument } from '../../client/index.js';
import { checksums, comparedTables } from '../property/raw.js';
import { newNode, newObject } from '../helpers/targets.js';
import { useTestTier } from '../helpers/tier.js';

const { t, db } = useTestTier();

describe('nodes', () => {
  it('creates, reads, updates, lists and deletes a node', async () => {
    const uuid = randomUUID();
    const { node, created } = await db.createNode({ uuid, fqdn: `n-${uuid.slice(0, 8)}.example.com`, ipAddress: '10.0.0.1' });
    expect(created).toBe(true);
    expect(node).toMatchObject({ uuid, ipAddress: '10.0.0.1', version: '1' });
    expect(node.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);

    // Idempotent create: same values answer created=false; other values conflict.
    expect((await db.createNode({ uuid, fqdn: node.fqdn, ipAddress: '10.0.0.1' })).created).toBe(false);
    await expect(db.createNode({ uuid, fqdn: node.fqdn, ipAddress: '10.0.0.2' })).rejects.toBeInstanceOf(Conflict);

    expect(await db.getNode(uuid)).toEqual(node);
    expect(await db.getNodeByFqdn(node.fqdn)).toEqual(node);
    expect(await db.getNode(randomUUID())).toBeUndefined();

    const updated = await db.updateNode(uuid, { ipAddress: '10.0.0.9' }, { expectedVersion: '1' });
    expect(updated).toMatchObject({ ipAddress: '10.0.0.9', version: '2', fqdn: node.fqdn });
    await expect(db.updateNode(uuid, { ipAddress: '10.0.0.8' }, { expectedVersion: '1' })).rejects.toBeInstanceOf(Conflict);

    const page = await db.listNodes({ pageSize: 10 });
    expect(page.items.map((n) => n.uuid)).toContain(uuid);

    await db.setObjectState('NODE', uuid, 'CREATED');
    await db.setObjectAttributes('NODE', uuid, { rack: 'r1' });
    expect(await db.deleteNode(uuid)).toBe(true);
    expect(await db.deleteNode(uuid)).toBe(false);
    expect(await t.count('object_states', 'uuid = ?', [uuid])).toBe(0);
    expect(await t.count('object_attributes', 'uuid = ?', [uuid])).toBe(0);
    expect(await db.getNode(uuid)).toBeUndefined();
  });

  it('stores and looks up an fqdn in one normal form: lower case, no trailing dot', async () => {
    const uuid = randomUUID();
    const name = `case-${uuid.slice(0, 8)}.example`;
    const { node } = await db.createNode({ uuid, fqdn: name });
    expect(node.fqdn).toBe(name);
    // The same node, however spelled: create answers created=false; another uuid conflicts.
    for (const spelling of [`${name}.`, name.toUpperCase(), `${name.toUpperCase()}.`]) {
      expect((await db.createNode({ uuid, fqdn: spelling })).created, spelling).toBe(false);
      await expect(db.createNode({ uuid: randomUUID(), fqdn: spelling }), spelling).rejects.toBeInstanceOf(Conflict);
      expect((await db.getNodeByFqdn(spelling))?.uuid, spelling).toBe(uuid);
    }
    expect(await t.count('nodes', 'fqdn LIKE ?', [`%case-${uuid.slice(0, 8)}%`])).toBe(1);
    // An update stores the normal form.
    const renamed = await db.updateNode(uuid, { fqdn: `Renamed-${uuid.slice(0, 8)}.Example.` });
    expect(renamed.fqdn).toBe(`renamed-${uuid.slice(0, 8)}.example`);
    expect((await db.getNodeByFqdn(`renamed-${uuid.slice(0, 8)}.example.`))?.uuid).toBe(uuid);
    // The table refuses any other form (migration 0011's CHECK), whoever writes it.
    await expect(t.direct.query('UPDATE nodes SET fqdn = ? WHERE uuid = ?', [`${renamed.fqdn}.`, uuid])).rejects.toThrow(/nodes_fqdn_normal/);
    await expect(t.direct.query('UPDATE nodes SET fqdn = ? WHERE uuid = ?', [renamed.fqdn.toUpperCase(), uuid])).rejects.toThrow(/nodes_fqdn_normal/);
  });

  it('records heartbeats by database time and reports cluster status', async () => {
    const uuid = randomUUID();
    await db.createNode({ uuid, fqdn: `hb-${uuid.slice(0, 8)}.example.com` });
    const at = await db.nodeHeartbeat(uuid, { load: 0.5 });
    expect(at).toMatch(/Z$/);
    const status = await db.getClusterStatus();
    const mine = status.nodes.find((n) => n.nodeUuid === uuid);
    expect(mine).toMatchObject({ live: true, stats: '{"load":0.5}' });
    expect(Number(mine?.heartbeatAgeMs)).toBeGreaterThanOrEqual(0);
  });

  it('refuses bad input naming the field and writes nothing', async () => {
    const before = await t.count('nodes');
    const heartbeatsBefore = await t.count('node_heartbeats');
    const cases: [() => Promise<unknown>, string][] = [
      [() => db.createNode({ uuid: 'not-a-uuid', fqdn: 'a.example.com' }), 'uuid'],
      [() => db.createNode({ uuid: randomUUID(), fqdn: 'x'.repeat(300) }), 'fqdn'],
      [() => db.createNode({ uuid: randomUUID(), fqdn: 'ok.example.com', ipAddress: '999.1.1.1' }), 'ip_address'],
      [() => db.listNodes({ pageSize: 1001 }), 'page_size'],
      [() => db.listNodes({ pageToken: '!!garbage' }), 'page_token'],
      [() => db.nodeHeartbeat(randomUUID(), 'x'.repeat(20_000) as unknown as object), 'stats'],
      [() => db.call('NodeHeartbeat', { nodeUuid: randomUUID(), stats: '{not json' }), 'stats'],
      [() => db.call('NodeHeartbeat', { nodeUuid: randomUUID(), stats: JSON.stringify({ pad: 'x'.repeat(17_000) }) }), 'stats'],
      [() => db.call('NodeHeartbeat', { nodeUuid: randomUUID(), stats: `{"a":${'['.repeat(40)}${']'.repeat(40)}}` }), 'stats'],
    ];
    for (const [call, field] of cases) {
      const err = await call().then(() => undefined, (e: unknown) => e);
      expect(err, field).toBeInstanceOf(InvalidArgument);
      expect((err as InvalidArgument).field).toBe(field);
    }
    expect(await t.count('nodes')).toBe(before);
    expect(await t.count('node_heartbeats')).toBe(heartbeatsBefore);
  });

  describe('DeleteNode', () => {
    /** Every table's checksum (but the tier's bookkeeping): "nothing written" when equal. */
    const snapshot = async (): Promise<Map<string, string>> => checksums(t.direct, await comparedTables(t.direct));

    /** Rows of every table that name `node` by a node_uuid column (what hangs off a node), by table. */
    async function rowsNaming(node: string): Promise<Record<string, number>> {
      const [columns] = await t.direct.query(
        "SELECT table_name AS name FROM information_schema.columns WHERE table_schema = DATABASE() AND column_name = 'node_uuid' ORDER BY table_name",
      );
      const counts: Record<string, number> = { nodes: await t.count('nodes', 'uuid = ?', [node]) };
      for (const { name } of columns as { name: string }[]) counts[name] = await t.count(name, 'node_uuid = ?', [node]);
      for (const table of ['object_states', 'object_attributes']) counts[`${table} (the node's own)`] = await t.count(table, "object_type = 'node' AND uuid = ?", [node]);
      return counts;
    }

    /** A node with a row in every table that hangs off it; its transfer comes from `source`. */
    async function busyNode(source: string, blob: string): Promise<string> {
      const node = await newNode(db);
      await db.nodeHeartbeat(node, { load: 1 });
      await db.setNodeDaemonState(node, 'queues', 'RUNNING');
      await db.setNodeDaemonState(node, 'agent', 'RUNNING');
      for (let i = 0; i < 3; i++) await db.enqueue({ id: randomUUID(), nodeUuid: node, queue: 'jobs', payload: { i } });
      const [claimed, done] = await db.dequeue({ nodeUuid: node, queues: ['jobs'], limit: 2 });
      if (claimed === undefined || done === undefined) throw new Error('two claims expected');
      await db.resolve(done.item.id, done.epoch, 'SUCCEEDED');
      await db.createBlobTransfer({ id: randomUUID(), blobUuid: blob, nodeUuid: node, sourceNodeUuid: source, bytesTotal: 10 });
      await db.setObjectState('NODE', node, 'CREATED');
      await db.setObjectAttributes('NODE', node, { rack: 'r1' });
      return node;
    }

    it('removes the node and every row that hangs off it, in one transaction; other nodes keep theirs', async () => {
      const blob = await newObject(db, 'Blob');
      const other = await newNode(db);
      const node = await busyNode(other, blob);
      const neighbour = await busyNode(node, blob); // receives a transfer from `node`
      const before = await rowsNaming(node);
      // The fixture is complete: every table that names a node has a row of it — but the
      // placement of objects (object_values, and object_states copying it), which refuses the
      // delete (the next test).
      const placement = new Set(['object_values', 'object_states']);
      expect(Object.entries(before).filter(([table, n]) => n === 0 && !placement.has(table))).toEqual([]);
      const neighbourBefore = await rowsNaming(neighbour);

      expect(await db.deleteNode(node)).toBe(true);
      expect(Object.values(await rowsNaming(node)).every((n) => n === 0), JSON.stringify(await rowsNaming(node))).toBe(true);
      expect(await rowsNaming(neighbour)).toEqual(neighbourBefore);
      // A transfer another node receives from it stays: it is that node's (docs/contract.md, "Not covered").
      expect(await t.count('blob_transfers', 'source_node_uuid = ?', [node])).toBe(1);
      // Its objects' writes now name nothing.
      await expect(db.nodeHeartbeat(node, {})).rejects.toMatchObject({ name: 'NotFound', field: 'node_uuid' });
    });

    it('refuses, writing nothing, while an object is placed on the node; deletes once it is gone', async () => {
      const blob = await newObject(db, 'Blob');
      const node = await busyNode(await newNode(db), blob);
      const instance = await newObject(db, 'Instance', { nodeUuid: node });
      const before = await snapshot();
      const err = await db.deleteNode(node).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(Fenced);
      expect((err as Fenced).message).toContain(`uuid: node ${node} has objects placed on it (instance ${instance})`);
      expect(await snapshot()).toEqual(before);
      expect(await db.deleteInstance(instance)).toBe(true);
      expect(await db.deleteNode(node)).toBe(true);
      expect(await t.count('nodes', 'uuid = ?', [node])).toBe(0);
    });

    it('answers deleted=false for a node that does not exist and writes nothing, even rows an earlier release left under its uuid', async () => {
      const ghost = randomUUID();
      // What releases before the rule accepted: rows for a node never created.
      await t.direct.query("INSERT INTO node_heartbeats (node_uuid, heartbeat_at, stats) VALUES (?, UTC_TIMESTAMP(6), '{}')", [ghost]);
      await t.direct.query("INSERT INTO node_daemon_states (node_uuid, daemon, state, updated_at) VALUES (?, 'queues', 'RUNNING', UTC_TIMESTAMP(6))", [ghost]);
      await t.direct.query(
        `INSERT INTO work_items (id, node_uuid, queue, payload, state, not_before, created_at, updated_at)
         VALUES (?, ?, 'jobs', '{}', 'QUEUED', UTC_TIMESTAMP(6), UTC_TIMESTAMP(6), UTC_TIMESTAMP(6))`,
        [randomUUID(), ghost],
      );
      const before = await snapshot();
      expect(await db.deleteNode(ghost)).toBe(false);
      expect(await snapshot()).toEqual(before);
    });
  });
});
