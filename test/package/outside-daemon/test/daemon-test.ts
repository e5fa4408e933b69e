// The daemon's own test, as its repository runs it (node:test): a real tier from
// sf-database/testing, one line to start, one to stop.
import { randomUUID } from 'node:crypto';
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createClient } from '@sfdb/client';
import type { DatabaseClient } from '@sfdb/client';
import { startTestTier } from 'sf-database/testing';
import type { TestTier } from 'sf-database/testing';
import { QUEUE, disksDaemon } from '../src/disks.js';

let tier: TestTier;
let db: DatabaseClient;
const nodeUuid = randomUUID();

before(async () => {
  tier = await startTestTier({ replicas: 2 });
  db = createClient({ targets: tier.targets, callerDaemon: 'queues', callerNode: nodeUuid });
  await db.createNode({ uuid: nodeUuid, fqdn: `${nodeUuid}.outside.example` });
});

after(async () => {
  db?.close();
  await tier?.stop();
});

void test('runs an enqueued job and stops when an operator stops it', async () => {
  const disks: string[] = [];
  let ran: () => void = () => {};
  const job = new Promise<void>((resolve) => (ran = resolve));
  const daemon = disksDaemon(db, nodeUuid, (disk) => {
    disks.push(disk);
    ran();
  });
  await daemon.start();
  await db.enqueue({ id: randomUUID(), nodeUuid, queue: QUEUE, payload: { disk: 'vdb' } });
  await job;
  assert.deepEqual(disks, ['vdb']);
  // The operator's stop, written as sf-ctl writes it; the daemon hears it on the change feed.
  await db.setNodeDaemonState(nodeUuid, 'queues', 'STOPPING', 'stopped by the test', { operatorHold: 'set' });
  assert.equal(await daemon.done, 'operator');
  assert.equal((await db.getNodeDaemonState(nodeUuid, 'queues'))?.state, 'STOPPED');
});
