// Runs the disks daemon for a new node against the tier at SFDB_TARGETS: enqueues one job,
// waits until the daemon ran it and the queue is empty, stops, and says so on stdout.
import { randomUUID } from 'node:crypto';
import { DatabaseUnavailable, createClient } from '@sfdb/client';
import { QUEUE, disksDaemon } from './disks.js';

const nodeUuid = randomUUID();
const db = createClient({ callerDaemon: 'queues', callerNode: nodeUuid });
try {
  await db.createNode({ uuid: nodeUuid, fqdn: `${nodeUuid}.outside.example` });
  let ran: (disk: string) => void = () => {};
  const job = new Promise<string>((resolve) => (ran = resolve));
  const daemon = disksDaemon(db, nodeUuid, ran);
  await daemon.start();
  await db.enqueue({ id: randomUUID(), nodeUuid, queue: QUEUE, payload: { disk: 'vda' } });
  const disk = await job;
  for (let i = 0; ; i++) {
    const length = await db.getQueueLength(nodeUuid, QUEUE);
    if (length.queued === 0 && length.claimed === 0) break;
    if (i > 200) throw new Error(`the job was not resolved: ${JSON.stringify(length)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  const reason = await daemon.stop();
  console.log(`resolved ${disk} on ${nodeUuid}; stopped (${reason})`);
} catch (err) {
  if (err instanceof DatabaseUnavailable) console.error(`no tier at ${db.options.target}: ${err.message}`);
  throw err;
} finally {
  db.close();
}
