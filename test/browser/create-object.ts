// Another process for the admin view's browser test: creates one instance through the
// client and prints its creation time once the tier has answered (committed).
//   node --import tsx test/browser/create-object.ts <target host:port> <namespace> <uuid>
import { createClient } from '../../client/index.js';

const [target, namespace, uuid] = process.argv.slice(2);
if (!target || !namespace || !uuid) {
  process.stderr.write('usage: create-object.ts <target host:port> <namespace> <uuid>\n');
  process.exit(2);
}
const db = createClient({ targets: target, callerDaemon: 'test', cache: false });
const { object } = await db.createInstance({ uuid, namespace, staticValues: { from: 'another process', pid: process.pid } });
process.stdout.write(`${JSON.stringify({ uuid: object.uuid, createdAt: object.createdAt })}\n`);
db.close();
