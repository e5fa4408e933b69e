// The counter floor (migrations/0007_counter_floor.sql): once a restore has raised it,
// every counter a new row starts — a lease token, a work item's epoch, a node's, an
// object's and a cluster config key's version — starts at the floor, not at 1, while
// rows that exist keep growing by one. At 0 (no restore yet) everything starts as before.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestTier } from '../helpers/tier.js';

const { t, db } = useTestTier();

/** A floor far above anything this test database has issued, as a restore would set it. */
const FLOOR = 1_800_000_000_000_000n;

async function setFloor(value: bigint): Promise<void> {
  await t.direct.query('UPDATE counter_floor SET floor_value = ? WHERE id = 1', [String(value)]);
}

describe('the counter floor', () => {
  it('is 0 until a restore: new rows start at 1 (epoch 0) as before', async () => {
    const lease = await db.acquireLease(`floor/zero-${randomUUID().slice(0, 8)}`, 'h', 10_000);
    expect(lease.lease.token).toBe('1');
    const { node } = await db.createNode({ uuid: randomUUID(), fqdn: `zero-${randomUUID().slice(0, 8)}.example.com` });
    expect(node.version).toBe('1');
    const { item } = await db.enqueue({ id: randomUUID(), nodeUuid: node.uuid, queue: 'floor', payload: {} });
    expect(item.epoch).toBe('0');
    expect(await db.setClusterConfig(`zero-${randomUUID().slice(0, 8)}`, 1, { expectedVersion: -1 })).toBe('1');
  });

  it('raised: every counter a new row starts is at the floor; existing rows grow from where they are', async () => {
    const before = await db.acquireLease(`floor/old-${randomUUID().slice(0, 8)}`, 'h', 10_000);
    await setFloor(FLOOR);
    try {
      const f = String(FLOOR);
      const lease = await db.acquireLease(`floor/new-${randomUUID().slice(0, 8)}`, 'h', 10_000);
      expect(lease.lease.token).toBe(f);
      // A takeover of the new lease: one above.
      await db.releaseLease(lease.lease.name, 'h', lease.lease.token);
      expect((await db.acquireLease(lease.lease.name, 'other', 10_000)).lease.token).toBe(String(FLOOR + 1n));
      // A row from before the floor keeps its own count (a restore raises those itself).
      await db.releaseLease(before.lease.name, 'h', before.lease.token);
      expect((await db.acquireLease(before.lease.name, 'other', 10_000)).lease.token).toBe('2');

      const { node } = await db.createNode({ uuid: randomUUID(), fqdn: `floor-${randomUUID().slice(0, 8)}.example.com` });
      expect(node.version).toBe(f);
      const { object } = await db.createInstance({ uuid: randomUUID(), staticValues: { n: 1 } });
      expect(object.version).toBe(f);

      const id = randomUUID();
      const { item } = await db.enqueue({ id, nodeUuid: node.uuid, queue: 'floor', payload: {} });
      expect(item.epoch).toBe(f);
      const [claim] = await db.dequeue({ nodeUuid: node.uuid, queues: ['floor'] });
      expect(claim?.epoch).toBe(String(FLOOR + 1n));

      expect(await db.setClusterConfig(`absent-${randomUUID().slice(0, 8)}`, 1, { expectedVersion: -1 })).toBe(f);
      const key = `upsert-${randomUUID().slice(0, 8)}`;
      expect(await db.setClusterConfig(key, 1)).toBe(f);
      expect(await db.setClusterConfig(key, 2)).toBe(String(FLOOR + 1n));
    } finally {
      await setFloor(0n);
    }
  });
});
