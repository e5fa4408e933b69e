// The backstop under the replica watch (test/chaos/frozen-replica.test.ts): a process that
// no replica can tell (here `round_robin`, which holds no watch; likewise one replica, or
// a replica registered under another address than the one dialled) whose long-poll a
// stalled replica holds (SIGSTOP) still hears an operator stop written through the other:
// the client's keepalive (a ping every KEEPALIVE_MS while a call is open,
// KEEPALIVE_TIMEOUT_MS to answer) ends the dead connection and the poll goes to the live
// replica. Without it the process heard nothing until the poll's own deadline: 37 s
// measured, against 15 s.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createClient } from '../../client/index.js';
import type { DatabaseClient } from '../../client/index.js';
import { KEEPALIVE_MS, KEEPALIVE_TIMEOUT_MS } from '../../client/transport.js';
import { topics } from '../../proto/topics.js';
import { recordFigure } from '../helpers/figures.js';
import { metricSum } from '../../harness/scrape.js';
import type { ClusterReplica, ProcessCluster } from '../../harness/cluster.js';
import { freeze } from '../../harness/freeze.js';
import { testCluster } from '../helpers/process.js';

/** Scheduling slack for a loaded 2-core machine, on top of the keepalive's own bound. */
const SLACK_MS = 5_000;

let cluster: ProcessCluster | undefined;
let replicas: ClusterReplica[] = [];
const clients: DatabaseClient[] = [];

beforeAll(async () => {
  cluster = testCluster(['live', 'stalled']);
  await cluster.start();
  replicas = cluster.replicas;
});

afterAll(async () => {
  for (const c of clients) c.close();
  // The stalled replica continued first, then every one stopped and the database dropped.
  await cluster?.stop();
});

const address = (p: ClusterReplica): string => `127.0.0.1:${p.grpcPort}`;
const waiters = async (p: ClusterReplica): Promise<number> =>
  metricSum(await p.metrics(), 'database_changefeed_waiters');

it("a process whose long-poll a stalled replica holds hears an operator stop through the other within the keepalive's bound", async () => {
  const [first, second] = replicas as [ClusterReplica, ClusterReplica];
  const operator = createClient({ targets: [address(first), address(second)], callerDaemon: 'sf-ctl', cache: false, feed: false });
  clients.push(operator);
  const node = randomUUID();
  await operator.createNode({ uuid: node, fqdn: `stall-${node.slice(0, 8)}.test` });

  const daemon = createClient({ targets: [address(first), address(second)], balance: 'round_robin', callerDaemon: 'queues', callerNode: node, cache: false, feed: true });
  clients.push(daemon);
  let heardAt: number | undefined;
  daemon.changes.subscribe([topics.daemonState(node, 'queues')], (batch) => {
    if (batch.changes.some((c) => c.kind !== 'reported')) heardAt ??= Date.now();
  });
  // Which replica holds the poll is the balancer's choice: that one is stalled.
  let holder: ClusterReplica | undefined;
  for (const deadline = Date.now() + 15_000; holder === undefined; ) {
    if ((await waiters(first)) > 0) holder = first;
    else if ((await waiters(second)) > 0) holder = second;
    else if (Date.now() > deadline) throw new Error('the long-poll is held by neither replica');
    else await new Promise((r) => setTimeout(r, 50));
  }
  const live = holder === first ? second : first;

  // Seen frozen before the write: SIGSTOP takes effect some time after kill(2) returns,
  // and a holder still running would answer the poll itself (test/helpers/freeze.ts).
  await freeze(holder.pid as number);
  const writer = createClient({ targets: [address(live)], callerDaemon: 'sf-ctl', cache: false, feed: false });
  clients.push(writer);
  const stalledAt = Date.now();
  await writer.setNodeDaemonState(node, 'queues', 'STOPPING', 'operator stop');
  const bound = KEEPALIVE_MS + KEEPALIVE_TIMEOUT_MS + SLACK_MS;
  while (heardAt === undefined && Date.now() - stalledAt < bound) await new Promise((r) => setTimeout(r, 50));
  holder.kill('SIGCONT');
  expect(heardAt, `the operator stop was not heard within ${bound} ms of the stall`).toBeDefined();
  const heardMs = (heardAt as number) - stalledAt;
  recordFigure('stalled-replica-stop-heard', { heardMs, keepaliveMs: KEEPALIVE_MS, keepaliveTimeoutMs: KEEPALIVE_TIMEOUT_MS });
  expect(heardMs).toBeLessThanOrEqual(bound);
}, 60_000);
