// Inputs an outside client sent that once answered INTERNAL: JSON nested deep enough to
// exhaust a recursive validator while under the size limit, JSON strings holding lone
// surrogate escapes (valid JSON text, refused by MariaDB's JSON check), and over-long or
// zone-scoped IP addresses. Each must answer INVALID_ARGUMENT naming the field, with
// nothing written.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { InvalidArgument } from '../../client/errors.js';
import { useTestTier } from '../helpers/tier.js';

const { t, db } = useTestTier();

/** `[[[…]]]` of `levels`: 2·levels bytes. */
const nested = (levels: number): string => '['.repeat(levels) + ']'.repeat(levels);
/** An object nested `levels` deep, for fields that want an object. */
const nestedObject = (levels: number): string => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);

async function refused(call: Promise<unknown>, field: string, why: RegExp): Promise<void> {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, `${field} was accepted`).toBeInstanceOf(InvalidArgument);
  expect((err as InvalidArgument).field).toBe(field);
  expect((err as Error).message).toMatch(why);
}

const LONE = ['"\\ud800"', '"\\udfff"', '"a\\ud800b"', '"\\udc00\\ud800"'];

describe('JSON fields', () => {
  const node = randomUUID();

  it('a queue payload nested far deeper than the limit (under the size limit) is refused, nothing queued', async () => {
    await db.createNode({ uuid: node, fqdn: `hostile-${node}.test` });
    const before = await t.count('work_items');
    for (const payload of [nested(32), nested(30_000)]) {
      await refused(db.call('Enqueue', { id: randomUUID(), nodeUuid: node, queue: 'q', payload, delayMs: '0' }), 'payload', /nested deeper than 31/);
    }
    // Brackets inside strings are text, not nesting.
    await db.call('Enqueue', { id: randomUUID(), nodeUuid: node, queue: 'q', payload: JSON.stringify({ s: '['.repeat(1000) }), delayMs: '0' });
    expect(await t.count('work_items')).toBe(before + 1);
  });

  it('lone surrogate escapes are refused in every JSON field; a proper pair is kept', async () => {
    const before = { items: await t.count('work_items'), config: await t.count('cluster_config'), events: await t.count('events') };
    for (const s of LONE) {
      const obj = `{"k":${s}}`;
      const key = `{${s}:1}`;
      await refused(db.call('Enqueue', { id: randomUUID(), nodeUuid: node, queue: 'q', payload: obj, delayMs: '0' }), 'payload', /lone UTF-16 surrogate/);
      await refused(db.call('SetClusterConfig', { key: `k-${randomUUID()}`, value: s, expectedVersion: '0' }), 'value', /lone UTF-16 surrogate/);
      await refused(db.call('NodeHeartbeat', { nodeUuid: node, stats: key }), 'stats', /lone UTF-16 surrogate/);
      await refused(
        db.call('RecordEvents', { events: [{ objectType: 'NODE', objectUuid: node, eventType: 'x', message: '', extra: obj }] }),
        'events[0].extra',
        /lone UTF-16 surrogate/,
      );
    }
    expect(await t.count('work_items')).toBe(before.items);
    expect(await t.count('cluster_config')).toBe(before.config);
    expect(await t.count('events')).toBe(before.events);

    const key = `pair-${randomUUID()}`;
    await db.call('SetClusterConfig', { key, value: '"\\ud83d\\ude00"', expectedVersion: '0' });
    expect((await db.call('GetClusterConfig', { key })).value).toBe('"\\ud83d\\ude00"');
  });

  it('static values and attributes: deep nesting and lone surrogates refused, nothing written', async () => {
    const uuid = randomUUID();
    await refused(db.call('CreateInstance', { uuid, nodeUuid: node, namespace: '', staticValues: nestedObject(5_000) }), 'static_values', /nested deeper/);
    await refused(db.call('CreateInstance', { uuid, nodeUuid: node, namespace: '', staticValues: '{"n":"\\ud800"}' }), 'static_values', /lone UTF-16/);
    expect(await t.count('object_values', 'uuid = ?', [uuid])).toBe(0);
    await db.createInstance({ uuid, nodeUuid: node, staticValues: { name: 'x' } });
    await refused(db.call('SetObjectAttributes', { objectType: 'INSTANCE', uuid, attributes: { a: nested(10_000) } }), 'attributes', /nested deeper/);
    await refused(db.call('SetObjectAttributes', { objectType: 'INSTANCE', uuid, attributes: { a: '"\\udfff"' } }), 'attributes', /lone UTF-16/);
    expect(await t.count('object_attributes', 'uuid = ?', [uuid])).toBe(0);
  });
});

describe('IP addresses: one rule for nodes and reservations', () => {
  it('a node address longer than any address, or with a zone id, is refused and no node written', async () => {
    const before = await t.count('nodes');
    const uuid = randomUUID();
    await refused(db.call('CreateNode', { uuid, fqdn: `ip-${uuid}.test`, ipAddress: `fe80::1%${'e'.repeat(300)}` }), 'ip_address', /longer than 45/);
    await refused(db.call('CreateNode', { uuid, fqdn: `ip-${uuid}.test`, ipAddress: 'fe80::1%eth0' }), 'ip_address', /zone ids are not allowed/);
    await refused(db.call('CreateNode', { uuid, fqdn: `ip-${uuid}.test`, ipAddress: '1'.repeat(46) }), 'ip_address', /longer than 45/);
    expect(await t.count('nodes')).toBe(before);
  });

  it('node addresses are stored in canonical form, as reservations are', async () => {
    const uuid = randomUUID();
    const { node } = await db.createNode({ uuid, fqdn: `canon-${uuid}.test`, ipAddress: '2001:DB8:0:0::1' });
    expect(node.ipAddress).toBe('2001:db8::1');
    // The same node again, written another way, is the same node (idempotent create).
    const again = await db.createNode({ uuid, fqdn: `canon-${uuid}.test`, ipAddress: '2001:db8::0:1' });
    expect(again.created).toBe(false);
  });

  it('a reservation with a zone id is refused the same way', async () => {
    await refused(
      db.call('ReserveAddress', { ipamUuid: randomUUID(), address: 'fe80::1%eth0', ownerType: 'NETWORK_INTERFACE', ownerUuid: randomUUID() }),
      'address',
      /zone ids are not allowed/,
    );
  });
});

describe('holder names', () => {
  it('a lease holder with outer whitespace is refused: the collation would match "x " to "x"', async () => {
    const name = `ws-${randomUUID()}`;
    const { lease } = await db.acquireLease(name, 'holder-a', 60_000);
    for (const holder of ['holder-a ', ' holder-a', 'holder-a\t']) {
      await refused(db.call('RenewLease', { name, holder, token: String(lease.token), ttlMs: '60000' }), 'holder', /whitespace/);
      await refused(db.call('AcquireLease', { name: `${name}-2`, holder, ttlMs: '60000' }), 'holder', /whitespace/);
    }
    expect(await t.count('leases', 'name = ?', [`${name}-2`])).toBe(0);
  });
});
