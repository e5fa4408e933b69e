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
//     without one just before it (its baseline; ratios in one run, the machine is shared);
//   - the floor of the rapid reset: the same churn and the same neighbour against a bare
//     grpc-js server (./floor-server.ts: the tier's service and connection options, GetNode
//     from memory), one after the other with the tier, --rounds times, the order alternated;
//     the neighbour's p99 beside the churn as tier ÷ floor (on 2 shared cores the floor
//     itself may be over the target). Here the neighbour calls at most 100 times a second
//     at both, so the faster server is not also called more often.
// The hostile clients are child processes (./attacker.ts), so their work does not delay
// the neighbour's answers here. A private MariaDB and the replica run as child processes,
// a tier in the run's lifecycle (harness/main.ts): stopped on exit, on error, on Ctrl-C.
//   npm run bench:edge -- [--calls 1000] [--churn 5000] [--seconds 10] [--env K=V ...]
//                         [--only slow|churn|read] [--decoy] [--rounds 1] [--profile DIR]
//                         [--from built|source]
// The replica and the floor run as they ship (harness/built.ts: the tier's build, the floor
// compiled by the same tsc, plain Node) unless --from source runs both under tsx;
// --only read: instead of the slow reader, the same calls from a connection that reads them
// (a control: what the calls themselves cost the replica's RSS);
// --env passes a setting to the replica and the floor (for instance the caps, to measure
// them off); --profile writes the replica's and the floor's CPU profiles (--cpu-prof) into
// DIR; --decoy sends the tier's churn to a second replica instead (what the attacker's own
// CPU does to the neighbour).
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { parseArgs } from 'node:util';
import { createClient } from '../../client/index.js';
import type { DatabaseClient } from '../../client/index.js';
import { ROOT, processCpuSeconds, processRssMb } from '../../harness/children.js';
import type { Children } from '../../harness/children.js';
import { buildCheckout, compileModules, fromOption } from '../../harness/built.js';
import { describeMachine, load1 } from '../../harness/machine.js';
import { runBench } from '../../harness/main.js';
import type { ChurnTally } from '../../harness/raw-grpc.js';
import { metricSum } from '../../harness/scrape.js';
import { firstMessage } from '../rpc/children.js';
import { percentile } from '../../harness/stats.js';

const ATTACKER = join(ROOT, 'bench', 'edge', 'attacker.ts');
/** From the repository's root (compiled into dist/ at the same path when the run is built). */
const FLOOR = 'bench/edge/floor-server.ts';
const INSTANCES = 1000;
/** Beside the rapid reset the neighbour calls at most every 10 ms (100 calls/s), at the tier and at the floor alike. */
const NEIGHBOUR_EVERY_MS = 10;
const log = (m: string): void => void process.stderr.write(`bench:edge: ${m}\n`);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

interface Latency {
  calls: number;
  failed: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/**
 * GetNode after GetNode for `ms`: the neighbour's latencies. `everyMs`: a call starts at
 * most that often (the next at once when one takes longer), so that a server answering
 * faster is not also called more often (the rapid reset's tier and floor).
 */
async function neighbour(db: DatabaseClient, uuid: string, ms: number, everyMs = 0): Promise<Latency> {
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
    const left = everyMs - (performance.now() - t0);
    if (left > 0) await sleep(left);
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

/** A server the churn is measured against: the tier, or the floor (a bare grpc-js server). */
interface ChurnTarget {
  name: 'tier' | 'floor';
  /** The neighbour's client, and the node it reads. */
  db: DatabaseClient;
  node: string;
  /** Where the churn goes: the server, or for the tier a decoy (--decoy). */
  churnAddress: string;
  pid: number | undefined;
}

interface ChurnRow {
  target: ChurnTarget['name'];
  tally: ChurnTally;
  achievedPerSecond: number;
  /** The server's CPU over the window, the neighbour's calls included. */
  serverCpuSecondsPerSecond: number;
  serverCpuUsPerStream: number;
  neighbourBaseline: Latency;
  neighbourWith: Latency;
  p99Ratio: number;
}

/** Cancelled streams at `perSecond` against `target`, its neighbour's latency before and beside them. */
async function churnPhase(children: Children, ms: number, target: ChurnTarget, perSecond: number): Promise<ChurnRow> {
  const baseline = await neighbour(target.db, target.node, ms, NEIGHBOUR_EVERY_MS);
  log(`rapid reset at the ${target.name}: ${perSecond} cancelled streams a second for ${ms / 1000} s`);
  const cpu0 = processCpuSeconds(target.pid);
  const churner = children.forkTs(ATTACKER, ['churn', target.churnAddress, String(perSecond), String(ms)]);
  const churned = finalMessage<{ tally: ChurnTally }>(churner);
  const withChurn = await neighbour(target.db, target.node, ms, NEIGHBOUR_EVERY_MS);
  const cpuS = processCpuSeconds(target.pid) - cpu0;
  const { tally } = await churned;
  return {
    target: target.name,
    tally,
    achievedPerSecond: Math.round(tally.opened / (tally.elapsedMs / 1000)),
    serverCpuSecondsPerSecond: Number((cpuS / (ms / 1000)).toFixed(3)),
    serverCpuUsPerStream: Math.round((cpuS * 1e6) / Math.max(1, tally.opened)),
    neighbourBaseline: baseline,
    neighbourWith: withChurn,
    p99Ratio: ratio(withChurn, baseline),
  };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return Number((s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2).toFixed(2));
};

/**
 * `rounds` rounds of the churn at the tier and at the floor, one after the other, the order
 * alternated (tier first in the first round); each target's medians, and tier ÷ floor.
 */
async function churnRounds(children: Children, ms: number, targets: { tier: ChurnTarget; floor: ChurnTarget }, perSecond: number, rounds: number): Promise<object> {
  const rows: ChurnRow[] = [];
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? [targets.tier, targets.floor] : [targets.floor, targets.tier];
    for (const target of order) rows.push(await churnPhase(children, ms, target, perSecond));
  }
  const summary = (name: ChurnTarget['name']): Record<string, number> => {
    const mine = rows.filter((r) => r.target === name);
    return {
      baselineP50Ms: median(mine.map((r) => r.neighbourBaseline.p50Ms)),
      baselineP99Ms: median(mine.map((r) => r.neighbourBaseline.p99Ms)),
      withP50Ms: median(mine.map((r) => r.neighbourWith.p50Ms)),
      withP99Ms: median(mine.map((r) => r.neighbourWith.p99Ms)),
      achievedPerSecond: median(mine.map((r) => r.achievedPerSecond)),
      serverCpuUsPerStream: median(mine.map((r) => r.serverCpuUsPerStream)),
    };
  };
  const tier = summary('tier');
  const floor = summary('floor');
  const div = (a: number | undefined, b: number | undefined): number => Number(((a ?? Number.NaN) / (b ?? Number.NaN)).toFixed(2));
  return {
    rounds: rows,
    medians: { tier, floor },
    // The neighbour's p99 beside the churn, the tier's over the floor's (and the same without the churn).
    tierOverFloor: { withP99: div(tier.withP99Ms, floor.withP99Ms), baselineP99: div(tier.baselineP99Ms, floor.baselineP99Ms) },
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
      rounds: { type: 'string' },
      from: { type: 'string' },
    },
    strict: true,
  });
  const calls = Number(values.calls ?? 1000);
  const churn = Number(values.churn ?? 5000);
  const seconds = Number(values.seconds ?? 10);
  const rounds = Number(values.rounds ?? 1);
  const env = Object.fromEntries((values.env ?? []).map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
  if (!Number.isInteger(calls) || calls < 1 || calls > 10_000) throw new Error('--calls: 1..10000');
  if (!Number.isInteger(churn) || churn < 100 || churn > 50_000) throw new Error('--churn: 100..50000 per second');
  if (!(seconds >= 2 && seconds <= 60)) throw new Error('--seconds: 2..60');
  if (!Number.isInteger(rounds) || rounds < 1 || rounds > 10) throw new Error('--rounds: 1..10');
  const from = fromOption('from', values.from, 'built');
  const only = values.only;
  if (only !== undefined && only !== 'slow' && only !== 'churn' && only !== 'read') throw new Error('--only: slow, churn or read');

  if (from === 'built') {
    log('building the tier (tsc -b tsconfig.build.json, as npm start does)');
    buildCheckout(ROOT);
  }
  const tier = bench.tier({ dir: 'sfdb-bench-edge-', server: 'mariadb', database: 'edge', timeoutMs: 180_000, built: from === 'built' });
  const children = bench.children();
  await bench.start();
  // The hostile clients are one host: the per-caller rate limits are not what is measured.
  const settings = { SFDB_RATE_LIMIT_NODE_RPS: '0', SFDB_RATE_LIMIT_DAEMON_RPS: '0', ...env };
  const profile = values.profile === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${values.profile}`];
  const replica = await tier.add({ name: 'replica', id: 'edge-bench', env: settings, execArgv: profile });
  const address = replica.grpcAddress;
  const db = createClient({ targets: [address], callerDaemon: 'bench', cache: false, feed: false, deadlineMs: 30_000 });
  let floorDb: DatabaseClient | undefined;
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
    const decoy = values.decoy ? await tier.add({ name: 'decoy', id: 'edge-decoy', env: settings }) : undefined;
    const phase = { db, node, address, churnAddress: decoy?.grpcAddress ?? address, pid: replica.pid, children, ms: seconds * 1000 };
    const reader = only === 'read' ? await slowPhase(phase, calls, 'read') : undefined;
    const slowReader = only === undefined || only === 'slow' ? await slowPhase(phase, calls, 'slow') : undefined;
    let rapidReset: object | undefined;
    if (only === undefined || only === 'churn') {
      // The floor: a bare grpc-js server with the tier's service and connection options.
      const floorArgs = [JSON.stringify(settings)];
      const floor = from === 'built' ? children.forkNode(compileModules([FLOOR])[0] as string, floorArgs, { execArgv: profile }) : children.forkTs(join(ROOT, FLOOR), floorArgs, { execArgv: profile });
      const { port } = await firstMessage<{ port: number }>(floor, 'floor server', 60_000);
      floorDb = createClient({ targets: [`127.0.0.1:${port}`], callerDaemon: 'bench', cache: false, feed: false, deadlineMs: 30_000 });
      await neighbour(floorDb, node, 2000); // warm-up
      const targets = {
        tier: { name: 'tier' as const, db, node, churnAddress: phase.churnAddress, pid: replica.pid },
        floor: { name: 'floor' as const, db: floorDb, node, churnAddress: `127.0.0.1:${port}`, pid: floor.pid },
      };
      rapidReset = await churnRounds(children, phase.ms, targets, churn, rounds);
    }

    const metrics = await replica.metrics();
    const refused = (reason: string): number => metricSum(metrics, 'database_grpc_refused_total', { reason });
    const m = describeMachine();
    const out = {
      command: `npm run bench:edge -- ${process.argv.slice(2).join(' ')}`,
      servers: from === 'built' ? 'built: node dist/server/main.js, the floor compiled by tsc' : 'source: under tsx',
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
    floorDb?.close();
  }
});
