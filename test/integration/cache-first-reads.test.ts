// A daemon's first reads of a static object through its cache, against a real tier (issue
// 38): from the second read on they hit. Before, the answer to the change waiter's first
// cursor cleared the whole cache, so the copy loaded by the first read went, and so did
// any copy loaded before that answer: the second read missed when it came after the answer
// (a daemon's second read of its own node), and so did a third read after it when the
// second came before (a read 0.5 s in, with no eviction counted). Now the first load waits
// for the first cursor, and only loads issued before it are dropped (client/cache-feed.ts).
import { randomUUID } from 'node:crypto';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StaticObjectCache } from '../../client/index.js';
import type { DatabaseClient } from '../../client/index.js';
import { CLIENT_METRIC_NAMES, cacheMetrics } from '../../client/metrics.js';
import { metricSum, metricValue } from '../../harness/scrape.js';
import { startTestTier } from '../helpers/tier.js';
import type { TestTier } from '../helpers/tier.js';

let t: TestTier;

beforeAll(async () => {
  t = await startTestTier();
});
afterAll(async () => {
  await t.stop();
});

/** A new process's client: the feed on, a cache of its own reporting to a registry of its own. */
function freshProcess(): { db: DatabaseClient; metric: (name: string, labels?: Record<string, string>) => Promise<number> } {
  const registry = new Registry();
  const db = t.client({ cache: new StaticObjectCache({ metrics: cacheMetrics(registry) }), feed: true });
  return { db, metric: async (name, labels = {}) => metricValue(await registry.metrics(), name, labels) };
}

/** GetNode calls the tier has served, from any caller. */
async function getNodes(): Promise<number> {
  return metricSum(await t.metrics(), 'database_requests_total', { operation: 'GetNode' });
}

/** The waiter has its first cursor and what it triggers in the cache has run. */
async function feedStarted(db: DatabaseClient): Promise<void> {
  expect(await db.changes.ready()).toBe('feed');
  await new Promise((resolve) => setImmediate(resolve));
}

async function newNode(): Promise<string> {
  const uuid = randomUUID();
  await t.client({ cache: false, feed: false }).createNode({ uuid, fqdn: `first-reads-${uuid}.example.com` });
  return uuid;
}

describe("a daemon's first reads of its node", () => {
  it('the second read, after the feed took its first cursor, hits (it missed: the first copy was cleared)', async () => {
    const node = await newNode();
    const { db, metric } = freshProcess();
    const before = await getNodes();
    expect((await db.getNode(node))?.uuid).toBe(node);
    await feedStarted(db);
    expect((await db.getNode(node))?.uuid).toBe(node);
    expect((await getNodes()) - before, 'GetNode calls').toBe(1);
    expect(await metric(CLIENT_METRIC_NAMES.cacheHits, { object_type: 'NODE' })).toBe(1);
    expect(await metric(CLIENT_METRIC_NAMES.cacheMisses, { object_type: 'NODE' })).toBe(1);
    expect(await metric(CLIENT_METRIC_NAMES.cacheClears, { reason: 'feed_start' })).toBe(0);
  });

  it('a read after the first cursor hits when the one before it hit (it missed, no eviction counted)', async () => {
    const node = await newNode();
    const { db, metric } = freshProcess();
    const before = await getNodes();
    await db.getNode(node);
    await db.getNode(node); // at once: before the old code's handshake was even sent
    await feedStarted(db);
    await db.getNode(node);
    expect((await getNodes()) - before, 'GetNode calls').toBe(1);
    expect(await metric(CLIENT_METRIC_NAMES.cacheHits, { object_type: 'NODE' })).toBe(2);
    for (const reason of ['expired', 'capacity', 'write', 'invalidation']) expect(await metric(CLIENT_METRIC_NAMES.cacheEvictions, { reason }), reason).toBe(0);
    expect(await metric(CLIENT_METRIC_NAMES.cacheClears, { reason: 'feed_start' })).toBe(0);
  });

  it('still drops a copy when another process updates the object after the first cursor', async () => {
    const node = await newNode();
    const { db } = freshProcess();
    await db.getNode(node);
    await feedStarted(db);
    await t.client({ cache: false, feed: false }).updateNode(node, { fqdn: `v2-${node}.example.com` });
    for (const deadline = Date.now() + 10_000; db.cache?.has('NODE', node) === true; ) {
      if (Date.now() > deadline) throw new Error('the copy was not dropped within 10 s of the update');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect((await db.getNode(node))?.fqdn).toBe(`v2-${node}.example.com`);
  });
});
