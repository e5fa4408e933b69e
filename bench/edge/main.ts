#!/usr/bin/env node
// npm run bench:edge — the gRPC edge against hostile clients (issue 37), in one run:
//   - a slow reader: one HTTP/2 connection with a stream window of 0 (it reads nothing)
//     sending --calls ListInstances whose answers are ~1.9 MB each (1,000 instances of
//     ~1.8 KB); the replica's RSS before, at its peak, while held and after, and how its
//     calls ended (waiting for a window, refused, reset);
//   - rapid reset: a connection opening GetNode streams and cancelling each at once
//     (RST_STREAM CANCEL), --churn per second for --seconds, reconnecting on GOAWAY;
//   - a neighbour all along: one client of the client library making GetNode calls one
//     after the other, its p50/p99 over --seconds beside each attack and over as long
//     without one just before it (its baseline; ratios in one run, the machine is shared).
// The hostile clients are child processes (./attacker.ts), so their work does not delay
// the neighbour's answers here. A private MariaDB and the replica run as child processes,
// a tier in the run's lifecycle (harness/main.ts): stopped on exit, on error, on Ctrl-C.
//   npm run bench:edge -- [--calls 1000] [--churn 5000] [--seconds 10] [--env K=V ...]
//                         [--only slow|churn|read] [--decoy] [--profile DIR]
// --only read: instead of the slow reader, the same calls from a connection that reads them
// (a control: what the calls themselves cost the replica's RSS);
// --env passes a setting to the replica (for instance the caps, to measure them off);
// --profile writes the replica's CPU profile (--cpu-prof) into DIR; --decoy sends the churn
// to a second replica instead (what the attacker's own CPU does to the neighbour).
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { parseArgs } from 'node:util';
import { createClient } from '../../client/index.js';
import type { DatabaseClient } from '../../client/index.js';
import { ROOT, processCpuSeconds, processRssMb } from '../../harness/children.js';
import type { Children } from '../../harness/children.js';
import { describeMachine, load1 } from '../../harness/machine.js';
import { runBench } from '../../harness/main.js';
import type { ChurnTally } from '../../harness/raw-grpc.js';
import { metricSum } from '../../harness/scrape.js';
import { percentile } from '../../harness/stats.js';

const ATTACKER = join(ROOT, 'bench', 'edge', 'attacker.ts');
const INSTANCES = 1000;
const log = (m: string): void => void process.stderr.write(`bench:edge: ${m}\n`);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

interface Latency {
  calls: number;
  failed: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/** GetNode after GetNode for `ms`: the neighbour's latencies. */
async function neighbour(db: DatabaseClient, uuid: string, ms: number): Promise<Latency> {
  const lat: number[] = [];
  let failed = 0;
  const end = performance.now() + ms;
  while (performance.now() < end) {
    const t0 = performance.now();
    try {
      await db.call('GetNode', { uuid });
      lat.push(performance.now() - t0);
    } catch {
      failed++;
    }
  }
  lat.sort((a, b) => a - b);
  const r = (x: number): number => Number(x.toFixed(2));
  return { calls: lat.length, failed, p50Ms: r(percentile(lat, 0.5)), p99Ms: r(percentile(lat, 0.99)), maxMs: r(lat[lat.length - 1] ?? Number.NaN) };
}

/** The last message of an attacker with `final`, after it was told to stop (or ended on its own). */
function finalMessage<T>(child: ChildProcess, onMessage?: (m: T) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    child.on('message', (m: T & { final?: boolean }) => {
      onMessage?.(m);
      if (m.final) resolve(m);
    });
    child.once('exit', (code) => reject(new Error(`attacker exited (${code}) without its tally`)));
  });
}

interface Phase {
  db: DatabaseClient;
  /** The node the neighbour reads. */
  node: string;
  address: string;
  /** Where the churn goes: the replica, or a decoy (--decoy). */
  churnAddress: string;
  pid: number | undefined;
  children: Children;
  /** How long the neighbour is measured, with and without the attack. */
  ms: number;
}

const ratio = (a: Latency, b: Latency): number => Number((a.p99Ms / b.p99Ms).toFixed(2));

interface SlowReport {
  tally: { sent: number; waiting: number; statuses: Record<string, number>; resets: Record<string, number> };
  open: number;
}

/** The slow reader's calls, the replica's RSS around them, the neighbour beside them. */
async function slowPhase(p: Phase, calls: number, mode: 'slow' | 'read'): Promise<object> {
  const baseline = await neighbour(p.db, p.node, p.ms);
  const rssBefore = processRssMb(p.pid);
  log(`${mode === 'slow' ? 'slow reader' : 'a reader (control)'}: ${calls} ListInstances on one connection`);
  const slow = p.children.forkTs(ATTACKER, [mode, p.address, String(calls)]);
  let peak = rssBefore;
  let last: SlowReport | undefined;
  const sampler = setInterval(() => (peak = Math.max(peak, processRssMb(p.pid))), 100);
  const done = finalMessage<SlowReport>(slow, (m) => (last = m));
  // Until every call has settled (waiting for a window, or ended), or 60 s.
  const settleBy = performance.now() + 60_000;
  const settled = (): boolean => last !== undefined && last.tally.sent === calls && last.open === last.tally.waiting;
  while (!settled() && performance.now() < settleBy) await sleep(250);
  const withSlow = await neighbour(p.db, p.node, p.ms);
  const rssHeld = processRssMb(p.pid);
  slow.send('stop');
  const final = await done;
  await sleep(2000);
  clearInterval(sampler);
  const rssAfter = processRssMb(p.pid);
  return {
    calls,
    settled: settled(),
    tally: final.tally,
    rssMb: { before: Math.round(rssBefore), peak: Math.round(peak), held: Math.round(rssHeld), after: Math.round(rssAfter), growthPeak: Math.round(peak - rssBefore) },
    neighbourBaseline: baseline,
    neighbourWith: withSlow,
    p99Ratio: ratio(withSlow, baseline),
  };
}

/** Cancelled streams at `perSecond`, the neighbour beside them. */
async function churnPhase(p: Phase, perSecond: number): Promise<object> {
  const baseline = await neighbour(p.db, p.node, p.ms);
  log(`rapid reset: ${perSecond} cancelled streams a second for ${p.ms / 1000} s`);
  const cpu0 = processCpuSeconds(p.pid);
  const churner = p.children.forkTs(ATTACKER, ['churn', p.churnAddress, String(perSecond), String(p.ms)]);
  const churned = finalMessage<{ tally: ChurnTally }>(churner);
  const withChurn = await neighbour(p.db, p.node, p.ms);
  const replicaCpuS = processCpuSeconds(p.pid) - cpu0;
  const { tally } = await churned;
  return {
    perSecond,
    tally,
    achievedPerSecond: Math.round(tally.opened / (tally.elapsedMs / 1000)),
    // The replica's CPU over the window, the neighbour's calls included.
    replicaCpuSecondsPerSecond: Number((replicaCpuS / (p.ms / 1000)).toFixed(3)),
    replicaCpuUsPerStream: Math.round((replicaCpuS * 1e6) / Math.max(1, tally.opened)),
    neighbourBaseline: baseline,
    neighbourWith: withChurn,
    p99Ratio: ratio(withChurn, baseline),
  };
}

runBench('bench:edge', async (bench) => {
  const { values } = parseArgs({
    options: {
      calls: { type: 'string' },
      churn: { type: 'string' },
      seconds: { type: 'string' },
      env: { type: 'string', multiple: true },
      only: { type: 'string' },
      profile: { type: 'string' },
      decoy: { type: 'boolean' },
    },
    strict: true,
  });
  const calls = Number(values.calls ?? 1000);
  const churn = Number(values.churn ?? 5000);
  const seconds = Number(values.seconds ?? 10);
  const env = Object.fromEntries((values.env ?? []).map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
  if (!Number.isInteger(calls) || calls < 1 || calls > 10_000) throw new Error('--calls: 1..10000');
  if (!Number.isInteger(churn) || churn < 100 || churn > 50_000) throw new Error('--churn: 100..50000 per second');
  if (!(seconds >= 2 && seconds <= 60)) throw new Error('--seconds: 2..60');
  const only = values.only;
  if (only !== undefined && only !== 'slow' && only !== 'churn' && only !== 'read') throw new Error('--only: slow, churn or read');

  const tier = bench.tier({ dir: 'sfdb-bench-edge-', server: 'mariadb', database: 'edge', timeoutMs: 180_000 });
  const children = bench.children();
  await bench.start();
  const replica = await tier.add({
    name: 'replica',
    id: 'edge-bench',
    // The hostile clients are one host: the per-caller rate limits are not what is measured.
    env: { SFDB_RATE_LIMIT_NODE_RPS: '0', SFDB_RATE_LIMIT_DAEMON_RPS: '0', ...env },
    ...(values.profile === undefined ? {} : { execArgv: ['--cpu-prof', `--cpu-prof-dir=${values.profile}`] }),
  });
  const address = replica.grpcAddress;
  const db = createClient({ targets: [address], callerDaemon: 'bench', cache: false, feed: false, deadlineMs: 30_000 });
  try {
    log(`seeding ${INSTANCES} instances of ~1.8 KB`);
    const filler = 'x'.repeat(1800);
    for (let i = 0; i < INSTANCES; i += 50) {
      await Promise.all(
        Array.from({ length: Math.min(50, INSTANCES - i) }, (_, j) => db.call('CreateInstance', { uuid: randomUUID(), staticValues: JSON.stringify({ n: i + j, filler }) })),
      );
    }
    const node = randomUUID();
    await db.call('CreateNode', { uuid: node, fqdn: `edge-${node.slice(0, 8)}.bench.example` });
    const listed = await db.call('ListInstances', { pageSize: 1000 });
    const answerBytes = listed.objects.reduce((n, o) => n + o.staticValues.length + 120, 0);
    await neighbour(db, node, 2000); // warm-up

    // --decoy: the churn goes to a second replica (on the same database), so what it does to
    // the neighbour is the machine's (the attacker's CPU), not the measured replica's.
    const decoy = values.decoy ? await tier.add({ name: 'decoy', id: 'edge-decoy', env: { SFDB_RATE_LIMIT_NODE_RPS: '0', SFDB_RATE_LIMIT_DAEMON_RPS: '0', ...env } }) : undefined;
    const phase = { db, node, address, churnAddress: decoy?.grpcAddress ?? address, pid: replica.pid, children, ms: seconds * 1000 };
    const reader = only === 'read' ? await slowPhase(phase, calls, 'read') : undefined;
    const slowReader = only === undefined || only === 'slow' ? await slowPhase(phase, calls, 'slow') : undefined;
    const rapidReset = only === undefined || only === 'churn' ? await churnPhase(phase, churn) : undefined;

    const metrics = await replica.metrics();
    const refused = (reason: string): number => metricSum(metrics, 'database_grpc_refused_total', { reason });
    const m = describeMachine();
    const out = {
      command: `npm run bench:edge -- ${process.argv.slice(2).join(' ')}`,
      machine: `${m.nproc} × ${m.cpu}, Node ${m.node}, ${m.mariadb}, load1 ${load1()}`,
      answer: { objects: listed.objects.length, approxBytes: answerBytes },
      reader,
      slowReader,
      rapidReset,
      refusedTotal: { connectionBacklog: refused('connection_backlog'), replicaBacklog: refused('replica_backlog') },
    };
    process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
    return 0;
  } finally {
    db.close();
  }
});
