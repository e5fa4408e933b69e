// bench:feed --clients: what one wake-up costs the processes woken. `n` clients of the
// client library, each with its own channel and one feed subscription (as each process of
// a node holds them, and as bench:cluster's simulator holds 7,000 of them in one thread),
// woken `rounds` times by one cluster-config change. Per round: the wake latency (from
// just before the write's RPC to each subscriber's callback, one clock), this process's
// CPU from the change until every client has polled again (the replica's waiter gauge
// back at n) per client woken, and the replica's CPU over the same time.
import { performance } from 'node:perf_hooks';
import { randomUUID } from 'node:crypto';
import { createClient } from '../../client/index.js';
import type { DatabaseClient } from '../../client/index.js';
import { topics } from '../../proto/topics.js';
import { processCpuSeconds } from '../../harness/children.js';
import { percentile } from '../../harness/stats.js';

export interface ClientsRound {
  woken: number;
  wakeP50Ms: number;
  wakeP99Ms: number;
  wakeMaxMs: number;
  /** From the change until every client's next poll was held. */
  repolledMs: number;
  clientCpuUsPerClient: number;
  replicaCpuUsPerClient: number;
  /** This process's event-loop utilisation over the round. */
  clientEventLoopUtilization: number;
}

const PAUSE_MS = 3000;
const ROUND_TIMEOUT_MS = 30_000;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export async function wakeClients(a: {
  n: number;
  rounds: number;
  target: string;
  replicaPid: number | undefined;
  writer: DatabaseClient;
  waiters: () => Promise<number>;
  clients: DatabaseClient[];
  log: (m: string) => void;
}): Promise<ClientsRound[]> {
  let key = '';
  let sentAt = 0;
  let heard: number[] = [];
  for (let i = 0; i < a.n; i++) {
    const db = createClient({ targets: [a.target], callerDaemon: 'queues', callerNode: randomUUID(), cache: false, feed: true });
    a.clients.push(db);
    db.changes.subscribe([topics.clusterConfig()], (batch) => {
      for (const c of batch.changes) if (c.id === key) heard.push(Date.now() - sentAt);
    });
    // Connections opened a few at a time, as processes start.
    if (i % 50 === 49) await new Promise((resolve) => setImmediate(resolve));
  }
  for (let i = 0; i < 600 && (await a.waiters()) < a.n; i++) await sleep(100);
  a.log(`${await a.waiters()} clients polling`);
  const rounds: ClientsRound[] = [];
  for (let r = 0; r < a.rounds; r++) {
    await sleep(PAUSE_MS);
    heard = [];
    key = `bench-feed-clients-${r}`;
    const cpu0 = process.cpuUsage();
    const replica0 = processCpuSeconds(a.replicaPid);
    const elu0 = performance.eventLoopUtilization();
    sentAt = Date.now();
    await a.writer.setClusterConfig(key, { round: r });
    while (heard.length < a.n && Date.now() - sentAt < ROUND_TIMEOUT_MS) await sleep(5);
    while ((await a.waiters()) < a.n && Date.now() - sentAt < ROUND_TIMEOUT_MS) await sleep(10);
    const repolledMs = Date.now() - sentAt;
    const cpu = process.cpuUsage(cpu0);
    const replicaS = processCpuSeconds(a.replicaPid) - replica0;
    const lat = heard.sort((x, y) => x - y);
    const per = Math.max(1, lat.length);
    rounds.push({
      woken: lat.length,
      wakeP50Ms: percentile(lat, 0.5),
      wakeP99Ms: percentile(lat, 0.99),
      wakeMaxMs: lat.at(-1) ?? Number.NaN,
      repolledMs,
      clientCpuUsPerClient: Math.round((cpu.user + cpu.system) / per),
      replicaCpuUsPerClient: Math.round((replicaS * 1e6) / per),
      clientEventLoopUtilization: Number(performance.eventLoopUtilization(elu0).utilization.toFixed(2)),
    });
    a.log(`round ${r + 1}: ${JSON.stringify(rounds.at(-1))}`);
  }
  return rounds;
}
