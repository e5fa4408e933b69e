// The daemon of one's own through the public API alone: its queue's item read back
// (GetWorkItem, ListWorkItems), its singleton job's fenced write, and the tier counting it
// under its own name (`imager` is on no list the tier was given).
import { randomUUID } from 'node:crypto';
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Fenced, createClient } from '@sfdb/client';
import type { DatabaseClient, WorkItem } from '@sfdb/client';
import { daemonSettings } from '@sfdb/daemon';
import { startTestTier } from 'sf-database/testing';
import type { TestTier } from 'sf-database/testing';
import { BUILD_QUEUE, ImagerDaemon, SCHEDULE_KEY, SCHEDULE_LEASE } from '../src/imager.js';

let tier: TestTier;
let db: DatabaseClient;
const nodeUuid = randomUUID();

before(async () => {
  tier = await startTestTier({ replicas: 2 });
  db = createClient({ targets: tier.targets, callerDaemon: 'imager', callerNode: nodeUuid });
  await db.createNode({ uuid: nodeUuid, fqdn: `${nodeUuid}.outside.example` });
});

after(async () => {
  db?.close();
  await tier?.stop();
});

/** Polls `read` until `done` says so, for at most `ms`; fails with the last answer. */
async function until<T>(what: string, read: () => Promise<T>, done: (v: T) => boolean, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    if (Date.now() > end) assert.fail(`${what} not within ${ms} ms; last: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

void test('a daemon subclass of its own: its work read back, its fenced job, counted under its name', async () => {
  const daemon = new ImagerDaemon({ name: 'imager', nodeUuid, db, settings: daemonSettings({}, { logLevel: 'silent' }) });
  await daemon.start();
  try {
    const id = randomUUID();
    await db.enqueue({ id, nodeUuid, queue: BUILD_QUEUE, payload: { image: 'base' } });
    const item = await until('the item SUCCEEDED', () => db.getWorkItem(id), (w: WorkItem | undefined) => w?.state === 'SUCCEEDED');
    assert.ok(item);
    assert.deepEqual(JSON.parse(item.result), { image: 'base', bytes: 4096 });
    assert.equal(item.attempts, 1);
    const page = await db.listWorkItems({ nodeUuid, queue: BUILD_QUEUE, state: 'SUCCEEDED' });
    assert.deepEqual(page.items.map((w) => w.id), [id]);
    assert.equal(await db.getWorkItem(randomUUID()), undefined);

    // The singleton job wrote under its lease; a fence of a lease that has passed on writes nothing.
    await until('the schedule written', async () => daemon.hasScheduled, (v) => v);
    assert.deepEqual((await db.getClusterConfig(SCHEDULE_KEY))?.value, { by: nodeUuid });
    const fence = daemon.fences.at(-1);
    assert.ok(fence);
    await daemon.stop(); // releases the lease
    assert.equal((await db.acquireLease(SCHEDULE_LEASE, 'someone-else', 3000)).acquired, true);
    await assert.rejects(db.setClusterConfig(SCHEDULE_KEY, { by: 'deposed' }, { fence }), Fenced);
    assert.deepEqual((await db.getClusterConfig(SCHEDULE_KEY))?.value, { by: nodeUuid });
  } finally {
    await daemon.stop();
  }

  // Counted as `imager`, a name the tier admitted on first sight.
  let counted = 0;
  for (const replica of tier.replicas) {
    const text = await (await fetch(`http://127.0.0.1:${replica.httpPort}/metrics`)).text();
    for (const m of text.matchAll(/^database_requests_total\{operation="Dequeue",caller_daemon="imager"\} (\d+)/gm)) counted += Number(m[1]);
  }
  assert.ok(counted > 0, 'no Dequeue counted under caller_daemon="imager"');
});
