#!/usr/bin/env node
// npm run bench:feed — one replica holding many idle long-polls (WaitForChanges), then
// one change that concerns all of them:
//   - the replica's RSS before and with every waiter held, and its CPU while they idle;
//   - the wake-up latency of every waiter of the one topic: from just before the write's
//     RPC to each waiter's answer arriving (one machine clock), and the replica's CPU
//     over that time (per waiter woken).
// A private MariaDB and the replica run as child processes; the waiters are this
// process's calls over several channels (one channel per 500 waiters). The directory,
// MariaDB and the replica are a tier in the run's lifecycle (harness/main.ts,
// harness/cluster.ts): all stopped on exit, on error and on Ctrl-C.
//   npm run bench:feed -- [--waiters 10000] [--idle 20]
// With --clients N the waiters are N clients of the client library instead, each with its
// own channel, and the figure is what a wake-up costs the woken processes (./clients.ts):
//   npm run bench:feed -- --clients 2000 [--rounds 3]
// With --watch-cost N, what the replica watch costs the replica (./watch-cost.ts):
//   npm run bench:feed -- --watch-cost 500 [--idle 10]
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { createClient } from '../../client/index.js';
import type { DatabaseClient } from '../../client/index.js';
import { topics } from '../../proto/topics.js';
import { processCpuSeconds, processRssMb } from '../../harness/children.js';
import { metricSum } from '../../harness/scrape.js';
import { describeMachine, load1 } from '../../harness/machine.js';
import { runBench } from '../../harness/main.js';
import { percentile } from '../../harness/stats.js';
import { wakeClients } from './clients.js';
import { watchCost } from './watch-cost.js';

const PER_CHANNEL = 500;

runBench('bench:feed', async (bench) => {
  const { values } = parseArgs({
    options: { waiters: { type: 'string' }, idle: { type: 'string' }, clients: { type: 'string' }, rounds: { type: 'string' }, 'watch-cost': { type: 'string' } },
    strict: true,
  });
  const clientsN = values.clients === undefined ? undefined : Number(values.clients);
  const n = clientsN ?? Number(values.waiters ?? 10_000);
  const idleS = Number(values.idle ?? 20);
  const rounds = Number(values.rounds ?? 3);
  if (values.clients !== undefined && values.waiters !== undefined) throw new Error('--clients and --waiters: one or the other');
  if (!Number.isInteger(n) || n < 1 || n > 50_000) throw new Error(`${clientsN === undefined ? '--waiters' : '--clients'}: 1..50000`);
  if (!(idleS >= 1 && idleS <= 25)) throw new Error('--idle: 1..25 s (under the 30 s long-poll timeout)');
  if (!Number.isInteger(rounds) || rounds < 1 || rounds > 20) throw new Error('--rounds: 1..20');
  const log = (m: string): void => void process.stderr.write(`bench:feed: ${m}\n`);

  const tier = bench.tier({ dir: 'sfdb-bench-feed-', server: 'mariadb', database: 'feed', timeoutMs: 180_000 });
  await bench.start();
  const clients: DatabaseClient[] = [];
  try {
    const replica = await tier.add({
      name: 'replica',
      id: 'feed-bench',
      // 10 000 long-polls from one host: the per-caller rate limits are not what is measured;
      // nor the stream maximum (PER_CHANNEL long-polls share a connection).
      env: {
        SFDB_CHANGEFEED_MAX_WAITERS: String(n + 100),
        SFDB_RATE_LIMIT_NODE_RPS: '0',
        SFDB_RATE_LIMIT_DAEMON_RPS: '0',
        SFDB_GRPC_MAX_CONCURRENT_STREAMS: String(PER_CHANNEL + 10),
      },
    });
    const waiters = async (): Promise<number> => metricSum(await replica.metrics(), 'database_changefeed_waiters');
    const writer = createClient({ targets: [replica.grpcAddress], callerDaemon: 'bench', cache: false, feed: false });
    clients.push(writer);
    if (values['watch-cost'] !== undefined) {
      const channels = Number(values['watch-cost']);
      if (!Number.isInteger(channels) || channels < 1 || channels > 5_000) throw new Error('--watch-cost: 1..5000 channels');
      const m = describeMachine();
      const result = await watchCost({ n: channels, windowS: idleS, target: replica.grpcAddress, replicaPid: replica.pid, clients, log });
      const out = { command: `npm run bench:feed -- --watch-cost ${channels} --idle ${idleS}`, machine: `${m.nproc} × ${m.cpu}, Node ${m.node}, ${m.mariadb}, load1 ${load1()}`, ...result };
      process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
      return 0;
    }
    if (clientsN !== undefined) {
      const m = describeMachine();
      const results = await wakeClients({ n, rounds, target: replica.grpcAddress, replicaPid: replica.pid, writer, waiters, clients, log });
      const out = {
        command: `npm run bench:feed -- --clients ${n} --rounds ${rounds}`,
        machine: `${m.nproc} × ${m.cpu}, Node ${m.node}, ${m.mariadb}, load1 ${load1()}`,
        clients: n,
        rounds: results,
      };
      process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
      return 0;
    }
    for (let i = 0; i < Math.ceil(n / PER_CHANNEL); i++) {
      clients.push(createClient({ targets: [replica.grpcAddress], callerDaemon: 'bench', cache: false, feed: false, deadlineMs: 60_000 }));
    }
    // Warm the replica (JIT, pool) before its baseline.
    const shared = topics.clusterConfig();
    const { cursor } = await writer.waitForChanges({ topics: [shared], cursor: '' });
    await new Promise((r) => setTimeout(r, 2000));
    const rssBefore = processRssMb(replica.pid);

    log(`opening ${n} long-polls over ${clients.length - 1} channels`);
    const answeredAt: number[] = [];
    const waits: Promise<void>[] = [];
    for (let i = 0; i < n; i++) {
      const db = clients[Math.floor(i / PER_CHANNEL)] as DatabaseClient;
      // Each waiter has a topic of its own (a node's daemon) and the shared one.
      const own = topics.daemonState(randomUUID(), 'queues');
      waits.push(
        db.waitForChanges({ topics: [own, shared], cursor, timeoutMs: 30_000 }).then((r) => {
          if (r.changes.length > 0) answeredAt.push(Date.now());
        }),
      );
    }
    for (let i = 0; i < 300 && (await waiters()) < n; i++) await new Promise((r) => setTimeout(r, 100));
    const held = await waiters();
    log(`${held} held; idling ${idleS} s`);
    const cpu0 = processCpuSeconds(replica.pid);
    const t0 = Date.now();
    await new Promise((r) => setTimeout(r, idleS * 1000));
    const idleCpu = (processCpuSeconds(replica.pid) - cpu0) / ((Date.now() - t0) / 1000);
    const rssHeld = processRssMb(replica.pid);

    log('one change on the shared topic');
    const cpuBeforeWake = processCpuSeconds(replica.pid);
    const sentAt = Date.now();
    await writer.call('SetClusterConfig', { key: 'bench-wake', value: JSON.stringify({ at: sentAt }), expectedVersion: '0' });
    await Promise.all(waits);
    // The replica's CPU from the change to the last answer arriving here: what answering
    // every waiter cost it (the benchmark's own process decodes the answers, on the same cores).
    const wakeCpuS = processCpuSeconds(replica.pid) - cpuBeforeWake;
    const lat = answeredAt.map((t) => t - sentAt).sort((a, b) => a - b);

    const m = describeMachine();
    const out = {
      command: `npm run bench:feed -- --waiters ${n} --idle ${idleS}`,
      machine: `${m.nproc} × ${m.cpu}, Node ${m.node}, ${m.mariadb}, load1 ${load1()}`,
      waiters: n,
      held,
      rssBeforeMb: Math.round(rssBefore),
      rssHeldMb: Math.round(rssHeld),
      rssGrowthMb: Math.round(rssHeld - rssBefore),
      idleCpuSecondsPerSecond: Number(idleCpu.toFixed(4)),
      woken: lat.length,
      wakeP50Ms: percentile(lat, 0.5),
      wakeP99Ms: percentile(lat, 0.99),
      wakeMaxMs: lat[lat.length - 1],
      wakeReplicaCpuMs: Math.round(wakeCpuS * 1000),
      wakeReplicaCpuUsPerWaiter: Math.round((wakeCpuS * 1e6) / Math.max(1, lat.length)),
    };
    process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
  } finally {
    for (const c of clients) c.close();
  }
  return 0;
});
