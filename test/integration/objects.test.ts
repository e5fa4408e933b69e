// Objects: static values per type, through the real client and server.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Conflict, InvalidArgument, NotFound } from '../../client/index.js';
import type { StaticObject } from '../../client/index.js';
import { newNode } from '../helpers/targets.js';
import { useTestTier } from '../helpers/tier.js';

const { t, db } = useTestTier();

type Create = (input: { uuid: string; namespace?: string; nodeUuid?: string; staticValues: object }) => Promise<{ object: StaticObject; created: boolean }>;
type Get = (uuid: string) => Promise<StaticObject | undefined>;
type List = (scope?: { namespace?: string; nodeUuid?: string; pageSize?: number; pageToken?: string }) => Promise<{ items: StaticObject[]; nextPageToken: string }>;
type Delete = (uuid: string) => Promise<boolean>;

/** Every static type, its object_type column, and its client methods, bound to `db`. */
function staticTypes(): { name: string; column: string; create: Create; get: Get; list: List; remove: Delete }[] {
  return [
    { name: 'Instance', column: 'instance', create: db.createInstance, get: db.getInstance, list: db.listInstances, remove: db.deleteInstance },
    { name: 'Network', column: 'network', create: db.createNetwork, get: db.getNetwork, list: db.listNetworks, remove: db.deleteNetwork },
    {
      name: 'NetworkInterface',
      column: 'network_interface',
      create: db.createNetworkInterface,
      get: db.getNetworkInterface,
      list: db.listNetworkInterfaces,
      remove: db.deleteNetworkInterface,
    },
    { name: 'IPAM', column: 'ipam', create: db.createIPAM, get: db.getIPAM, list: db.listIPAMs, remove: db.deleteIPAM },
    {
      name: 'AgentOperation',
      column: 'agent_operation',
      create: db.createAgentOperation,
      get: db.getAgentOperation,
      list: db.listAgentOperations,
      remove: db.deleteAgentOperation,
    },
    { name: 'Blob', column: 'blob', create: db.createBlob, get: db.getBlob, list: db.listBlobs, remove: db.deleteBlob },
    { name: 'Artifact', column: 'artifact', create: db.createArtifact, get: db.getArtifact, list: db.listArtifacts, remove: db.deleteArtifact },
    { name: 'Upload', column: 'upload', create: db.createUpload, get: db.getUpload, list: db.listUploads, remove: db.deleteUpload },
    { name: 'Namespace', column: 'namespace', create: db.createNamespace, get: db.getNamespace, list: db.listNamespaces, remove: db.deleteNamespace },
  ];
}

/** Walks every page of a listing, answering the uuids in order. */
async function walk(list: List, scope: { namespace?: string; nodeUuid?: string }, pageSize: number): Promise<{ uuids: string[]; pages: number }> {
  const uuids: string[] = [];
  let pageToken = '';
  let pages = 0;
  do {
    const p = await list({ ...scope, pageSize, pageToken });
    expect(p.items.length).toBeLessThanOrEqual(pageSize);
    uuids.push(...p.items.map((o) => o.uuid));
    pageToken = p.nextPageToken;
    pages++;
  } while (pageToken !== '');
  return { uuids, pages };
}

describe('static objects', () => {
  it('creates, reads, lists and deletes an object of every type', async () => {
    for (const type of staticTypes()) {
      const uuid = randomUUID();
      const namespace = `ns-${type.column}-${uuid.slice(0, 8)}`;
      const nodeUuid = await newNode(db);
      const { object, created } = await type.create({ uuid, namespace, nodeUuid, staticValues: { kind: type.name, n: 1 } });
      expect(created, type.name).toBe(true);
      expect(object).toMatchObject({ uuid, namespace, nodeUuid, version: '1', staticValues: { kind: type.name, n: 1 } });
      expect(object.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
      expect(await t.count('object_values', 'object_type = ? AND uuid = ?', [type.column, uuid])).toBe(1);

      expect(await type.get(uuid), type.name).toEqual(object);
      expect(await type.get(randomUUID())).toBeUndefined();
      expect((await type.list({ namespace })).items).toEqual([object]);

      expect(await type.remove(uuid), type.name).toBe(true);
      expect(await type.remove(uuid)).toBe(false);
      expect(await type.get(uuid)).toBeUndefined();
    }
    // Typed RPCs per type: the per-operation counter tells GetIPAM from GetBlob.
    const metrics = await t.metrics();
    for (const type of staticTypes()) {
      for (const op of [`Create${type.name}`, `Get${type.name}`, `List${type.name}s`, `Delete${type.name}`]) {
        expect(metrics, op).toMatch(new RegExp(`database_requests_total\\{[^}]*operation="${op}"`));
      }
    }
  });

  it('keeps the types apart: the same uuid is a different object in each type', async () => {
    const uuid = randomUUID();
    await db.createInstance({ uuid, staticValues: { a: 1 } });
    expect(await db.getNetwork(uuid)).toBeUndefined();
    const { created } = await db.createNetwork({ uuid, staticValues: { b: 2 } });
    expect(created).toBe(true);
    expect((await db.getInstance(uuid))?.staticValues).toEqual({ a: 1 });
    expect(await db.deleteNetwork(uuid)).toBe(true);
    expect(await db.getInstance(uuid)).toBeDefined();
  });

  it('is idempotent on identical create and conflicts on different values', async () => {
    const uuid = randomUUID();
    const nodeUuid = await newNode(db);
    const input = { uuid, namespace: 'idem', nodeUuid, staticValues: { image: 'debian', cpus: 2 } };
    const first = await db.createInstance(input);
    expect(first.created).toBe(true);
    const again = await db.createInstance(input);
    expect(again).toEqual({ object: first.object, created: false });

    for (const other of [
      { ...input, staticValues: { image: 'debian', cpus: 4 } },
      // Byte-wise comparison: the same members in another order are other bytes.
      { ...input, staticValues: { cpus: 2, image: 'debian' } },
      { ...input, namespace: 'other' },
      { ...input, namespace: undefined },
      { ...input, nodeUuid: await newNode(db) },
    ]) {
      await expect(db.createInstance(other)).rejects.toBeInstanceOf(Conflict);
    }
    expect(await t.count('object_values', 'uuid = ?', [uuid])).toBe(1);
  });

  it('stores and answers the static values text exactly as sent', async () => {
    const uuid = randomUUID();
    const text = '{ "b" : 1,\n  "a": [1, 2.50, 1e3], "u": "\\u00e9 é 😀" }';
    const r = await db.call('CreateBlob', { uuid, staticValues: text });
    expect(r.object?.staticValues).toBe(text);
    const got = await db.getBlob(uuid);
    expect(got?.staticValuesJson).toBe(text);
    expect(got?.staticValues).toEqual({ b: 1, a: [1, 2.5, 1000], u: 'é é 😀' });
    // Idempotency compares those bytes.
    expect((await db.call('CreateBlob', { uuid, staticValues: text })).created).toBe(false);
    // Empty static values mean {}.
    const empty = randomUUID();
    expect((await db.call('CreateBlob', { uuid: empty })).object?.staticValues).toBe('{}');
  });

  it('updates the upgradeable types, bumping the version, with an optional expected version', async () => {
    const upgradeable = [
      { create: db.createBlob, update: db.updateBlob, get: db.getBlob },
      { create: db.createArtifact, update: db.updateArtifact, get: db.getArtifact },
      { create: db.createUpload, update: db.updateUpload, get: db.getUpload },
      { create: db.createNamespace, update: db.updateNamespace, get: db.getNamespace },
    ];
    for (const type of upgradeable) {
      const uuid = randomUUID();
      const { object } = await type.create({ uuid, namespace: 'upd', staticValues: { v: 1 } });
      const v2 = await type.update(uuid, { v: 2 });
      expect(v2).toMatchObject({ uuid, namespace: 'upd', version: '2', staticValues: { v: 2 }, createdAt: object.createdAt });
      const v3 = await type.update(uuid, { v: 3 }, { expectedVersion: '2' });
      expect(v3.version).toBe('3');
      const err = await type.update(uuid, { v: 4 }, { expectedVersion: '2' }).then(() => undefined, (e: unknown) => e);
      expect(err).toBeInstanceOf(Conflict);
      expect((err as Conflict).message).toMatch(/version 3/);
      expect(await type.get(uuid)).toEqual(v3);
      await expect(type.update(randomUUID(), { v: 1 })).rejects.toBeInstanceOf(NotFound);
      // The original create no longer describes the object.
      await expect(type.create({ uuid, namespace: 'upd', staticValues: { v: 1 } })).rejects.toBeInstanceOf(Conflict);
    }
  });

  it('has no update for the immutable types', () => {
    const api = db as unknown as Record<string, unknown>;
    for (const name of ['Instance', 'Network', 'NetworkInterface', 'IPAM', 'AgentOperation']) {
      expect(api[`update${name}`], name).toBeUndefined();
      expect(typeof api[`create${name}`]).toBe('function');
    }
    for (const name of ['Blob', 'Artifact', 'Upload', 'Namespace']) expect(typeof api[`update${name}`]).toBe('function');
    // @ts-expect-error an immutable type has no update method
    expect(db.updateInstance).toBeUndefined();
  });

  it('walks every page exactly once, whole type and scoped by namespace, node or both', async () => {
    const namespace = `walk-${randomUUID().slice(0, 8)}`;
    const nodeA = await newNode(db);
    const nodeB = await newNode(db);
    const made: { uuid: string; node: string }[] = [];
    for (let i = 0; i < 23; i++) {
      const uuid = randomUUID();
      const node = i % 3 === 0 ? nodeA : nodeB;
      await db.createNetworkInterface({ uuid, namespace, nodeUuid: node, staticValues: { i } });
      made.push({ uuid, node });
    }
    // Outside the namespace, on node A: listed by node, not by namespace.
    const stray = randomUUID();
    await db.createNetworkInterface({ uuid: stray, namespace: 'elsewhere', nodeUuid: nodeA, staticValues: {} });
    const sorted = (xs: string[]): string[] => [...xs].sort();

    const byNamespace = await walk(db.listNetworkInterfaces, { namespace }, 5);
    expect(byNamespace.uuids).toEqual(sorted(made.map((m) => m.uuid)));
    expect(byNamespace.pages).toBe(5);

    const onA = made.filter((m) => m.node === nodeA).map((m) => m.uuid);
    expect((await walk(db.listNetworkInterfaces, { nodeUuid: nodeA }, 2)).uuids).toEqual(sorted([...onA, stray]));
    expect((await walk(db.listNetworkInterfaces, { namespace, nodeUuid: nodeA }, 2)).uuids).toEqual(sorted(onA));

    const everything = await walk(db.listNetworkInterfaces, {}, 7);
    expect(everything.uuids).toEqual(sorted([...made.map((m) => m.uuid), stray]));
    expect(new Set(everything.uuids).size).toBe(everything.uuids.length);
    // Other types are not listed.
    expect((await db.listInstances({ namespace })).items).toEqual([]);
  });

  it('refuses bad input naming the field and writes nothing', async () => {
    const before = await t.count('object_values');
    const uuid = randomUUID();
    await db.createBlob({ uuid, staticValues: { keep: true } });
    const cases: [() => Promise<unknown>, string][] = [
      [() => db.createInstance({ uuid: 'not-a-uuid', staticValues: {} }), 'uuid'],
      [() => db.createInstance({ uuid: randomUUID().toUpperCase(), staticValues: {} }), 'uuid'],
      [() => db.createInstance({ uuid: randomUUID(), nodeUuid: 'node-1', staticValues: {} }), 'node_uuid'],
      [() => db.createInstance({ uuid: randomUUID(), namespace: 'n'.repeat(129), staticValues: {} }), 'namespace'],
      [() => db.createInstance({ uuid: randomUUID(), namespace: 'Bad Name', staticValues: {} }), 'namespace'],
      [() => db.call('CreateInstance', { uuid: randomUUID(), staticValues: '{not json' }), 'static_values'],
      [() => db.call('CreateInstance', { uuid: randomUUID(), staticValues: '[1, 2]' }), 'static_values'],
      // JSON.parse takes these, MariaDB's JSON_VALID does not (nesting deeper than 32, a lone surrogate).
      [() => db.call('CreateInstance', { uuid: randomUUID(), staticValues: `{"a":${'['.repeat(33)}${']'.repeat(33)}}` }), 'static_values'],
      [() => db.call('CreateInstance', { uuid: randomUUID(), staticValues: '{"a":"\\ud800"}' }), 'static_values'],
      [() => db.call('UpdateBlob', { uuid, staticValues: '{"a":"\\ud800"}' }), 'static_values'],
      [() => db.createInstance({ uuid: randomUUID(), staticValues: { pad: 'x'.repeat(64 * 1024) } }), 'static_values'],
      [() => db.updateBlob(uuid, { pad: 'x'.repeat(64 * 1024) }), 'static_values'],
      [() => db.call('UpdateBlob', { uuid, staticValues: '{"a":' }), 'static_values'],
      [() => db.updateBlob(uuid, {}, { expectedVersion: '-1' }), 'expected_version'],
      [() => db.getInstance('x'), 'uuid'],
      [() => db.deleteInstance(''), 'uuid'],
      [() => db.listInstances({ pageSize: 1001 }), 'page_size'],
      [() => db.listInstances({ pageSize: -1 }), 'page_size'],
      [() => db.listInstances({ pageToken: '!!garbage' }), 'page_token'],
      [() => db.listInstances({ pageToken: Buffer.from('["a","b"]').toString('base64url') }), 'page_token'],
      [() => db.listInstances({ nodeUuid: 'nope' }), 'node_uuid'],
      [() => db.listInstances({ namespace: 'x'.repeat(200) }), 'namespace'],
    ];
    for (const [call, field] of cases) {
      const err = await call().then(() => undefined, (e: unknown) => e);
      expect(err, field).toBeInstanceOf(InvalidArgument);
      expect((err as InvalidArgument).field, String(err)).toBe(field);
    }
    expect(await t.count('object_values')).toBe(before + 1);
    expect((await db.getBlob(uuid))?.version).toBe('1');
  });
});
