// Delayed work against a real tier: a Dequeue short of a full batch says when the earliest delayed item
// of its queues is due (next_due_in_ms), and the queues daemon in feed mode sleeps until
// then instead of until its safety poll — a delayed item starts when it is due.
import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseClient } from '../../client/index.js';
import { QueuesDaemon, daemonSettings } from '../../daemons/index.js';
import { newNode } from '../helpers/targets.js';
import { startTestTier } from '../helpers/tier.js';
import type { TestTier } from '../helpers/tier.js';

let t: TestTier;
let admin: DatabaseClient;

beforeAll(async () => {
  t = await startTestTier();
  admin = t.client({ feed: false, cache: false });
});
afterAll(async () => {
  await t?.stop();
});

describe('next_due_in_ms', () => {
  it('a Dequeue short of a full batch answers when the earliest delayed item of its queues is due; 0 when none, or when the batch was full', async () => {
    const nodeUuid = await newNode(admin);
    expect(await admin.dequeueWithNextDue({ nodeUuid, queues: ['a', 'b'] })).toEqual({ claims: [], nextDueInMs: 0 });
    await admin.enqueue({ id: randomUUID(), nodeUuid, queue: 'a', payload: {}, delayMs: 60_000 });
    await admin.enqueue({ id: randomUUID(), nodeUuid, queue: 'b', payload: {}, delayMs: 20_000 });
    await admin.enqueue({ id: randomUUID(), nodeUuid, queue: 'c', payload: {}, delayMs: 5_000 }); // not asked for
    const empty = await admin.dequeueWithNextDue({ nodeUuid, queues: ['a', 'b'] });
    expect(empty.claims).toEqual([]);
    expect(empty.nextDueInMs).toBeGreaterThan(15_000);
    expect(empty.nextDueInMs).toBeLessThanOrEqual(20_000);
    await admin.enqueue({ id: randomUUID(), nodeUuid, queue: 'a', payload: {} });
    await admin.enqueue({ id: randomUUID(), nodeUuid, queue: 'a', payload: {} });
    // A full batch: more may be due now, so no next-due time.
    const full = await admin.dequeueWithNextDue({ nodeUuid, queues: ['a', 'b'], limit: 1 });
    expect(full.claims).toHaveLength(1);
    expect(full.nextDueInMs).toBe(0);
    // Short of full, every queue was scanned: the next-due time of the delayed items still waiting.
    const partial = await admin.dequeueWithNextDue({ nodeUuid, queues: ['a', 'b'], limit: 4 });
    expect(partial.claims).toHaveLength(1);
    expect(partial.nextDueInMs).toBeGreaterThan(10_000);
    expect(partial.nextDueInMs).toBeLessThanOrEqual(20_000);
  });

  it('the queues daemon in feed mode starts a delayed item when it is due, not at its safety poll, after a batch short of full', async () => {
    const node = randomUUID();
    await admin.createNode({ uuid: node, fqdn: `delayed-${node.slice(0, 8)}.example.com` });
    const db = t.client({ callerDaemon: 'queues', callerNode: node, cache: false });
    // A safety poll far beyond the test: only the next-due answer can start the item in time.
    const settings = daemonSettings({}, { feed: true, idleTickMs: 50, feedSafetyPollMs: 600_000 });
    let startedAt = 0;
    const started: string[] = [];
    const daemon = new QueuesDaemon({ name: 'queues', nodeUuid: node, db, settings, log: pino({ level: 'silent' }) }).handle('jobs', async (_payload, job) => {
      started.push(job.id);
      if (job.id === delayed) startedAt = Date.now();
      return 'done';
    });
    const delayed = randomUUID();
    await daemon.start();
    try {
      for (const deadline = Date.now() + 20_000; db.changes.mode !== 'feed' || daemon.snapshot().dequeues === 0; ) {
        if (Date.now() > deadline) throw new Error('the daemon did not reach the feed');
        await new Promise((r) => setTimeout(r, 20));
      }
      const enqueuedAt = Date.now();
      // The delayed item, and one due now: the dequeue the second wakes claims one item of a
      // batch of four (short of full), and its next-due answer must still start the first.
      await admin.enqueue({ id: delayed, nodeUuid: node, queue: 'jobs', payload: {}, delayMs: 1_500 });
      await admin.enqueue({ id: randomUUID(), nodeUuid: node, queue: 'jobs', payload: {} });
      for (const deadline = Date.now() + 20_000; startedAt === 0; ) {
        if (Date.now() > deadline) throw new Error('the delayed item did not start within 20 s');
        await new Promise((r) => setTimeout(r, 20));
      }
      // Not before it was due (one clock: MariaDB and this process share the machine's).
      expect(startedAt - enqueuedAt).toBeGreaterThanOrEqual(1_400);
      expect(started).toHaveLength(2);
      expect(started.at(-1)).toBe(delayed);
    } finally {
      await daemon.stop();
      db.close();
    }
  });
});
