// The recovery sweep (RequeueExpiredClaims): fenced by the caller's lease, requeues
// expired claims with a bumped epoch, and costs work linear in expired candidates only.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_CONTEXT } from '@opentelemetry/api';
import { Fenced } from '../../client/index.js';
import type { DatabaseClient } from '../../client/index.js';
import { ChangeFeed } from '../../server/changefeed/feed.js';
import { Database, createPool } from '../../server/db/pool.js';
import { createLogger } from '../../proto/runtime/log.js';
import { Metrics } from '../../server/metrics.js';
import type { CallContext } from '../../server/rpc/context.js';
import { maintenanceHandlers } from '../../server/rpc/maintenance/handlers.js';
import { createGroups } from '../../server/rpc/groups.js';
import { systemClock } from '../../proto/runtime/clock.js';
import { EXPIRED_CLAIMS_SQL } from '../../server/rpc/maintenance/queries.js';
import { newNode } from '../helpers/targets.js';
import { startTestTier } from '../helpers/tier.js';
import type { TestTier } from '../helpers/tier.js';

let t: TestTier;
let db: DatabaseClient;
let fence: { name: string; holder: string; token: string };

beforeAll(async () => {
  t = await startTestTier();
  db = t.client();
  const { lease } = await db.acquireLease('maintenance/recovery', 'sweeper-1', 60_000);
  fence = { name: lease.name, holder: 'sweeper-1', token: lease.token };
});
afterAll(async () => {
  await t.stop();
});

/** Enqueues `n` items on a fresh node's queue and claims them all. */
async function claimed(n: number, queue = 'jobs'): Promise<{ node: string; claims: { id: string; epoch: string }[] }> {
  const node = await newNode(db);
  for (let i = 0; i < n; i++) await db.enqueue({ id: randomUUID(), nodeUuid: node, queue, payload: { i } });
  const claims = await db.dequeue({ nodeUuid: node, queues: [queue], limit: n, leaseMs: 60_000, holder: 'worker' });
  return { node, claims: claims.map((c) => ({ id: c.item?.id as string, epoch: c.epoch })) };
}

/** Moves the claims' lease into the past, as if their holder died a while ago. */
async function expire(ids: string[]): Promise<void> {
  await t.direct.query(`UPDATE work_items SET claim_expires_at = UTC_TIMESTAMP(6) - INTERVAL 1 SECOND WHERE id IN (?)`, [ids]);
}

/** `n` finished items of history on a node. */
async function history(n: number): Promise<void> {
  const node = randomUUID();
  const values = Array.from({ length: n }, () => [randomUUID(), node, 'done', '{}', 'SUCCEEDED', 1, 1]);
  await t.direct.query(
    `INSERT INTO work_items (id, node_uuid, queue, payload, state, epoch, attempts, not_before, created_at, updated_at) VALUES ${values
      .map(() => '(?, ?, ?, ?, ?, ?, ?, UTC_TIMESTAMP(6), UTC_TIMESTAMP(6), UTC_TIMESTAMP(6))')
      .join(', ')}`,
    values.flat(),
  );
}

describe('recovery sweep', () => {
  it('requeues expired claims with a bumped epoch, and fences the old holder', async () => {
    const { node, claims } = await claimed(3);
    const [first, second, third] = claims as [{ id: string; epoch: string }, { id: string; epoch: string }, { id: string; epoch: string }];
    await expire([first.id, second.id]);

    expect(await db.requeueExpiredClaims(fence)).toBe(2);
    const [rows] = await t.direct.query('SELECT id, state, epoch FROM work_items WHERE node_uuid = ? ORDER BY seq', [node]);
    expect(rows).toEqual([
      { id: first.id, state: 'QUEUED', epoch: '2' },
      { id: second.id, state: 'QUEUED', epoch: '2' },
      { id: third.id, state: 'CLAIMED', epoch: '1' },
    ]);
    // The old holder's late writes are fenced; the live claim is untouched.
    await expect(db.resolve(first.id, first.epoch, 'SUCCEEDED')).rejects.toBeInstanceOf(Fenced);
    await expect(db.renewClaim(second.id, second.epoch, 5000)).rejects.toBeInstanceOf(Fenced);
    await db.resolve(third.id, third.epoch, 'SUCCEEDED');
    // Requeued items are claimable again, at a higher epoch still.
    const again = await db.dequeue({ nodeUuid: node, queues: ['jobs'], limit: 5 });
    expect(again.map((c) => c.epoch)).toEqual(['3', '3']);
    expect(await db.requeueExpiredClaims(fence)).toBe(0);
  });

  it('refuses a caller whose lease moved on, writing nothing', async () => {
    const { claims } = await claimed(1);
    await expire(claims.map((c) => c.id));
    const before = await t.count('work_items', "state = 'CLAIMED'");
    await expect(db.requeueExpiredClaims({ ...fence, token: String(BigInt(fence.token) + 1n) })).rejects.toBeInstanceOf(Fenced);
    await expect(db.requeueExpiredClaims({ ...fence, holder: 'sweeper-2' })).rejects.toBeInstanceOf(Fenced);
    expect(await t.count('work_items', "state = 'CLAIMED'")).toBe(before);
    expect(await db.requeueExpiredClaims(fence)).toBe(1);
  });

  it('is one range scan of the (state, claim_expires_at) index', async () => {
    // The candidates are locked by this scan, then requeued by primary key.
    const [plan] = await t.direct.query(`EXPLAIN ${EXPIRED_CLAIMS_SQL}`, [1000]);
    const row = (plan as { key: string; type: string }[])[0];
    expect(row?.key).toBe('work_items_claims');
    expect(row?.type).toBe('range');
  });

  it('costs the same queries and rows examined with ten times the history', async () => {
    // The handler itself, on one connection, so its session's counters (statements sent,
    // Handler_read_* rows read) are its own.
    const single = new Database(createPool({ url: t.databaseUrl, connectionLimit: 1 }), new Metrics('cost'));
    // A feed that is not started: its writes append change rows, and it wakes nobody.
    const feed = new ChangeFeed(single, t.config, new Metrics('cost'), createLogger('silent'));
    const ctx: CallContext = {
      sql: single.sql('rpc'),
      sqlAs: (source) => single.sql(source),
      write: (fn, source) => feed.write(single.sql(source ?? 'rpc'), fn),
      feed,
      // Grouping off: this handler groups nothing anyway.
      groups: createGroups({ windowMs: 0, periodicWindowMs: 0, maxCalls: 1 }, single.sql('rpc'), feed, new Metrics('cost'), systemClock),
      leaseEnds: { expect: () => undefined }, // no lease here
      config: t.config,
      metrics: new Metrics('cost'),
      log: createLogger('silent'),
      trace: ROOT_CONTEXT,
      caller: { daemon: 'cluster', node: '' },
      signal: new AbortController().signal,
    };
    const rowsRead = async (): Promise<number> => {
      const status = await single.sql('rpc').rows<{ Variable_name: string; Value: string }>("SHOW SESSION STATUS LIKE 'Handler_read%'");
      return status.reduce((sum, s) => sum + Number(s.Value), 0);
    };

    const measure = async (): Promise<{ requeued: string; rows: number; statements: number }> => {
      const { claims } = await claimed(4);
      await expire(claims.map((c) => c.id));
      const before = await rowsRead();
      const beforeStatements = await single.sql('rpc').rows<{ Value: string }>("SHOW SESSION STATUS LIKE 'Questions'");
      const r = await maintenanceHandlers.RequeueExpiredClaims({ fence, limit: 0 }, ctx);
      const afterStatements = await single.sql('rpc').rows<{ Value: string }>("SHOW SESSION STATUS LIKE 'Questions'");
      const rows = (await rowsRead()) - before;
      return {
        requeued: r.requeued as string,
        rows,
        statements: Number(afterStatements[0]?.Value) - Number(beforeStatements[0]?.Value),
      };
    };

    await history(300);
    const small = await measure();
    await history(3000);
    const large = await measure();
    await single.close();

    console.log(`recovery sweep cost: 300 finished items ${JSON.stringify(small)}, 3300 finished items ${JSON.stringify(large)}`);
    expect(small.requeued).toBe('4');
    expect(large.requeued).toBe('4');
    expect(large.statements).toBe(small.statements);
    expect(large.rows).toBe(small.rows);
    // Linear in the candidates: a handful of reads per expired claim, never per finished item.
    expect(small.rows).toBeLessThan(4 * 4 + 20);
  });
});
