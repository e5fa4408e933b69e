// A singleton job's fenced writes, as docs/client.md shows them: the fence of a held lease
// writes; once the lease has passed to another holder, the old fence is refused `Fenced`
// and nothing is written, and requireFence() throws rather than send a write unfenced.
import { randomUUID } from 'node:crypto';
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Fenced, LeaseKeeper, createClient } from '@sfdb/client';
import type { DatabaseClient, FencedCallOptions, LeaseFence } from '@sfdb/client';
import { startTestTier } from 'sf-database/testing';
import type { TestTier } from 'sf-database/testing';

let tier: TestTier;
let db: DatabaseClient;

before(async () => {
  tier = await startTestTier();
  db = createClient({ targets: tier.targets, callerDaemon: 'allocator' });
});

after(async () => {
  db?.close();
  await tier?.stop();
});

void test('a fenced write lands while the lease is held and is refused once another holds it', async () => {
  const name = `outside/${randomUUID().slice(0, 8)}`;
  const keeper = new LeaseKeeper(db, { name, holder: 'allocator-1', ttlMs: 3000 });
  keeper.start();
  const held = Date.now() + 10_000;
  while (!keeper.isHolder()) {
    if (Date.now() > held) assert.fail(`lease ${name} not held within 10 s: ${JSON.stringify(keeper.snapshot())}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  const fence: LeaseFence = keeper.requireFence();
  const opts: FencedCallOptions = { fence };
  await db.setClusterConfig('outside.first', 1, opts);
  assert.equal((await db.getClusterConfig('outside.first'))?.value, 1);

  await keeper.stop(); // releases the lease
  assert.throws(() => keeper.requireFence(), Fenced);
  assert.equal((await db.acquireLease(name, 'allocator-2', 3000)).acquired, true);
  await assert.rejects(db.setClusterConfig('outside.second', 2, { fence }), Fenced);
  assert.equal(await db.getClusterConfig('outside.second'), undefined);
});
