// A first tour of the typed client, against a running sf-database (`npm start`):
// create a node, read it back, set and read a daemon state, enqueue and dequeue a work
// item. Run it with `npm run example` (SFDB_TARGETS overrides 127.0.0.1:13005).
import { randomUUID } from 'node:crypto';
import { DatabaseUnavailable, createClient } from '@sfdb/client';

async function main(): Promise<void> {
  const nodeUuid = randomUUID();
  // One client per process: its caller identity labels every call in the tier's metrics.
  const db = createClient({ callerDaemon: 'example', callerNode: nodeUuid });
  try {
    const { node } = await db.createNode({ uuid: nodeUuid, fqdn: `example-${nodeUuid.slice(0, 8)}.local`, ipAddress: '192.0.2.10' });
    console.log(`created node ${node.uuid} (${node.fqdn}) at ${node.createdAt}`);

    const readBack = await db.getNode(nodeUuid); // Node | undefined — undefined only when it does not exist
    console.log(`read it back: version ${readBack?.version}, ip ${readBack?.ipAddress}`);

    await db.setNodeDaemonState(nodeUuid, 'queues', 'RUNNING', 'started by the example');
    const state = await db.getNodeDaemonState(nodeUuid, 'queues');
    console.log(`daemon state of queues: ${state?.state} (${state?.message})`);

    const id = randomUUID(); // the client chooses the id: enqueue is idempotent
    await db.enqueue({ id, nodeUuid, queue: 'example', payload: { task: 'say-hello' } });
    const [claim] = await db.dequeue({ nodeUuid, queues: ['example'], limit: 1, holder: 'example' });
    if (!claim?.item) throw new Error('expected to dequeue the item just enqueued');
    console.log(`dequeued ${claim.item.id} with payload ${claim.item.payload}, epoch ${claim.epoch}, lease until ${claim.leaseExpiresAt}`);
    await db.resolve(claim.item.id, claim.epoch, 'SUCCEEDED', { said: 'hello' });
    console.log('resolved it; see the calls counted at http://127.0.0.1:13006/metrics');
  } catch (err) {
    if (err instanceof DatabaseUnavailable) {
      console.error(`sf-database is not reachable at ${db.options.target}: start it with \`npm start\` first`);
      process.exitCode = 1;
      return;
    }
    throw err;
  } finally {
    db.close();
  }
}

await main();
