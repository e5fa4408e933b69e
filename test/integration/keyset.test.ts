// Keyset listings: walking every page while rows are inserted shows each pre-existing row
// exactly once, and the seek with a cursor is a range on an index that begins with the
// listing's scope.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Page } from '../../client/index.js';
import { listObjectEvents } from '../../server/rpc/events/queries.js';
import { listReservations } from '../../server/rpc/ipam/queries.js';
import { listNodes } from '../../server/rpc/nodes/queries.js';
import { listObjects } from '../../server/rpc/objects/queries.js';
import { listByState } from '../../server/rpc/objects/state-queries.js';
import { explainStatement, rowsRead } from '../helpers/explain.js';
import { newNode, newObject } from '../helpers/targets.js';
import { useTestTier } from '../helpers/tier.js';

const { t, db } = useTestTier();

/**
 * Walks every page with `pageSize`, calling `insert` before each page (rows that land
 * before and after the cursor), and answers the keys seen, in order.
 */
async function walkWhileInserting<T>(
  list: (pageToken: string) => Promise<Page<T>>,
  key: (item: T) => string,
  insert: () => Promise<void>,
): Promise<string[]> {
  const seen: string[] = [];
  let pageToken = '';
  do {
    await insert();
    const page = await list(pageToken);
    seen.push(...page.items.map(key));
    pageToken = page.nextPageToken;
  } while (pageToken !== '');
  return seen;
}

function expectEachOnce(seen: string[], existing: string[]): void {
  expect(new Set(seen).size).toBe(seen.length); // nothing twice, not even new rows
  const set = new Set(seen);
  for (const k of existing) expect(set.has(k), k).toBe(true);
}

/**
 * The plan of a page seek, and what it costs: a page of PAGE + 1 rows must read about
 * that many index entries, wherever the cursor is (not every row before the cursor).
 */
async function seekPlan(run: Parameters<typeof explainStatement>[1]): Promise<{ type: string; key: string | null }> {
  const plan = await explainStatement(t.direct, run);
  expect(plan).toHaveLength(1);
  expect(await rowsRead(t.direct, run)).toBeLessThanOrEqual(PAGE + 3);
  return { type: plan[0]?.type as string, key: plan[0]?.key ?? null };
}

const N = 120;
const PAGE = 17;

describe('keyset listings under concurrent inserts', () => {
  it('ListNodes', async () => {
    const existing: string[] = [];
    for (let i = 0; i < N; i++) {
      const uuid = randomUUID();
      await db.createNode({ uuid, fqdn: `k${i}-${uuid.slice(0, 8)}.example.com` });
      existing.push(uuid);
    }
    const seen = await walkWhileInserting(
      (pageToken) => db.listNodes({ pageSize: PAGE, pageToken }),
      (n) => n.uuid,
      async () => {
        for (let i = 0; i < 3; i++) {
          const uuid = randomUUID();
          await db.createNode({ uuid, fqdn: `new-${uuid.slice(0, 8)}.example.com` });
        }
      },
    );
    expectEachOnce(seen, existing);
    expect(await seekPlan((sql) => listNodes(sql, [...existing].sort()[N - 30], PAGE + 1))).toEqual({ type: 'range', key: 'PRIMARY' });
  });

  it('ListInstances in a namespace, and ListObjectsByState on a node', async () => {
    const node = await newNode(db);
    const existing: string[] = [];
    const create = async (): Promise<string> => {
      const uuid = randomUUID();
      await db.createInstance({ uuid, namespace: 'keyset', nodeUuid: node, staticValues: { n: 1 } });
      await db.setObjectState('INSTANCE', uuid, 'CREATED');
      return uuid;
    };
    for (let i = 0; i < N; i++) existing.push(await create());
    const insert = async (): Promise<void> => {
      for (let i = 0; i < 3; i++) await create();
    };

    const instances = await walkWhileInserting(
      (pageToken) => db.listInstances({ namespace: 'keyset', pageSize: PAGE, pageToken }),
      (o) => o.uuid,
      insert,
    );
    expectEachOnce(instances, existing);
    const byState = await walkWhileInserting(
      (pageToken) => db.listObjectsByState({ objectType: 'INSTANCE', state: 'CREATED', nodeUuid: node, pageSize: PAGE, pageToken }),
      (s) => s.uuid,
      insert,
    );
    expectEachOnce(byState, existing);

    const after = [...existing].sort()[N - 30] as string;
    expect(await seekPlan((sql) => listObjects(sql, { type: 'instance', namespace: 'keyset', nodeUuid: '', after, limit: PAGE + 1 }))).toEqual({
      type: 'range',
      key: 'object_values_namespace',
    });
    expect(await seekPlan((sql) => listByState(sql, { type: 'instance', state: 'CREATED', nodeUuid: node, after, limit: PAGE + 1 }))).toEqual({
      type: 'range',
      key: 'object_states_node_state',
    });
  });

  it('ListObjectEvents', async () => {
    const object = await newObject(db, 'Instance');
    const record = (n: number): Promise<number> =>
      db.recordEvents(Array.from({ length: n }, (_, i) => ({ objectType: 'INSTANCE' as const, objectUuid: object, eventType: 'step', message: `m${i}` })));
    // Enough events that the optimizer's statistics are those of a real object's history
    // (with a hundred rows it would rather read them all than seek).
    for (let i = 0; i < 3; i++) await record(500);
    const existing: string[] = [];
    for (let token = ''; ; ) {
      const page = await db.listObjectEvents('INSTANCE', object, { pageSize: 1000, pageToken: token });
      existing.push(...page.items.map((e) => e.id));
      token = page.nextPageToken;
      if (token === '') break;
    }
    expect(existing).toHaveLength(1500);
    const seen = await walkWhileInserting(
      (pageToken) => db.listObjectEvents('INSTANCE', object, { pageSize: 100, pageToken }),
      (e) => e.id,
      async () => {
        await record(3);
      },
    );
    expectEachOnce(seen, existing);
    expect(await seekPlan((sql) => listObjectEvents(sql, 'instance', object, existing[1200], PAGE + 1))).toEqual({
      type: 'range',
      key: 'events_object',
    });
  });

  it('ListReservations', async () => {
    const ipam = await newObject(db, 'IPAM');
    const owner = await newObject(db, 'Instance');
    let next = 0;
    const reserve = async (): Promise<string> => {
      // Addresses spread over the key space, so new ones land before and after the cursor.
      const n = (next++ * 7919) % 60_000;
      const address = `10.${Math.floor(n / 250) % 250}.${n % 250}.${1 + (next % 250)}`;
      await db.reserveAddress({ ipamUuid: ipam, address, ownerType: 'INSTANCE', ownerUuid: owner });
      return address;
    };
    const existing: string[] = [];
    for (let i = 0; i < N; i++) existing.push(await reserve());
    const seen = await walkWhileInserting(
      (pageToken) => db.listReservations(ipam, { pageSize: PAGE, pageToken }),
      (r) => r.address,
      async () => {
        for (let i = 0; i < 3; i++) await reserve();
      },
    );
    expectEachOnce(seen, existing);
    expect(await seekPlan((sql) => listReservations(sql, ipam, [...existing].sort()[N - 30], PAGE + 1))).toEqual({ type: 'range', key: 'PRIMARY' });
  });
});
