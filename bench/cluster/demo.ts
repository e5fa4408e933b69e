// `npm run demo`: a small simulated cluster against the embedded default, and a live view
// of where its load comes from. One tier replica started exactly as `npm start` would
// (no SFDB_DATABASE_URL: it runs its own MariaDB, here in .data/demo-mariadb so the
// default .data/mariadb is left alone), a cluster seeded once (kept in
// .data/demo-cluster.json and reused), the simulator in feed mode (--mode to change);
// every few seconds the top (operation, caller) pairs by rate from the tier's /metrics and
// MariaDB's statement rate. Ctrl-C stops the simulator, then the tier (which stops its MariaDB); nothing is
// left running (the child processes are a part of the run's lifecycle, harness/main.ts).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createClient } from '../../client/index.js';
import type { DatabaseClient } from '../../client/index.js';
import { MODES } from './options.js';
import { StatusReader, calibrateShow } from './measure.js';
import type { StatusCounts } from './measure.js';
import type { Children } from '../../harness/children.js';
import { EXIT_USAGE, parseCommandLine, runBench } from '../../harness/main.js';
import { Simulator, spawnSimulator } from './processes.js';
import { ROOT, tail } from '../../harness/children.js';
import { latePort } from '../../harness/ports.js';
import { startReplica } from '../../harness/replica.js';
import type { ReplicaProcess } from '../../harness/replica.js';
import { pairRates } from '../../ops/prom.js';
import type { PromSample } from '../../ops/prom.js';
import type { Mode, SimConfig, SimEvent } from './protocol.js';
import { loadSeed } from './run.js';
import type { SeededCluster } from './run.js';

const DATA = join(ROOT, '.data');
const CLUSTER_FILE = join(DATA, 'demo-cluster.json');

const DEMO_USAGE = 'usage: npm run demo -- [--mode feed|anchor|naive] [--nodes 3] [--every 5] [--top 10]';

function say(message: string): void {
  process.stderr.write(`demo: ${message}\n`);
}

interface DemoOptions {
  mode: Mode;
  nodes: number;
  everyS: number;
  top: number;
}

function parse(argv: string[]): DemoOptions {
  const { values } = parseArgs({ args: argv, options: { mode: { type: 'string' }, nodes: { type: 'string' }, every: { type: 'string' }, top: { type: 'string' } }, strict: true });
  const mode = (values.mode ?? 'feed') as Mode;
  if (!MODES.includes(mode)) throw new Error(`--mode: one of ${MODES.join(', ')}`);
  const int = (name: string, raw: string | undefined, dflt: number, max: number): number => {
    const v = raw === undefined ? dflt : Number(raw);
    if (!Number.isInteger(v) || v < 1 || v > max) throw new Error(`--${name}: an integer in 1..${max}`);
    return v;
  };
  return { mode, nodes: int('nodes', values.nodes, 3, 50), everyS: int('every', values.every, 5, 600), top: int('top', values.top, 10, 100) };
}

/** The saved cluster when it is still in the database (same node count), else a fresh seed. */
async function cluster(db: DatabaseClient, nodes: number): Promise<SeededCluster> {
  if (existsSync(CLUSTER_FILE)) {
    const saved = JSON.parse(readFileSync(CLUSTER_FILE, 'utf8')) as SeededCluster;
    const first = saved.nodes[0];
    if (saved.nodes.length === nodes && first && (await db.getNode(first.uuid))) {
      say(`reusing the cluster seeded earlier (${CLUSTER_FILE})`);
      return saved;
    }
  }
  say(`seeding ${nodes} nodes, ${nodes} instances and a little history`);
  const seed = await loadSeed('bench/cluster/sim/seed.ts');
  const seeded = await seed(db, { nodes, instances: nodes, history: 100 });
  writeFileSync(CLUSTER_FILE, `${JSON.stringify(seeded, null, 2)}\n`);
  return seeded;
}

function pad(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length);
}

function view(o: DemoOptions, seconds: number, before: { metrics: PromSample[]; status: StatusCounts }, after: { metrics: PromSample[]; status: StatusCounts }, showCost: StatusCounts): string {
  const pairs = pairRates([before.metrics], [after.metrics], seconds);
  const total = pairs.reduce((s, p) => s + p.perSecond, 0);
  const statements = (after.status.Questions - before.status.Questions - showCost.Questions) / seconds;
  const selects = (after.status.Com_select - before.status.Com_select - showCost.Com_select) / seconds;
  const lines = [
    '',
    `${new Date().toLocaleTimeString('en-GB')}  tier ${total.toFixed(1)} RPCs/s   MariaDB ${statements.toFixed(1)} statements/s (${selects.toFixed(1)} SELECT)   over the last ${seconds.toFixed(1)} s`,
    `   RPCs/s  ${pad('operation', 26)}caller_daemon`,
  ];
  for (const p of pairs.slice(0, o.top)) lines.push(`  ${p.perSecond.toFixed(2).padStart(7)}  ${pad(p.operation, 26)}${p.callerDaemon}`);
  if (pairs.length > o.top) lines.push(`  … and ${pairs.length - o.top} more pairs, ${pairs.slice(o.top).reduce((s, p) => s + p.perSecond, 0).toFixed(2)} RPCs/s together`);
  return lines.join('\n');
}

/** Runs until a signal stops the run's children (and the process exits). */
async function demo(o: DemoOptions, children: Children): Promise<void> {
  mkdirSync(DATA, { recursive: true });
  // The embedded MariaDB's port, which this view reads too: picked below the ephemeral
  // range (harness/ports.ts), as the tier binds it only once its MariaDB has started.
  const port = await latePort();
  say('starting the tier with its embedded MariaDB in .data/demo-mariadb (the first start initialises it)');
  const replica: ReplicaProcess = await startReplica({
    children,
    id: 'demo',
    env: { SFDB_DATA_DIR: join(DATA, 'demo-mariadb'), SFDB_EMBEDDED_PORT: String(port) },
    logPath: join(DATA, 'demo-tier.log'),
  });
  const url = `mysql://root@127.0.0.1:${port}/sfdb`;
  const db = createClient({ targets: [replica.grpcAddress], callerDaemon: 'bench', cache: false, deadlineMs: 60_000 });
  const status = await StatusReader.open(url);
  try {
    const seeded = await cluster(db, o.nodes);
    const configPath = join(DATA, 'demo-sim.json');
    const config: SimConfig = { ...seeded, mode: o.mode, targets: [replica.grpcAddress] };
    writeFileSync(configPath, JSON.stringify(config, null, 2));
    const logPath = join(DATA, 'demo-sim.log');
    const sim = new Simulator(spawnSimulator(children, 'bench/cluster/sim/main.ts', configPath, logPath), logPath);
    const ready = await sim.waitFor((e): e is Extract<SimEvent, { event: 'ready' }> => e.event === 'ready', 'ready', 300_000);
    const showCost = await calibrateShow(status, 3);
    process.stdout.write(
      `\nsf-database demo: ${o.nodes} simulated nodes (${ready.daemons} daemons, ${o.mode} mode) → 1 tier replica (gRPC ${replica.grpcAddress}, ` +
        `http://127.0.0.1:${replica.httpPort}/metrics) → MariaDB 127.0.0.1:${port} (.data/demo-mariadb).\n` +
        `Every ${o.everyS} s: the top ${o.top} (operation, caller_daemon) pairs by rate from the tier's own counters, and MariaDB's statement rate ` +
        `(SHOW GLOBAL STATUS, less this view's own reads). Ctrl-C stops everything. Logs: .data/demo-tier.log, .data/demo-sim.log\n`,
    );
    let before = { at: Date.now(), metrics: await replica.metrics(), status: await status.read() };
    for (;;) {
      const until = before.at + o.everyS * 1000;
      while (Date.now() < until) {
        if (sim.exitStatus) throw new Error(`the simulator exited (${sim.exitStatus.signal ?? `code ${sim.exitStatus.code}`}):\n${tail(logPath)}`);
        await sim.next(until - Date.now());
      }
      const after = { at: Date.now(), metrics: await replica.metrics(), status: await status.read() };
      process.stdout.write(`${view(o, (after.at - before.at) / 1000, before, after, showCost)}\n`);
      before = after;
    }
  } finally {
    db.close();
    await status.close().catch(() => undefined);
  }
}

// Ctrl-C is how the demo ends: exit 0.
runBench(
  'demo',
  async (bench) => {
    const options = parseCommandLine(parse, DEMO_USAGE);
    if (options === undefined) return EXIT_USAGE;
    // The simulator first (its daemons record STOPPED through the tier), then the tier, which stops its MariaDB.
    const children = bench.children(30_000);
    await bench.start();
    await demo(options, children);
    return 0;
  },
  { signalExitCode: 0 },
);
