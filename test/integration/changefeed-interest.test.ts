// The interest summary against a real tier (issue 17): twenty processes, each caching its
// own blob. An update of a blob none of them holds wakes none of them (the old design woke
// every caching process: shown by plain subscribers, the control); an update of a blob
// three of them hold wakes those three, and their copies go; and a change a process does
// not hold still reaches it when its long-poll is answered for another reason.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StaticObjectCache } from '../../client/index.js';
import type { DatabaseClient } from '../../client/index.js';
import { topics } from '../../proto/topics.js';
import { until } from '../helpers/fake-clock.js';
import { metricValue } from '../../harness/scrape.js';
import { holdingLongPolls, longPollsAnsweredWithChanges } from '../helpers/metrics.js';
import { startTestTier } from '../helpers/tier.js';
import type { TestTier } from '../helpers/tier.js';

const N = 20;
let t: TestTier;
let writer: DatabaseClient;
let procs: DatabaseClient[];
const own = Array.from({ length: N }, () => randomUUID());
const [cold, shared] = [randomUUID(), randomUUID()];

beforeAll(async () => {
  t = await startTestTier();
  writer = t.client({ cache: false, feed: false });
  for (const uuid of [...own, cold, shared]) await writer.createBlob({ uuid, staticValues: { v: 0 } });
  procs = Array.from({ length: N }, () => t.client({ cache: new StaticObjectCache(), callerDaemon: 'resources' }));
  // The first read joins the feed; what was read before the first cursor is dropped, so read again once on it.
  await Promise.all(procs.map((p, i) => p.getBlob(own[i] as string)));
  await Promise.all(procs.map((p) => p.changes.ready()));
  for (const [i, p] of procs.entries()) {
    expect(p.changes.mode).toBe('feed');
    await p.getBlob(own[i] as string);
    if (i < 3) await p.getBlob(shared);
  }
  await holdingLongPolls(t, N);
});
afterAll(async () => {
  await t?.stop();
});

describe('a static update wakes only the processes that hold the object', () => {
  it('an object nobody holds: no process is woken, and the summaries did the keeping', async () => {
    const before = await longPollsAnsweredWithChanges(t);
    const keptBefore = metricValue(await t.metrics(), 'database_changefeed_interest_kept_total');
    for (let v = 1; v <= 10; v++) await writer.updateBlob(cold, { v });
    // The wake-up is decided in the commit's own turn: by the time the update is answered,
    // every waiter it would wake has been answered.
    expect((await longPollsAnsweredWithChanges(t)) - before).toBeLessThanOrEqual(10 * 1); // target: ≤ 1 per update (false positives)
    expect(metricValue(await t.metrics(), 'database_changefeed_interest_kept_total') - keptBefore).toBeGreaterThanOrEqual(10);
    for (const [i, p] of procs.entries()) expect(p.cache?.has('BLOB', own[i] as string), `process ${i} keeps its own blob`).toBe(true);
  });

  it('the control: plain subscribers of the same topic are all woken by it', async () => {
    const plain = Array.from({ length: 5 }, () => t.client({ cache: false }));
    const subs = plain.map((p) => p.changes.subscribe([topics.staticValues('blob')]));
    await Promise.all(plain.map((p) => p.changes.ready()));
    await holdingLongPolls(t, N + plain.length);
    const before = await longPollsAnsweredWithChanges(t);
    await writer.updateBlob(cold, { v: 11 });
    await until(() => subs.every((s) => s.pending));
    expect((await longPollsAnsweredWithChanges(t)) - before).toBeGreaterThanOrEqual(plain.length);
    for (const p of plain) p.close();
  });

  it('an object three processes hold: those three are woken and drop it', async () => {
    await holdingLongPolls(t, N);
    const before = await longPollsAnsweredWithChanges(t);
    await writer.updateBlob(shared, { v: 1 });
    await until(() => procs.slice(0, 3).every((p) => p.cache?.has('BLOB', shared) === false));
    const woken = (await longPollsAnsweredWithChanges(t)) - before;
    expect(woken).toBeGreaterThanOrEqual(3);
    expect(woken).toBeLessThanOrEqual(3 + 1);
    expect((await procs[0]?.getBlob(shared))?.staticValues).toEqual({ v: 1 });
  });

  it('a change a process does not hold reaches it when its long-poll is answered for another reason', async () => {
    const p = procs[5] as DatabaseClient;
    const node = randomUUID();
    await writer.createNode({ uuid: node, fqdn: `n-${node}.example.com` });
    // What its cache hears (it holds nothing of `cold`), and a topic of its own daemons.
    const heard = p.changes.subscribe([topics.staticValues('blob')], undefined, { held: () => [] });
    const own = p.changes.subscribe([topics.daemonState(node, 'resources')]);
    await holdingLongPolls(t, N);
    await writer.updateBlob(cold, { v: 12 });
    expect(heard.pending).toBe(false);
    await writer.setNodeDaemonState(node, 'resources', 'RUNNING');
    await until(() => own.pending);
    await until(() => heard.pending);
    expect(heard.take().changes.map((c) => [c.id, c.kind])).toContainEqual([cold, 'updated']);
    heard.close();
    own.close();
  });
});

describe('bad summaries', () => {
  const blobs = topics.staticValues('blob');
  const call = (interest: { topics: string[]; bloom: Uint8Array; hashes: number }) =>
    writer.waitForChanges({ topics: [blobs], cursor: '', interest: { topics: interest.topics, filter: { bits: interest.bloom, hashes: interest.hashes } as never } });

  it('are INVALID_ARGUMENT naming the field', async () => {
    await expect(call({ topics: ['static/node'], bloom: new Uint8Array(8), hashes: 3 })).rejects.toThrow(/interest\.topics/);
    await expect(call({ topics: [blobs], bloom: new Uint8Array(0), hashes: 3 })).rejects.toThrow(/interest\.bloom/);
    await expect(call({ topics: [blobs], bloom: new Uint8Array(65_537), hashes: 3 })).rejects.toThrow(/interest\.bloom/);
    await expect(call({ topics: [blobs], bloom: new Uint8Array(8), hashes: 0 })).rejects.toThrow(/interest\.hashes/);
    await expect(call({ topics: [blobs], bloom: new Uint8Array(8), hashes: 17 })).rejects.toThrow(/interest\.hashes/);
  });
});
