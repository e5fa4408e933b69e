// One daemon process of the operator-stop chaos run (bench/stops): it hosts one daemon at a
// time — a QueuesDaemon with its own client (its own channel, long-poll and replica watch),
// the framework and client exactly as a daemon author links them — and tells its parent,
// over IPC, where its calls sit and when it heard an operator stop. A new daemon per round
// (a new node), in the same process, so a round does not pay a process start.
//
// Messages in:  { type: 'start', node, targets }  { type: 'placement' }  { type: 'close' }
// Messages out: { type: 'started' }  { type: 'placement', poll, watch }  (endpoints, '' for none)
//               { type: 'heard', node, at }  (Date.now() at the operator stop's notice)
//               { type: 'done', node, reason, at, hedges, retries }  (its own-state calls sent again)
//               { type: 'error', message }
import { clientRegistry, createClient } from '../../client/index.js';
import type { DatabaseClient } from '../../client/index.js';
import { QueuesDaemon, daemonRegistry, daemonSettings } from '../../daemons/index.js';
import { createLogger } from '../../proto/runtime/log.js';
import { parseProm } from '../../ops/prom.js';

type In = { type: 'start'; node: string; targets: string[] } | { type: 'placement' } | { type: 'close' };

const send = (message: Record<string, unknown>): void => {
  process.send?.(message);
};

let current: { db: DatabaseClient; daemon: QueuesDaemon } | undefined;

/** The own-state calls this process sent again so far, by kind (hedge, retry). */
async function sentAgain(): Promise<{ hedges: number; retries: number }> {
  const samples = parseProm(await daemonRegistry.metrics()).filter((s) => s.name === 'database_daemon_state_retries_total');
  const sum = (kind: string): number => samples.filter((s) => s.labels['kind'] === kind).reduce((n, s) => n + s.value, 0);
  return { hedges: sum('hedge'), retries: sum('retry') };
}

/** This process's long-poll and watch, by endpoint, as its balancer counts them ('' for none). */
async function placement(): Promise<{ poll: string; watch: string }> {
  const samples = parseProm(await clientRegistry.metrics()).filter((s) => s.name === 'database_client_p2c_in_flight' && s.value > 0);
  const at = (kind: string): string => samples.filter((s) => s.labels['kind'] === kind).map((s) => s.labels['endpoint'] ?? '').join(',');
  return { poll: at('long_poll'), watch: at('watch') };
}

async function start(node: string, targets: string[]): Promise<void> {
  const db = createClient({ targets, callerDaemon: 'queues', callerNode: node, cache: false, feed: true });
  const daemon = new QueuesDaemon({
    name: 'queues',
    nodeUuid: node,
    db,
    settings: daemonSettings({}),
    log: createLogger('warn', { daemon: 'queues', node }),
    hooks: {
      stopRequested: (reason, already) => {
        if (reason === 'operator' && !already) send({ type: 'heard', node, at: Date.now() });
      },
    },
  }).handle('work', async () => null);
  current = { db, daemon };
  const before = await sentAgain();
  void daemon.done.then(async (reason) => {
    const after = await sentAgain();
    send({ type: 'done', node, reason, at: Date.now(), hedges: after.hedges - before.hedges, retries: after.retries - before.retries });
    db.close();
  });
  await daemon.start();
  send({ type: 'started' });
}

process.on('message', (message: In) => {
  const run = async (): Promise<void> => {
    if (message.type === 'start') await start(message.node, message.targets);
    else if (message.type === 'placement') send({ type: 'placement', ...(await placement()) });
    else {
      await current?.daemon.stop();
      current?.db.close();
      process.exit(0);
    }
  };
  run().catch((err: unknown) => send({ type: 'error', message: (err as Error).message }));
});
send({ type: 'ready' });
