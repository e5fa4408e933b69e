// Retired counters past their retention (SFDB_RETIRED_COUNTER_RETENTION_MS) are folded into
// the counter floor by PruneChanges, under the maintenance fence: their rows go, the floor
// rises above the largest of them, and an id created again after that still starts above
// everything its deleted row issued. A tier of its own: the floor it raises is every new
// row's start, which the other files' "version 1" would not expect.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Conflict, Fenced } from '../../client/index.js';
import type { DatabaseClient } from '../../client/index.js';
import { metricValue } from '../../harness/scrape.js';
import { startTestTier } from '../helpers/tier.js';
import type { TestTier } from '../helpers/tier.js';

let t: TestTier;
let db: DatabaseClient;

beforeAll(async () => {
  t = await startTestTier();
  db = t.client({ feed: false });
});
afterAll(async () => {
  await t.stop();
});

const fqdn = (): string => `fold-${randomUUID().slice(0, 8)}.example.com`;

async function retiredIds(): Promise<string[]> {
  const [rows] = await t.direct.query('SELECT counter_id FROM retired_counters ORDER BY counter_id');
  return (rows as { counter_id: string }[]).map((r) => r.counter_id);
}

async function floor(): Promise<string> {
  const [rows] = await t.direct.query('SELECT floor_value FROM counter_floor WHERE id = 1');
  return String((rows as { floor_value: string | number }[])[0]?.floor_value);
}

/** Makes the retired rows of `ids` two days old: past the default retention of one day. */
async function age(ids: readonly string[]): Promise<void> {
  await t.direct.query(`UPDATE retired_counters SET retired_at = UTC_TIMESTAMP(6) - INTERVAL 2 DAY WHERE counter_id IN (${ids.map(() => '?').join(', ')})`, [...ids]);
}

async function fence(): Promise<{ name: string; holder: string; token: string }> {
  const lease = await db.acquireLease('cluster/maintenance', 'fold-test', 60_000);
  return { name: 'cluster/maintenance', holder: 'fold-test', token: lease.lease.token };
}

const maintenanceStatements = async (): Promise<number> => metricValue(await t.metrics(), 'database_queries_total', { source: 'maintenance' });

describe('retired counters past their retention', () => {
  it('are folded into the floor under the fence; an id created again still starts above its deleted row', async () => {
    // A node at version 2, a blob at version 5 and a work item claimed once (epoch 1),
    // deleted two days ago; a node deleted just now.
    const node = randomUUID();
    await db.createNode({ uuid: node, fqdn: fqdn() });
    await db.updateNode(node, { fqdn: fqdn() });
    const blob = randomUUID();
    await db.createBlob({ uuid: blob, staticValues: { v: 1 } });
    for (let v = 2; v <= 5; v++) await db.updateBlob(blob, { v });
    const host = randomUUID();
    const item = randomUUID();
    await db.createNode({ uuid: host, fqdn: fqdn() });
    await db.enqueue({ id: item, nodeUuid: host, queue: 'fold', payload: {} });
    const [claimed] = await db.dequeue({ nodeUuid: host, queues: ['fold'] });
    expect(claimed?.epoch).toBe('1');
    const fresh = randomUUID();
    await db.createNode({ uuid: fresh, fqdn: fqdn() });
    for (const uuid of [node, host, fresh]) expect(await db.deleteNode(uuid)).toBe(true);
    expect(await db.deleteBlob(blob)).toBe(true);
    await age([node, blob, host, item]);
    expect(await retiredIds()).toEqual([node, blob, host, item, fresh].sort());
    expect(await floor()).toBe('0');

    // A stale fence folds nothing.
    const f = await fence();
    await expect(db.pruneChanges({ ...f, token: String(BigInt(f.token) + 1n) })).rejects.toBeInstanceOf(Fenced);
    expect((await retiredIds()).length).toBe(5);

    const r = await db.pruneChanges(f);
    expect(r).toMatchObject({ more: false, retiredFolded: 4 });
    expect(metricValue(await t.metrics(), 'database_retired_counters_folded_total')).toBe(4);
    // The young row stays; the floor is one above the largest folded counter (the blob's 5).
    expect(await retiredIds()).toEqual([fresh]);
    expect(await floor()).toBe('6');

    // Created again: above what the deleted rows issued, and a stale version is refused.
    const again = await db.createNode({ uuid: node, fqdn: fqdn() });
    expect(again.node.version).toBe('6');
    await expect(db.updateNode(node, { fqdn: fqdn() }, { expectedVersion: '2' })).rejects.toBeInstanceOf(Conflict);
    expect((await db.createBlob({ uuid: blob, staticValues: {} })).object.version).toBe('6');
    await db.createNode({ uuid: host, fqdn: fqdn() });
    await db.enqueue({ id: item, nodeUuid: host, queue: 'fold', payload: {} });
    const [reclaimed] = await db.dequeue({ nodeUuid: host, queues: ['fold'] });
    expect(reclaimed?.epoch).toBe('7'); // its first claim, one above the floor
    await expect(db.resolve(item, '1', 'SUCCEEDED', {})).rejects.toBeInstanceOf(Fenced);
    // Every new row starts at the floor now, as after a restore.
    expect((await db.createNode({ uuid: randomUUID(), fqdn: fqdn() })).node.version).toBe('6');

    // With nothing old enough, a call costs one indexed read and takes no lock.
    const before = await maintenanceStatements();
    expect(await db.pruneChanges(f)).toMatchObject({ more: false, retiredFolded: 0 });
    expect((await maintenanceStatements()) - before).toBe(1);
  });

  it('a fold racing creates of the folded ids: every create starts above its deleted row', async () => {
    const ids = Array.from({ length: 40 }, () => randomUUID());
    const last = new Map<string, bigint>();
    for (const uuid of ids) {
      const { object } = await db.createBlob({ uuid, staticValues: {} });
      const updated = await db.updateBlob(uuid, { v: 1 });
      last.set(uuid, BigInt(updated.version));
      expect(BigInt(updated.version)).toBeGreaterThan(BigInt(object.version));
      await db.deleteBlob(uuid);
    }
    await age(ids);
    const f = await fence();
    const [folded, ...created] = await Promise.all([db.pruneChanges(f), ...ids.map((uuid) => db.createBlob({ uuid, staticValues: {} }))]);
    expect(folded?.retiredFolded).toBeLessThanOrEqual(ids.length);
    for (const [i, c] of created.entries()) {
      const uuid = ids[i] as string;
      expect(BigInt(c.object.version), uuid).toBeGreaterThan(last.get(uuid) as bigint);
    }
  });
});
