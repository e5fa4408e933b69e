import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { InvalidArgument } from '../../client/index.js';
import type { ObjectReferenceKey } from '../../client/index.js';
import { selectReferencesFrom, selectReferencesTo } from '../../server/rpc/references/queries.js';
import { newObject } from '../helpers/targets.js';
import { useTestTier } from '../helpers/tier.js';
import { explainStatement } from '../helpers/explain.js';

const { t, db } = useTestTier();

const explain = (run: Parameters<typeof explainStatement>[1]) => explainStatement(t.direct, run);

describe('references', () => {
  it('records idempotently, reads both ways and removes', async () => {
    const nic = await newObject(db, 'NetworkInterface');
    const network = await newObject(db, 'Network');
    const instance = await newObject(db, 'Instance');
    const onNetwork: ObjectReferenceKey = { fromType: 'NETWORK_INTERFACE', fromUuid: nic, toType: 'NETWORK', toUuid: network, relation: 'on-network' };
    const ofInstance: ObjectReferenceKey = { fromType: 'NETWORK_INTERFACE', fromUuid: nic, toType: 'INSTANCE', toUuid: instance, relation: 'attached-to' };

    expect(await db.recordReference(onNetwork)).toBe(true);
    expect(await db.recordReference(onNetwork)).toBe(false);
    expect(await db.recordReference(ofInstance)).toBe(true);
    // Same pair, another relation: another reference.
    expect(await db.recordReference({ ...onNetwork, relation: 'gateway' })).toBe(true);
    expect(await t.count('object_references', 'from_uuid = ?', [nic])).toBe(3);

    const from = await db.getReferencesFrom('NETWORK_INTERFACE', nic);
    expect(from.map((r) => [r.toType, r.toUuid, r.relation])).toEqual([
      ['INSTANCE', instance, 'attached-to'],
      ['NETWORK', network, 'gateway'],
      ['NETWORK', network, 'on-network'],
    ]);
    expect(from[0]).toMatchObject({ fromType: 'NETWORK_INTERFACE', fromUuid: nic });
    expect(from[0]?.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(await db.getReferencesFrom('NETWORK_INTERFACE', nic, { limit: 1 })).toHaveLength(1);
    expect(await db.getReferencesFrom('INSTANCE', nic)).toEqual([]);

    const to = await db.getReferencesTo('NETWORK', network);
    expect(to.map((r) => [r.fromType, r.fromUuid, r.relation])).toEqual([
      ['NETWORK_INTERFACE', nic, 'gateway'],
      ['NETWORK_INTERFACE', nic, 'on-network'],
    ]);
    expect(await db.getReferencesTo('INSTANCE', instance)).toHaveLength(1);

    expect(await db.removeReference(onNetwork)).toBe(true);
    expect(await db.removeReference(onNetwork)).toBe(false);
    expect((await db.getReferencesTo('NETWORK', network)).map((r) => r.relation)).toEqual(['gateway']);
  });

  it('answers many references up to the limit, and reads each side from its own index', async () => {
    const network = await newObject(db, 'Network');
    for (let i = 0; i < 12; i++) {
      await db.recordReference({ fromType: 'NETWORK_INTERFACE', fromUuid: await newObject(db, 'NetworkInterface'), toType: 'NETWORK', toUuid: network, relation: 'on-network' });
    }
    expect(await db.getReferencesTo('NETWORK', network)).toHaveLength(12);
    const five = await db.getReferencesTo('NETWORK', network, { limit: 5 });
    expect(five.map((r) => r.fromUuid)).toEqual((await db.getReferencesTo('NETWORK', network)).slice(0, 5).map((r) => r.fromUuid));

    // Other objects' references, so that the plan reflects a table where one object's
    // references are a small part (with a dozen rows in all, a scan is the cheaper plan).
    await t.direct.query(
      `INSERT INTO object_references (from_type, from_uuid, to_type, to_uuid, relation, created_at)
       SELECT 'network_interface', UUID(), 'network', UUID(), 'on-network', UTC_TIMESTAMP(6) FROM seq_1_to_2000`,
    );
    await t.direct.query('ANALYZE TABLE object_references');
    const toPlan = await explain((sql) => selectReferencesTo(sql, 'network', network, 1000));
    expect(toPlan.map((r) => r.key)).toEqual(['object_references_to']);
    expect(toPlan[0]?.Extra ?? '').not.toMatch(/filesort/);
    const fromPlan = await explain((sql) => selectReferencesFrom(sql, 'network_interface', randomUUID(), 1000));
    expect(fromPlan.map((r) => r.key)).toEqual(['PRIMARY']);
    expect(fromPlan[0]?.Extra ?? '').not.toMatch(/filesort/);
  });

  it('refuses bad input naming the field and writes nothing', async () => {
    const ok: ObjectReferenceKey = { fromType: 'INSTANCE', fromUuid: randomUUID(), toType: 'BLOB', toUuid: randomUUID(), relation: 'uses' };
    const cases: [() => Promise<unknown>, string][] = [
      [() => db.recordReference({ ...ok, fromType: 99 as never }), 'from_type'],
      [() => db.recordReference({ ...ok, fromUuid: 'nope' }), 'from_uuid'],
      [() => db.call('RecordReference', { fromUuid: ok.fromUuid, toType: 'BLOB', toUuid: ok.toUuid, relation: 'uses' }), 'from_type'],
      [() => db.recordReference({ ...ok, toType: 'OBJECT_TYPE_UNSPECIFIED' as never }), 'to_type'],
      [() => db.recordReference({ ...ok, toUuid: '' }), 'to_uuid'],
      [() => db.recordReference({ ...ok, relation: '' }), 'relation'],
      [() => db.recordReference({ ...ok, relation: 'r'.repeat(65) }), 'relation'],
      [() => db.recordReference({ ...ok, relation: 'Not A Name' }), 'relation'],
      [() => db.removeReference({ ...ok, toUuid: 'x' }), 'to_uuid'],
      [() => db.getReferencesFrom(99 as never, ok.fromUuid), 'object_type'],
      [() => db.getReferencesFrom('INSTANCE', 'x'), 'uuid'],
      [() => db.getReferencesFrom('INSTANCE', ok.fromUuid, { limit: 1001 }), 'limit'],
      [() => db.getReferencesTo('BLOB', ok.toUuid, { limit: -5 }), 'limit'],
    ];
    const before = await t.count('object_references');
    for (const [call, field] of cases) {
      const err = await call().then(() => undefined, (e: unknown) => e);
      expect(err, field).toBeInstanceOf(InvalidArgument);
      expect((err as InvalidArgument).field, field).toBe(field);
    }
    expect(await t.count('object_references')).toBe(before);
  });
});
