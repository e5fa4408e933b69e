// `npm run bench:rpc`: one point read (GetNode) measured three ways in one run: direct
// mysql2, a bare grpc-js passthrough, and the real tier through the typed client. A
// private MariaDB in a temporary directory (or a Galera cluster) and the tier
// (harness/cluster.ts), the bare server and every load client are separate processes,
// parts of the run's lifecycle (harness/main.ts): all of them
// are stopped and the directory removed on exit, on error and on Ctrl-C. Prints a
// Markdown table and writes it to docs/BENCHMARKS.md. The servers run as they ship
// (harness/built.ts: tsc's build under plain Node) unless `--from source` runs them under tsx.
// With --traced, tiers that trace (at the sampling percentages given, their spans to OTLP
// sinks of the run) are targets too, compared with the tier that does not, in the same
// rounds.
import type { ClusterReplica } from '../../harness/cluster.js';
import type { ReplicaProcess } from '../../harness/replica.js';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Database, createPool } from '../../server/db/pool.js';
import { Metrics } from '../../server/metrics.js';
import { insertNode } from '../../server/rpc/nodes/queries.js';
import { ROOT } from '../../harness/children.js';
import type { Children } from '../../harness/children.js';
import type { ProcessCluster } from '../../harness/cluster.js';
import { metricSum } from '../../harness/scrape.js';
import { startOtlpSink } from '../../harness/otlp-sink.js';
import type { OtlpSink } from '../../harness/otlp-sink.js';
import { EXIT_USAGE, parseCommandLine, runBench } from '../../harness/main.js';
import { firstMessage } from './children.js';
import type { BenchOptions } from './options.js';
import { REWARM_MS, parseOptions } from './options.js';
import type { BareReady, LayerCost, Target } from './protocol.js';
import { TARGETS, tracedTarget } from './protocol.js';
import { LoadSession } from './session.js';
import { roundOrder } from './order.js';
import type { Observed, TargetRun } from './session.js';
import { baselineTable, checkTargets, checkTraced, countCheck, layerTable, phaseLine, ratioTable, resultTable, summarize, tracedTable } from './compare.js';
import { startBaselineTier } from './baseline.js';
import { buildCheckout, compileModules } from '../../harness/built.js';
import type { BaselineTier } from './baseline.js';
import type { Exported } from './compare.js';
import { describeMachine, load1, renderSection, writeSection } from './report.js';
import type { Machine } from './report.js';

/** The tier's series of the measured calls (database_requests_total's labels). */
const REQUEST_LABELS = { operation: 'GetNode', caller_daemon: 'bench' } as const;

/** Calls in flight while the servers warm up. */
const PRIME_INFLIGHT = 64;

const HERE = join(ROOT, 'bench', 'rpc');

/** The bare server and what it imports of bench/rpc, compiled as the tier is (harness/built.ts). */
const BARE_MODULES = ['bench/rpc/bare-server.ts', 'bench/rpc/point-read.ts'] as const;

function say(message: string): void {
  process.stderr.write(`bench:rpc: ${message}\n`);
}

async function seed(url: string, uuids: readonly string[]): Promise<void> {
  const db = new Database(createPool({ url, connectionLimit: 4 }), new Metrics('bench-seed'));
  try {
    const sql = db.sql('rpc');
    for (let i = 0; i < uuids.length; i += 100) {
      await Promise.all(
        uuids.slice(i, i + 100).map((uuid, j) =>
          insertNode(sql, { uuid, fqdn: `node-${i + j}.bench.example`, ipAddress: `10.${(i + j) >> 16}.${((i + j) >> 8) & 255}.${(i + j) & 255}` }),
        ),
      );
    }
  } finally {
    await db.close();
  }
}

/** `--cpu-prof` into DIR/<server>/ (Node names the files; the largest is the main thread); the baseline's tier (--baseline) and the tiers that trace (--traced, DIR/traced-<percent>) too. */
function profileArgs(options: BenchOptions, server: 'tier' | 'bare' | 'baseline' | `traced-${number}`): string[] {
  return options.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${join(resolve(options.profileDir), server)}`] : [];
}

/** What the bench needs of its database: one MariaDB, or node 0 of a 3-node Galera cluster. */
interface BenchDatabase {
  readonly url: string;
  readonly pid: number | undefined;
}

/** What is known of the machine before anything starts. */
interface Before {
  machine: Machine;
  loadBefore: string;
  date: Date;
}

/**
 * One phase of one in-flight value: a fresh load client per target (its own process and
 * connections), `rounds` rounds each, the targets' rounds interleaved, each round in an
 * order of its own (order.ts).
 */
async function measurePhase(
  children: Children,
  options: BenchOptions,
  targets: readonly Target[],
  address: Partial<Record<Target, string>>,
  observe: Partial<Record<Target, Observed>>,
  uuids: string[],
  inflight: number,
  phase: number,
): Promise<TargetRun[]> {
  const roundMs = (options.durationS * 1000) / options.rounds;
  const sessions = new Map<Target, LoadSession>();
  for (const target of targets) {
    const job = { target, address: address[target] as string, poolSize: options.poolSize, inflight, uuids };
    sessions.set(target, await LoadSession.start(children, HERE, job, observe[target] as Observed));
  }
  say(`${inflight} in flight, phase ${phase} of ${options.phases}: ${options.rounds} rounds of ${roundMs / 1000} s per target, interleaved`);
  for (let round = 0; round < options.rounds; round++) {
    for (const target of roundOrder(targets, phase, round)) {
      await (sessions.get(target) as LoadSession).round(round === 0 ? options.warmupS * 1000 : REWARM_MS, roundMs);
    }
  }
  const runs: TargetRun[] = [];
  for (const target of targets) {
    const run = await (sessions.get(target) as LoadSession).stop();
    runs.push(run);
    const s = run.summary;
    say(
      `${target.padEnd(12)} ${String(inflight).padStart(3)} in flight: ${Math.round(s.calls / s.seconds)} calls/s, ` +
        `p50 ${s.p50Ms.toFixed(3)} ms, p99 ${s.p99Ms.toFixed(3)} ms` +
        (s.errors > 0 ? `, ${s.errors} errors (${s.firstError})` : '') +
        (run.serverCounted !== undefined && run.serverCounted !== s.allCalls ? `; the tier counted ${run.serverCounted} of ${s.allCalls} calls` : ''),
    );
  }
  return runs;
}

/** A tier that traces (--traced), and the sink of its spans. */
interface Traced {
  target: Target;
  replica: ClusterReplica;
  sink: OtlpSink;
}

/** The run once its parts started: the tiers are `cluster`'s; the bare server and the load clients are `children`. */
async function bench(options: BenchOptions, cluster: ProcessCluster, children: Children, before: Before): Promise<number> {
  // On Galera every server talks to node 0.
  const mariadb: BenchDatabase = { url: cluster.urlFor(0), pid: cluster.server.pids()[0] };
  say('starting the tier; it migrates the schema');
  const env = {
    SFDB_POOL_SIZE: String(options.poolSize),
    SFDB_DRAIN_GRACE_MS: '2000',
    // Throughput from one host: the per-caller rate limits are not what is measured.
    SFDB_RATE_LIMIT_NODE_RPS: '0',
    SFDB_RATE_LIMIT_DAEMON_RPS: '0',
  };
  const tier = await cluster.add({ name: 'tier', id: 'bench', env, execArgv: profileArgs(options, 'tier') });
  say(`the tier serves on ${tier.grpcAddress} (HTTP ${tier.httpPort})`);
  // The same tier, tracing: the SERVER span of every call it samples, to a sink of its own
  // (in this process, as a collector on the machine would be). On the tier's database, so
  // the replicas health-check each other (SFDB_PEER_PROBE_MS: each receives 4 checks a
  // second per peer) beside the measured calls.
  const sinks: OtlpSink[] = [];
  let baseline: BaselineTier | undefined;
  try {
    if (options.baseline !== undefined) {
      const commit = options.baseline;
      say(`checking out ${commit} (--baseline) and starting its tier`);
      const dir = join(tmpdir(), `sfdb-bench-baseline-${process.pid}`);
      const log = join(tmpdir(), `sfdb-bench-baseline-${process.pid}.log`);
      baseline = await startBaselineTier(commit, dir, cluster.server, env, log, options.baselineFrom, profileArgs(options, 'baseline'));
      say(`the baseline's tier serves on ${baseline.replica.grpcAddress}`);
    }
    const traced: Traced[] = [];
    for (const percent of options.traced) {
      const sink = await startOtlpSink();
      sinks.push(sink);
      // 0: the control, set up as the others but with no SDK.
      const otel = { OTEL_TRACES_EXPORTER: percent === 0 ? 'none' : 'otlp', OTEL_EXPORTER_OTLP_ENDPOINT: sink.endpoint, OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: String(percent / 100) };
      const replica = await cluster.add({ name: `traced-${percent}`, id: `bench-traced-${percent}`, env: { ...env, ...otel }, execArgv: profileArgs(options, `traced-${percent}`) });
      traced.push({ target: tracedTarget(percent), replica, sink });
      say(`${percent === 0 ? 'the control (no SDK)' : `the tier tracing ${percent} % of its calls`} serves on ${replica.grpcAddress}`);
    }
    return await measure(options, cluster, children, before, mariadb, tier, traced, baseline);
  } finally {
    for (const sink of sinks) await sink.close();
    await baseline?.stop();
  }
}

/** The run once its servers are up. */
async function measure(
  options: BenchOptions,
  cluster: ProcessCluster,
  children: Children,
  { machine, loadBefore, date }: Before,
  mariadb: BenchDatabase,
  tier: ClusterReplica,
  traced: readonly Traced[],
  baseline: BaselineTier | undefined,
): Promise<number> {
  say(`seeding ${options.nodes} nodes`);
  const uuids = Array.from({ length: options.nodes }, () => randomUUID());
  await seed(mariadb.url, uuids);
  if (baseline) await seed(baseline.url, uuids);

  const bareArgs = [mariadb.url, String(options.poolSize)];
  const bareOptions = { execArgv: profileArgs(options, 'bare') };
  const bare = options.from === 'built' ? children.forkNode(compileModules(BARE_MODULES)[0] as string, bareArgs, bareOptions) : children.forkTs(join(HERE, 'bare-server.ts'), bareArgs, bareOptions);
  const { port: barePort } = await firstMessage<BareReady>(bare, 'bare server', 60_000);
  say(`bare server on ${barePort}`);

  const targets: Target[] = [...TARGETS, ...(baseline ? (['baseline'] as const) : []), ...traced.map((t) => t.target)];
  const address: Partial<Record<Target, string>> = { direct: mariadb.url, bare: `127.0.0.1:${barePort}`, tier: tier.grpcAddress };
  // GetNode calls of the `bench` caller a tier has counted.
  const counted = (replica: ReplicaProcess) => async () => metricSum(await replica.metrics(), 'database_requests_total', REQUEST_LABELS);
  const observe: Partial<Record<Target, Observed>> = {
    direct: { server: undefined, mariadb: mariadb.pid },
    bare: { server: bare.pid, mariadb: mariadb.pid },
    tier: { server: tier.pid, mariadb: mariadb.pid, requestCount: counted(tier) },
  };
  if (baseline) {
    address.baseline = baseline.replica.grpcAddress;
    observe.baseline = { server: baseline.replica.pid, mariadb: mariadb.pid, requestCount: counted(baseline.replica) };
  }
  for (const t of traced) {
    address[t.target] = t.replica.grpcAddress;
    observe[t.target] = { server: t.replica.pid, mariadb: mariadb.pid, requestCount: counted(t.replica) };
  }
  // Every server answers a burst of calls before anything is measured: none is then
  // measured while its JIT is still compiling (the first phase has only 1 call in flight).
  for (const target of targets.filter((x) => x !== 'direct')) {
    const job = { target, address: address[target] as string, poolSize: options.poolSize, inflight: PRIME_INFLIGHT, uuids };
    const session = await LoadSession.start(children, HERE, job, { server: undefined, mariadb: undefined });
    await session.warm(options.warmupS * 1000);
    await session.stop();
  }
  say(`servers warmed up (${options.warmupS} s of ${PRIME_INFLIGHT} in flight each)`);

  const runs: TargetRun[] = [];
  for (const inflight of options.inflight) {
    for (let phase = 1; phase <= options.phases; phase++) {
      runs.push(...(await measurePhase(children, options, targets, address, observe, uuids, inflight, phase)));
    }
  }

  // The tracing layer alone, per call, without an SDK and at each sampling (no export).
  const layer: LayerCost[] = [];
  for (const arg of traced.length > 0 ? ['off', ...options.traced.filter((p) => p > 0).map(String)] : []) {
    layer.push(await firstMessage<LayerCost>(children.forkTs(join(HERE, 'trace-layer.ts'), [arg]), `trace layer (${arg})`, 300_000));
  }
  // Stop the servers before reporting: a profile is written when its process exits, and a
  // tier that traces flushes its last spans as it stops.
  await children.stopAll();
  const exported = new Map<Target, Exported>();
  for (const t of traced) {
    const calls = metricSum(await t.replica.metrics(), 'database_requests_total');
    await cluster.stopReplica(t.replica.name);
    exported.set(t.target, { spans: t.sink.spans, calls });
  }
  await cluster.stopReplica('tier');
  const cells = summarize(runs, options.inflight, targets);
  const report = { options, machine, date, loadBefore, loadAfter: load1(), cells, exported, layer, baselineCommit: baseline?.commit };
  const phases = options.inflight.map((n) => phaseLine(cells, n)).filter((line) => line !== undefined);
  const tracing = traced.length > 0 ? `${tracedTable(cells, options.inflight, exported)}\n\n${layerTable(layer)}\n\n` : '';
  const versus = baseline ? `baseline: ${baseline.commit}\n\n${baselineTable(cells, options.inflight)}\n\n` : '';
  process.stdout.write(`${resultTable(cells)}\n\n${ratioTable(cells, options.inflight)}\n\n${versus}${tracing}${phases.map((l) => `${l}\n`).join('')}\n${countCheck(cells)}\n\n`);
  for (const c of [...checkTargets(cells), ...checkTraced(cells)]) {
    process.stdout.write(`${c.text} — ${c.holds === undefined ? 'not measured' : c.holds ? 'holds' : 'FAILS'}\n`);
  }
  if (options.writeDocs) {
    const docs = join(ROOT, 'docs', 'BENCHMARKS.md');
    writeSection(docs, renderSection(report));
    say(`wrote ${docs}`);
  }
  const errors = runs.reduce((sum, r) => sum + r.summary.errors, 0);
  if (errors > 0) say(`${errors} calls failed: see the errors column`);
  const miscounted = runs.some((r) => r.serverCounted !== undefined && r.serverCounted !== r.summary.allCalls);
  return errors > 0 || miscounted ? 1 : 0;
}

// The parts, in the order taken (stopped in reverse): the tier (the directory, the
// database, the replica), the children.
runBench('bench:rpc', async (run) => {
  const options = parseCommandLine(parseOptions);
  if (options === undefined) return EXIT_USAGE;
  const before: Before = { machine: describeMachine(), loadBefore: load1(), date: new Date() };
  if (options.from === 'built') {
    say('building the tier (tsc -b tsconfig.build.json, as npm start does)');
    buildCheckout(ROOT);
  }
  const cluster = run.tier({
    built: options.from === 'built',
    dir: 'sfdb-bench-',
    server: options.backend,
    database: 'bench',
    // The tier's log: tier.log. In the run's session, as the bare server is: with the
    // kernel's autogroup scheduling a session of its own would get its own share of the
    // cores, and tier against bare would compare two schedules, not two servers.
    ownSession: false,
    graceMs: 5_000,
    timeoutMs: 180_000,
  });
  const children = run.children(5_000);
  await run.start();
  return bench(options, cluster, children, before);
});
