import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Conflict, InvalidArgument } from '../../client/index.js';
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
});
