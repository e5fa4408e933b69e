// `npm run bench:balance`: the client's p2c balancer against grpc-js's round_robin, in one
// run, over three real tier replicas of which one is slowed. The slowdown is real: the
// slowed replica's process is stopped (SIGSTOP) for --stall-ms of every --period-ms and
// continued (SIGCONT) in between, as a GC pause or a starved VM would stop it. Two load
// processes, one per policy, each one client (one channel) with a closed loop of
// --callers callers reading random seeded nodes, take turns: --rounds rounds of one
// --phase-s phase per policy, the order turning every round, so both see the same
// replicas under the same stalls. Each replica's share comes from its own
// database_requests_total, scraped before and after every phase. A private MariaDB in a
// temporary directory; every process is stopped (and continued first) on exit, error or
// Ctrl-C: they are parts of the run's lifecycle (harness/main.ts). Prints a
// Markdown section for docs/BENCHMARKS.md.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { ChildProcess } from 'node:child_process';
import { createClient } from '../../client/index.js';
import type { BalancePolicy } from '../../client/config.js';
import { component } from '../../proto/runtime/lifecycle.js';
import { describeMachine, load1 } from '../../harness/machine.js';
import { percentile } from '../../harness/stats.js';
import { ROOT, kill } from '../../harness/children.js';
import type { Children } from '../../harness/children.js';
import type { ProcessCluster } from '../../harness/cluster.js';
import type { ReplicaProcess } from '../../harness/replica.js';
import { metricSum } from '../../harness/scrape.js';
import { EXIT_USAGE, parseCommandLine, runBench } from '../../harness/main.js';
import { Messages, firstMessage } from '../rpc/children.js';
import type { LoadCommand, LoadJob, PhaseResult } from './load.js';

const POLICIES: readonly BalancePolicy[] = ['round_robin', 'p2c'];
const REPLICAS = ['a', 'b', 'c-slowed'] as const;
const USAGE = 'usage: npm run bench:balance -- [--phase-s 6] [--rounds 6] [--callers 8] [--stall-ms 300] [--period-ms 2000] [--nodes 1000]';

interface Options {
  phaseS: number;
  rounds: number;
  callers: number;
  stallMs: number;
  periodMs: number;
  nodes: number;
  argv: readonly string[];
}

function parseOptions(argv: readonly string[]): Options {
  const { values } = parseArgs({
    args: [...argv],
    options: Object.fromEntries(['phase-s', 'rounds', 'callers', 'stall-ms', 'period-ms', 'nodes'].map((k) => [k, { type: 'string' as const }])),
    strict: true,
  });
  const num = (name: string, dflt: number, max: number): number => {
    const raw = values[name] as string | undefined;
    if (raw === undefined) return dflt;
    const v = Number(raw);
    if (!/^\d+(\.\d+)?$/.test(raw) || v <= 0 || v > max) throw new Error(`--${name}: "${raw}" is not a number in (0, ${max}]\n${USAGE}`);
    return v;
  };
  const o = {
    phaseS: num('phase-s', 6, 600),
    rounds: Math.round(num('rounds', 6, 100)),
    callers: Math.round(num('callers', 8, 1024)),
    stallMs: num('stall-ms', 300, 10_000),
    periodMs: num('period-ms', 2000, 60_000),
    nodes: Math.round(num('nodes', 1000, 100_000)),
    argv: [...argv],
  };
  if (o.stallMs >= o.periodMs) throw new Error(`--stall-ms must be shorter than --period-ms\n${USAGE}`);
  return o;
}

function say(message: string): void {
  process.stderr.write(`bench:balance: ${message}\n`);
}

/** GetNode calls of the `bench` caller a replica has counted. */
async function served(replica: ReplicaProcess): Promise<number> {
  return metricSum(await replica.metrics(), 'database_requests_total', { operation: 'GetNode', caller_daemon: 'bench' });
}

/** Stops `pid` for `stallMs` of every `periodMs` until stop() (which leaves it running). */
function stallCycle(pid: number, stallMs: number, periodMs: number): { stop(): void; stalls(): number } {
  let stalls = 0;
  let resume: NodeJS.Timeout | undefined;
  const cont = (): void => {
    resume = undefined;
    kill(pid, 'SIGCONT');
  };
  const timer = setInterval(() => {
    try {
      process.kill(pid, 'SIGSTOP');
    } catch {
      return; // exited (stopped by a Ctrl-C meanwhile)
    }
    stalls += 1;
    resume = setTimeout(cont, stallMs);
  }, periodMs);
  return {
    stop() {
      clearInterval(timer);
      if (resume) clearTimeout(resume);
      cont();
    },
    stalls: () => stalls,
  };
}

interface PolicyTotals {
  latenciesMs: number[];
  errors: number;
  firstError: string | undefined;
  seconds: number;
  served: number[];
  phaseP99: number[];
}

const f1 = (v: number): string => v.toFixed(1);
const f2 = (v: number): string => v.toFixed(2);

function render(o: Options, totals: Record<BalancePolicy, PolicyTotals>, stalls: number, date: Date, loadBefore: string, loadAfter: string): string {
  const m = describeMachine();
  const rows = POLICIES.map((p) => {
    const t = totals[p];
    const sorted = Float64Array.from(t.latenciesMs).sort();
    const all = t.served.reduce((s, n) => s + n, 0);
    const shares = t.served.map((n) => `${f1((100 * n) / all)} %`);
    return `| ${p} | ${t.latenciesMs.length} | ${Math.round(t.latenciesMs.length / t.seconds)} | ${t.errors} | ${f2(percentile(sorted, 0.5))} | ${f2(percentile(sorted, 0.99))} | ${f2(percentile(sorted, 0.999))} | ${shares.join(' | ')} | ${t.phaseP99.map(f1).join(', ')} |`;
  });
  const cmd = o.argv.length > 0 ? `npm run bench:balance -- ${o.argv.join(' ')}` : 'npm run bench:balance';
  return [
    '## Balancing: p2c against round_robin with a slowed replica',
    '',
    `- Command: \`${cmd}\``,
    `- Date: ${date.toISOString().replace(/\.\d+Z$/, 'Z')}; machine: ${m.nproc} cores (nproc), ${m.cpu}; Node ${m.node}; ${m.mariadb}; load average (1 min) before / after: ${loadBefore} / ${loadAfter}`,
    `- Setup: a private MariaDB, ${o.nodes} seeded nodes, three replicas (\`server/main.ts\` processes, rate limits off). Replica c is stopped (SIGSTOP) for ${o.stallMs} ms of every ${o.periodMs} ms and continued (SIGCONT) in between, ${stalls} stalls over the run. ` +
      `Two load processes, one per policy, each one client (one channel) with ${o.callers} callers in a closed loop of \`getNode(random seeded uuid)\` (no cache), take turns: ${o.rounds} rounds of one ${o.phaseS} s phase per policy (1 s unmeasured warm-up each), the order turning every round.`,
    '- Latency is the client\'s, per call (ms), of the measured seconds; share is each replica\'s own count of the calls (`database_requests_total`), scraped before and after every phase (its warm-up second included).',
    '',
    '| policy | calls | calls/s | errors | p50 ms | p99 ms | p99.9 ms | share a | share b | share c (slowed) | p99 per phase, ms |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    ...rows,
    '',
  ].join('\n');
}

type StallCycle = ReturnType<typeof stallCycle>;

/** The run once its parts started: the replicas are `tier`'s, the load processes `children`. */
async function bench(o: Options, tier: ProcessCluster, children: Children, startStalls: typeof stallCycle, date: Date, loadBefore: string): Promise<number> {
  const replicas: ReplicaProcess[] = [];
  for (const id of REPLICAS) {
    // One at a time: the first migrates the schema. Its log: tier-<id>.log.
    const replica = await tier.add({ name: `tier-${id}`, id: `bench-${id}` });
    replicas.push(replica);
    say(`replica ${id} ready (gRPC ${replica.grpcPort})`);
  }
  const targets = replicas.map((r) => r.grpcAddress);

  say(`seeding ${o.nodes} nodes`);
  const seeder = createClient({ targets, callerDaemon: 'bench', cache: false });
  const uuids = Array.from({ length: o.nodes }, () => randomUUID());
  for (let i = 0; i < uuids.length; i += 50) {
    await Promise.all(uuids.slice(i, i + 50).map((uuid, j) => seeder.createNode({ uuid, fqdn: `node-${i + j}.bench.example` })));
  }
  seeder.close();

  const loads = new Map<BalancePolicy, { child: ChildProcess; messages: Messages<PhaseResult> }>();
  for (const policy of POLICIES) {
    const job: LoadJob = { policy, targets, callers: o.callers, uuids };
    const child = children.forkTs(join(ROOT, 'bench', 'balance', 'load.ts'), [JSON.stringify(job)]);
    await firstMessage(child, `load client ${policy}`, 60_000);
    loads.set(policy, { child, messages: new Messages<PhaseResult>(child) });
  }

  const slowed = replicas[2]?.pid as number;
  const cycle = startStalls(slowed, o.stallMs, o.periodMs);
  say(`replica c (pid ${slowed}) stalls ${o.stallMs} ms of every ${o.periodMs} ms`);
  const totals = Object.fromEntries(
    POLICIES.map((p) => [p, { latenciesMs: [], errors: 0, firstError: undefined, seconds: 0, served: [0, 0, 0], phaseP99: [] } as PolicyTotals]),
  ) as Record<BalancePolicy, PolicyTotals>;
  for (let round = 0; round < o.rounds; round++) {
    const order = round % 2 === 0 ? POLICIES : [...POLICIES].reverse();
    for (const policy of order) {
      const load = loads.get(policy) as { child: ChildProcess; messages: Messages<PhaseResult> };
      const before = await Promise.all(replicas.map(served));
      load.child.send({ cmd: 'run', warmupMs: 1000, durationMs: o.phaseS * 1000 } satisfies LoadCommand);
      const result = await load.messages.next(`phase ${policy}`, o.phaseS * 1000 + 60_000);
      const after = await Promise.all(replicas.map(served));
      const t = totals[policy];
      t.latenciesMs.push(...result.latenciesMs);
      t.errors += result.errors;
      t.firstError ??= result.firstError;
      t.seconds += result.seconds;
      after.forEach((n, i) => (t.served[i] = (t.served[i] as number) + n - (before[i] as number)));
      const p99 = percentile(Float64Array.from(result.latenciesMs).sort(), 0.99);
      t.phaseP99.push(p99);
      say(`round ${round + 1} ${policy}: ${result.latenciesMs.length} calls, p99 ${f2(p99)} ms, served ${after.map((n, i) => n - (before[i] as number)).join(' / ')}`);
    }
  }
  cycle.stop();
  const stalls = cycle.stalls();
  for (const { child } of loads.values()) child.send({ cmd: 'stop' } satisfies LoadCommand);
  await children.stopAll();
  process.stdout.write(`${render(o, totals, stalls, date, loadBefore, load1())}\n`);
  const errors = POLICIES.reduce((s, p) => s + totals[p].errors, 0);
  if (errors > 0) say(`${errors} calls failed; first: ${POLICIES.map((p) => totals[p].firstError).find(Boolean)}`);
  return errors > 0 ? 1 : 0;
}

// The parts, in the order taken (stopped in reverse): the tier (the directory, MariaDB,
// the replicas), the load clients, the stall cycle (a stopped process would not hear SIGTERM).
runBench('bench:balance', async (run) => {
  const options = parseCommandLine(parseOptions);
  if (options === undefined) return EXIT_USAGE;
  const date = new Date();
  const loadBefore = load1();
  const tier = run.tier({
    dir: 'sfdb-balance-',
    server: 'mariadb',
    database: 'bench',
    env: { SFDB_DRAIN_GRACE_MS: '2000', SFDB_RATE_LIMIT_NODE_RPS: '0', SFDB_RATE_LIMIT_DAEMON_RPS: '0' },
    graceMs: 5_000,
    timeoutMs: 180_000,
  });
  const children = run.children(5_000);
  // Stopped before the children: the slowed replica is continued first.
  let cycle: StallCycle | undefined;
  let stopping = false;
  run.add(
    component('stall cycle', () => undefined, () => {
      stopping = true;
      cycle?.stop();
    }),
  );
  const startStalls = (pid: number, stallMs: number, periodMs: number): StallCycle => {
    if (stopping) throw new Error('not stalling a replica: the run is stopping');
    return (cycle = stallCycle(pid, stallMs, periodMs));
  };
  await run.start();
  return bench(options, tier, children, startStalls, date, loadBefore);
});
