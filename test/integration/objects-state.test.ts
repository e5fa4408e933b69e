// Objects: state and attributes (generic, type-keyed), delete cascades, index use.
import { randomUUID } from 'node:crypto';
import mysql from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import { InvalidArgument, NotFound } from '../../client/index.js';
import type { ObjectStateRecord } from '../../client/index.js';
import { listObjects } from '../../server/rpc/objects/queries.js';
import { listByState } from '../../server/rpc/objects/state-queries.js';
import { checksums, comparedTables } from '../property/raw.js';
import { newNode } from '../helpers/targets.js';
import { useTestTier } from '../helpers/tier.js';
import { explainStatement } from '../helpers/explain.js';
import { metricValue } from '../../harness/scrape.js';

const { t, db } = useTestTier();

async function walkByState(input: { objectType: 'INSTANCE'; state: 'CREATED' | 'ERRORED'; nodeUuid?: string }, pageSize: number): Promise<string[]> {
  const uuids: string[] = [];
  let pageToken = '';
  do {
    const p = await db.listObjectsByState({ ...input, pageSize, pageToken });
    expect(p.items.length).toBeLessThanOrEqual(pageSize);
    uuids.push(...p.items.map((s: ObjectStateRecord) => s.uuid));
    pageToken = p.nextPageToken;
  } while (pageToken !== '');
  return uuids;
}

describe('object state', () => {
  it('sets, reads and deletes a state, copying the node from the static values', async () => {
    const uuid = randomUUID();
    const nodeUuid = await newNode(db);
    await db.createInstance({ uuid, nodeUuid, staticValues: {} });
    expect(await db.getObjectState('INSTANCE', uuid)).toBeUndefined();

    const set = await db.setObjectState('INSTANCE', uuid, 'CREATING', 'booting');
    expect(set).toMatchObject({ objectType: 'INSTANCE', uuid, nodeUuid, state: 'CREATING', message: 'booting' });
    expect(set.updatedAt).toMatch(/Z$/);
    const again = await db.setObjectState('INSTANCE', uuid, 'CREATED');
    expect(again).toMatchObject({ state: 'CREATED', message: '', nodeUuid });
    expect(await db.getObjectState('INSTANCE', uuid)).toEqual(again);
    // Keyed by type: the same uuid has no network state.
    expect(await db.getObjectState('NETWORK', uuid)).toBeUndefined();

    expect(await db.deleteObjectState('INSTANCE', uuid)).toBe(true);
    expect(await db.deleteObjectState('INSTANCE', uuid)).toBe(false);
    expect(await db.getObjectState('INSTANCE', uuid)).toBeUndefined();
    expect(await db.getInstance(uuid)).toBeDefined();
  });

  it('places a node on itself and refuses a state for an object that does not exist', async () => {
    const node = randomUUID();
    await db.createNode({ uuid: node, fqdn: `s-${node.slice(0, 8)}.example.com` });
    expect(await db.setObjectState('NODE', node, 'CREATED')).toMatchObject({ objectType: 'NODE', uuid: node, nodeUuid: node });

    const before = await t.count('object_states');
    await expect(db.setObjectState('INSTANCE', randomUUID(), 'CREATED')).rejects.toBeInstanceOf(NotFound);
    await expect(db.setObjectState('NODE', randomUUID(), 'CREATED')).rejects.toBeInstanceOf(NotFound);
    expect(await t.count('object_states')).toBe(before);
  });

  it('lists objects by state, whole type and scoped by node, every page exactly once', async () => {
    const nodeA = await newNode(db);
    const nodeB = await newNode(db);
    const created: { uuid: string; node: string }[] = [];
    for (let i = 0; i < 17; i++) {
      const uuid = randomUUID();
      const node = i % 2 === 0 ? nodeA : nodeB;
      await db.createInstance({ uuid, nodeUuid: node, staticValues: { i } });
      await db.setObjectState('INSTANCE', uuid, i % 5 === 4 ? 'ERRORED' : 'CREATED');
      if (i % 5 !== 4) created.push({ uuid, node });
    }
    // Another type in the same state is not listed.
    const net = randomUUID();
    await db.createNetwork({ uuid: net, nodeUuid: nodeA, staticValues: {} });
    await db.setObjectState('NETWORK', net, 'CREATED');

    const sorted = (xs: string[]): string[] => [...xs].sort();
    const all = await walkByState({ objectType: 'INSTANCE', state: 'CREATED' }, 4);
    expect(all).toEqual(sorted(created.map((c) => c.uuid)));
    const onA = await walkByState({ objectType: 'INSTANCE', state: 'CREATED', nodeUuid: nodeA }, 3);
    expect(onA).toEqual(sorted(created.filter((c) => c.node === nodeA).map((c) => c.uuid)));
    expect(await walkByState({ objectType: 'INSTANCE', state: 'ERRORED' }, 1)).toHaveLength(3);
    expect((await db.listObjectsByState({ objectType: 'INSTANCE', state: 'DELETING' })).items).toEqual([]);
  });

  it('uses its index for ListInstances by namespace and ListObjectsByState', async () => {
    // EXPLAIN the very statements the handlers run: capture them through a recording Sql.
    const explain = async (run: Parameters<typeof explainStatement>[1]): Promise<string[]> => {
      const plan = await explainStatement(t.direct, run);
      // A seek into the index (not a full scan of it), and no sort: the index gives uuid order.
      for (const step of plan) {
        expect(['ref', 'range']).toContain(step.type);
        expect(step.Extra ?? '').not.toMatch(/filesort/);
      }
      return plan.map((r) => String(r.key));
    };
    const after = randomUUID();
    const node = randomUUID();
    const scope = { type: 'instance', namespace: '', nodeUuid: '', after: undefined, limit: 101 };
    expect(await explain((sql) => listObjects(sql, { ...scope, namespace: 'walk' }))).toEqual(['object_values_namespace']);
    expect(await explain((sql) => listObjects(sql, { ...scope, namespace: 'walk', after }))).toEqual(['object_values_namespace']);
    expect(await explain((sql) => listObjects(sql, { ...scope, nodeUuid: node, after }))).toEqual(['object_values_node']);
    expect(await explain((sql) => listObjects(sql, { ...scope, after }))).toEqual(['PRIMARY']);
    const byState = { type: 'instance', state: 'CREATED', nodeUuid: '', after: undefined, limit: 101 };
    expect(await explain((sql) => listByState(sql, byState))).toEqual(['object_states_state']);
    expect(await explain((sql) => listByState(sql, { ...byState, after }))).toEqual(['object_states_state']);
    expect(await explain((sql) => listByState(sql, { ...byState, nodeUuid: node, after }))).toEqual(['object_states_node_state']);
  });
});

describe('object attributes', () => {
  it('sets, reads and deletes attributes with field masks', async () => {
    const uuid = randomUUID();
    await db.createBlob({ uuid, staticValues: {} });
    expect(await db.getObjectAttributes('BLOB', uuid)).toEqual({});

    expect(await db.setObjectAttributes('BLOB', uuid, { size: 42, 'owner.name': 'ada', tags: ['a', 'b'], secret: { k: 'v' } })).toBe(4);
    expect(await db.getObjectAttributes('BLOB', uuid)).toEqual({ size: 42, 'owner.name': 'ada', tags: ['a', 'b'], secret: { k: 'v' } });
    expect(await db.getObjectAttributes('BLOB', uuid, ['size', 'tags', 'missing'])).toEqual({ size: 42, tags: ['a', 'b'] });

    // An upsert: named keys change, others stay.
    expect(await db.setObjectAttributes('BLOB', uuid, { size: 43, fresh: null })).toBe(2);
    expect(await db.getObjectAttributes('BLOB', uuid, ['size', 'fresh', 'owner.name'])).toEqual({ size: 43, fresh: null, 'owner.name': 'ada' });
    // The JSON text comes back exactly as sent.
    const raw = await db.call('SetObjectAttributes', { objectType: 'BLOB', uuid, attributes: { spaced: '{ "a" :  [1, 2.50] }' } });
    expect(raw.written).toBe(1);
    expect((await db.call('GetObjectAttributes', { objectType: 'BLOB', uuid, fieldMask: ['spaced'] })).attributes).toEqual({
      spaced: '{ "a" :  [1, 2.50] }',
    });

    expect(await db.deleteObjectAttributes('BLOB', uuid, ['size', 'missing'])).toBe(true);
    expect(await db.deleteObjectAttributes('BLOB', uuid, ['size'])).toBe(false);
    expect(Object.keys(await db.getObjectAttributes('BLOB', uuid)).sort()).toEqual(['fresh', 'owner.name', 'secret', 'spaced', 'tags']);
    expect(await db.deleteObjectAttributes('BLOB', uuid)).toBe(true);
    expect(await db.getObjectAttributes('BLOB', uuid)).toEqual({});
    expect(await db.deleteObjectAttributes('BLOB', uuid)).toBe(false);

    // Keyed by type, and the object must exist.
    await expect(db.setObjectAttributes('UPLOAD', uuid, { a: 1 })).rejects.toBeInstanceOf(NotFound);
    const node = randomUUID();
    await db.createNode({ uuid: node, fqdn: `a-${node.slice(0, 8)}.example.com` });
    expect(await db.setObjectAttributes('NODE', node, { rack: 'r1' })).toBe(1);
    expect(await db.getObjectAttributes('NODE', node)).toEqual({ rack: 'r1' });
  });

  it('bounds an object at 1000 attributes, counting them only when a call adds a key', async () => {
    const uuid = randomUUID();
    await db.createInstance({ uuid, staticValues: {} });
    const statements = async (call: () => Promise<unknown>): Promise<number> => {
      const before = metricValue(await t.metrics(), 'database_queries_total', { source: 'rpc' });
      await call();
      return metricValue(await t.metrics(), 'database_queries_total', { source: 'rpc' }) - before;
    };
    // Known keys rewritten (the resources daemon's stats) or a new key: one statement, no transaction.
    await db.setObjectAttributes('INSTANCE', uuid, { cpu: 0.1, mem: 1 });
    expect(await statements(() => db.setObjectAttributes('INSTANCE', uuid, { cpu: 0.2, mem: 2 }))).toBe(1);
    expect(await statements(() => db.setObjectAttributes('INSTANCE', uuid, { cpu: 0.3, disk: 3 }))).toBe(1);
    // A missing object: the one statement writes nothing, the exact path says why.
    await expect(db.setObjectAttributes('INSTANCE', randomUUID(), { a: 1 })).rejects.toBeInstanceOf(NotFound);
    for (let i = 0; i < 10; i++) {
      const batch = Object.fromEntries(Array.from({ length: 100 }, (_, j) => [`k${i * 100 + j}`, j]));
      if (i < 9) await db.setObjectAttributes('INSTANCE', uuid, batch);
      else {
        // 3 + 997 = 1000 fits; 3 more do not: refused, and nothing of the call written.
        delete batch.k999;
        delete batch.k998;
        delete batch.k997;
        await db.setObjectAttributes('INSTANCE', uuid, batch);
      }
    }
    expect(await t.count('object_attributes', 'object_type = ? AND uuid = ?', ['instance', uuid])).toBe(1000);
    await expect(db.setObjectAttributes('INSTANCE', uuid, { cpu: 1, over: 1 })).rejects.toThrow(/would have 1001 attributes/);
    expect(await db.getObjectAttributes('INSTANCE', uuid, ['cpu', 'over'])).toEqual({ cpu: 0.3 });
    // Rewriting known keys at the bound is still fine (by the exact path: no room for new ones).
    expect(await db.setObjectAttributes('INSTANCE', uuid, { cpu: 2, k0: 0 })).toBe(2);
    expect(await db.getObjectAttributes('INSTANCE', uuid, ['cpu', 'k0'])).toEqual({ cpu: 2, k0: 0 });
  });

  it('a write racing a delete leaves no attribute behind: it waits for the delete, then answers not found', async () => {
    const uuid = randomUUID();
    await db.createArtifact({ uuid, staticValues: {} });
    // The delete as the tier does it, held open: attributes, then the object row.
    const del = await mysql.createConnection(t.databaseUrl);
    await del.query('BEGIN');
    await del.query("DELETE FROM object_attributes WHERE object_type = 'artifact' AND uuid = ?", [uuid]);
    await del.query("DELETE FROM object_values WHERE object_type = 'artifact' AND uuid = ?", [uuid]);
    let done = false;
    const write = db.setObjectAttributes('ARTIFACT', uuid, { a: 1 }).then(
      () => 'written',
      (err: unknown) => (err instanceof NotFound ? 'not found' : String(err)),
    );
    void write.then(() => (done = true));
    // Until the write is at MariaDB, waiting on the object's row (or, were it not to lock
    // that row, finished). The lock is taken while the statement is planned ("Statistics").
    const waiting = async (): Promise<boolean> => {
      const [rows] = await t.direct.query<mysql.RowDataPacket[]>(
        "SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE command = 'Execute' AND info LIKE 'INSERT INTO object_attributes%'",
      );
      return Number((rows[0] as { n: string }).n) > 0;
    };
    while (!done && !(await waiting())) await new Promise((r) => setTimeout(r, 10));
    await del.query('COMMIT');
    await del.end();
    expect(await write).toBe('not found');
    expect(await t.count('object_attributes', 'object_type = ? AND uuid = ?', ['artifact', uuid])).toBe(0);
  });

  it('deleting an object deletes its state and attributes in the same transaction', async () => {
    const uuid = randomUUID();
    await db.createArtifact({ uuid, staticValues: { a: 1 } });
    await db.setObjectState('ARTIFACT', uuid, 'CREATED');
    await db.setObjectAttributes('ARTIFACT', uuid, { a: 1, b: 2 });
    // Same uuid, other type: untouched by the delete.
    await db.createUpload({ uuid, staticValues: {} });
    await db.setObjectState('UPLOAD', uuid, 'CREATING');
    await db.setObjectAttributes('UPLOAD', uuid, { c: 3 });

    expect(await db.deleteArtifact(uuid)).toBe(true);
    expect(await t.count('object_states', 'object_type = ? AND uuid = ?', ['artifact', uuid])).toBe(0);
    expect(await t.count('object_attributes', 'object_type = ? AND uuid = ?', ['artifact', uuid])).toBe(0);
    expect(await db.getObjectState('ARTIFACT', uuid)).toBeUndefined();
    expect(await db.getObjectAttributes('ARTIFACT', uuid)).toEqual({});
    expect(await db.getObjectState('UPLOAD', uuid)).toMatchObject({ state: 'CREATING' });
    expect(await db.getObjectAttributes('UPLOAD', uuid)).toEqual({ c: 3 });
  });

  it('a delete of an object that does not exist writes nothing; DeleteObjectState and DeleteObjectAttributes remove rows that name no object', async () => {
    const ghost = randomUUID();
    // What releases before "writes name real targets" could leave: rows of no object.
    await t.direct.query("INSERT INTO object_states (object_type, uuid, state, updated_at) VALUES ('artifact', ?, 'CREATED', UTC_TIMESTAMP(6))", [ghost]);
    await t.direct.query("INSERT INTO object_attributes (object_type, uuid, attr_key, value, updated_at) VALUES ('artifact', ?, 'k', '1', UTC_TIMESTAMP(6))", [ghost]);
    const tables = await comparedTables(t.direct);
    const before = await checksums(t.direct, tables);
    expect(await db.deleteArtifact(ghost)).toBe(false);
    expect(await checksums(t.direct, tables)).toEqual(before);
    expect(await db.deleteObjectState('ARTIFACT', ghost)).toBe(true);
    expect(await db.deleteObjectAttributes('ARTIFACT', ghost)).toBe(true);
    expect(await t.count('object_states', 'uuid = ?', [ghost])).toBe(0);
    expect(await t.count('object_attributes', 'uuid = ?', [ghost])).toBe(0);
  });

  it('refuses bad input naming the field and writes nothing', async () => {
    const uuid = randomUUID();
    await db.createInstance({ uuid, staticValues: {} });
    await db.setObjectState('INSTANCE', uuid, 'CREATED', 'kept');
    await db.setObjectAttributes('INSTANCE', uuid, { kept: 1 });
    const states = await t.count('object_states');
    const attributes = await t.count('object_attributes');
    const many = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`k${i}`, i]));
    const cases: [() => Promise<unknown>, string][] = [
      [() => db.setObjectState('INSTANCE', 'bad', 'CREATED'), 'uuid'],
      [() => db.setObjectState(99 as never, uuid, 'CREATED'), 'object_type'],
      [() => db.setObjectState('OBJECT_TYPE_UNSPECIFIED' as never, uuid, 'CREATED'), 'object_type'],
      [() => db.setObjectState('INSTANCE', uuid, 42 as never), 'state'],
      [() => db.setObjectState('INSTANCE', uuid, 'OBJECT_STATE_UNSPECIFIED' as never), 'state'],
      [() => db.setObjectState('INSTANCE', uuid, 'ERRORED', 'm'.repeat(1025)), 'message'],
      [() => db.getObjectState(99 as never, uuid), 'object_type'],
      [() => db.deleteObjectState('INSTANCE', 'bad'), 'uuid'],
      [() => db.listObjectsByState({ objectType: 99 as never, state: 'CREATED' }), 'object_type'],
      [() => db.listObjectsByState({ objectType: 'INSTANCE', state: 'OBJECT_STATE_UNSPECIFIED' as never }), 'state'],
      [() => db.listObjectsByState({ objectType: 'INSTANCE', state: 'CREATED', nodeUuid: 'x' }), 'node_uuid'],
      [() => db.listObjectsByState({ objectType: 'INSTANCE', state: 'CREATED', pageSize: 1001 }), 'page_size'],
      [() => db.listObjectsByState({ objectType: 'INSTANCE', state: 'CREATED', pageToken: 'zz' }), 'page_token'],
      [() => db.setObjectAttributes('INSTANCE', uuid, { 'Bad Key': 1 }), 'attributes'],
      [() => db.setObjectAttributes('INSTANCE', uuid, { ['k'.repeat(129)]: 1 }), 'attributes'],
      [() => db.setObjectAttributes('INSTANCE', uuid, { ok: 1, pad: 'x'.repeat(64 * 1024) }), 'attributes'],
      [() => db.setObjectAttributes('INSTANCE', uuid, { ok: 1, gone: undefined }), 'attributes'],
      [() => db.setObjectAttributes('INSTANCE', uuid, many), 'attributes'],
      [() => db.call('SetObjectAttributes', { objectType: 'INSTANCE', uuid, attributes: { ok: '1', bad: '{nope' } }), 'attributes'],
      // Valid for JSON.parse, refused by MariaDB's JSON check: the whole call is rolled back.
      [() => db.call('SetObjectAttributes', { objectType: 'INSTANCE', uuid, attributes: { kept: '2', bad: '"\\ud800"' } }), 'attributes'],
      [() => db.setObjectAttributes(99 as never, uuid, { a: 1 }), 'object_type'],
      [() => db.getObjectAttributes('INSTANCE', uuid, ['UPPER']), 'field_mask'],
      [() => db.deleteObjectAttributes('INSTANCE', uuid, ['x'.repeat(129)]), 'field_mask'],
      [() => db.deleteObjectAttributes('INSTANCE', 'bad'), 'uuid'],
    ];
    for (const [call, field] of cases) {
      const err = await call().then(() => undefined, (e: unknown) => e);
      expect(err, field).toBeInstanceOf(InvalidArgument);
      expect((err as InvalidArgument).field, String(err)).toBe(field);
    }
    expect(await t.count('object_states')).toBe(states);
    expect(await t.count('object_attributes')).toBe(attributes);
    expect(await db.getObjectState('INSTANCE', uuid)).toMatchObject({ state: 'CREATED', message: 'kept' });
    expect(await db.getObjectAttributes('INSTANCE', uuid)).toEqual({ kept: 1 });
  });

  it('keeps an object at 1000 attributes, refusing the write that would pass it', async () => {
    const uuid = randomUUID();
    await db.createUpload({ uuid, staticValues: {} });
    for (let batch = 0; batch < 10; batch++) {
      const attrs = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k${batch * 100 + i}`, i]));
      expect(await db.setObjectAttributes('UPLOAD', uuid, attrs)).toBe(100);
    }
    // Rewriting existing keys is fine; one more key is not, and nothing of that call is written.
    expect(await db.setObjectAttributes('UPLOAD', uuid, { k0: 'again' })).toBe(1);
    const err = await db.setObjectAttributes('UPLOAD', uuid, { k1: 'changed', extra: 1 }).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidArgument);
    expect((err as InvalidArgument).field).toBe('attributes');
    expect(await db.getObjectAttributes('UPLOAD', uuid, ['k0', 'k1', 'extra'])).toEqual({ k0: 'again', k1: 1 });
    expect(Object.keys(await db.getObjectAttributes('UPLOAD', uuid))).toHaveLength(1000);
  });
});
