// The benchmark's result as Markdown: the table printed to stdout and the section of
// docs/BENCHMARKS.md between the bench:rpc markers (the rest of the file is kept).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Cell, Exported, TargetCheck } from './compare.js';
import { baselineTable, checkTargets, checkTraced, countCheck, layerTable, phaseLine, ratioTable, resultTable, tracedTable } from './compare.js';
import type { LayerCost, Target } from './protocol.js';
import type { BenchOptions } from './options.js';
import type { From } from '../../harness/built.js';
import { REWARM_MS } from './options.js';
import type { Machine } from '../../harness/machine.js';

export const START_MARKER = '<!-- bench:rpc:start -->';
export const END_MARKER = '<!-- bench:rpc:end -->';

const INTRO = `# Benchmarks

Every figure below comes from the command shown beside it, run on the machine described
there. Compare figures as ratios within one run, never across runs or machines: the
machines these were taken on are shared and noisy (2 cores, other people's tests running
at the same time), so absolute numbers move by tens of percent from one run to the next.
`;

export { describeMachine, load1 } from '../../harness/machine.js';
export type { Machine } from '../../harness/machine.js';

export interface Report {
  options: BenchOptions;
  machine: Machine;
  date: Date;
  loadBefore: string;
  loadAfter: string;
  cells: Cell[];
  /** What each tier that traces exported (--traced). */
  exported: ReadonlyMap<Target, Exported>;
  /** The tracing layer alone (--traced): per call, without an SDK and at each sampling. */
  layer: readonly LayerCost[];
  /** The commit of the baseline revision's tier (--baseline). */
  baselineCommit: string | undefined;
}

export function commandLine(argv: readonly string[]): string {
  return argv.length > 0 ? `npm run bench:rpc -- ${argv.join(' ')}` : 'npm run bench:rpc';
}

const fmt = (v: number): string => String(Math.round(v * 100) / 100);

/** How a tier ran, for the setup's text. */
function runsAs(from: From): string {
  return from === 'built' ? '`node dist/server/main.js` (the build `npm start` runs: `tsc -b tsconfig.build.json`)' : '`node --import tsx server/main.ts`';
}

export function renderSection(r: Report): string {
  const o = r.options;
  const checks = [...checkTargets(r.cells), ...checkTraced(r.cells)];
  const traced = o.traced.length > 0;
  const mark = (c: TargetCheck): string => (c.holds === undefined ? '–' : c.holds ? '**holds**' : '**fails**');
  return [
    '## Point read (GetNode): `npm run bench:rpc`',
    '',
    `- Command: \`${commandLine(o.argv)}\``,
    `- Date: ${r.date.toISOString().replace(/\.\d+Z$/, 'Z')}`,
    `- Machine: ${r.machine.nproc} cores (nproc), ${r.machine.cpu}; Node ${r.machine.node}; ${r.machine.mariadb}`,
    `- Load average (1 min) before / after: ${r.loadBefore} / ${r.loadAfter}`,
    `- Setup: a private MariaDB (tmp dir), ${o.nodes} seeded nodes, every pool ${o.poolSize} connections (the tier's SFDB_POOL_SIZE). ` +
      'One load client process per target and in-flight value (not the servers\' processes): a closed loop of N callers, each reading a random seeded uuid and at once the next.',
    `- Targets: **direct** runs the tier's GetNode SELECT (server/rpc/nodes/queries.ts selectNode) through a mysql2 pool with the tier's pool options ` +
      `(server/db/pool.ts createPool), from the client process; **bare** is bench/rpc/bare-server.ts${o.from === 'built' ? ' compiled by the same tsc (harness/built.ts) and run by plain Node' : ' under tsx'}, one grpc-js GetNode handler running the same SELECT ` +
      `(no interceptors, validation or metrics); **tier** is ${runsAs(o.from)}. bare and tier are both called through the typed client ` +
      '(`createClient({ cache: false }).getNode(uuid)`), so their difference is the server.',
    `- Schedule: per in-flight value, ${o.phases} phase${o.phases === 1 ? '' : 's'}, each with fresh load client processes and connections; per phase ${o.rounds} rounds of ` +
      `${fmt(o.durationS / o.rounds)} s per target (${fmt(o.durationS * o.phases)} s measured per target and in-flight value), ` +
      `the targets' rounds interleaved, each round in a seeded shuffle of its own (bench/rpc/order.ts); ${o.warmupS} s unmeasured warm-up before a client's first round, ${REWARM_MS} ms before the others; ` +
      `before any of it, ${o.warmupS} s of 64 calls in flight to each server (JIT), not measured.`,
    '- First table: every round pooled (calls/s = calls / seconds measured; p50, p99 of every measured call of a phase, the median over the phases). ' +
      'CPU µs/call: user + system CPU of the load client, the server process (bare or tier) and mariadbd in the measured windows, per measured call (from /proc). ' +
      'Second table and targets: the targets compared **round by round** (rounds of the same index run in the same round of a phase), the **median over the rounds of every phase**, in brackets the middle half of them.',
    ...(traced
      ? [
          `- Tracing (\`--traced ${o.traced.join(',')}\`): the same tier tracing, one replica per percentage (OTEL_TRACES_SAMPLER=parentbased_traceidratio; the load clients send no traceparent, so each call is a root the ratio samples), ` +
            'its spans exported OTLP/HTTP to a sink in the orchestrator; the third table compares each with the tier that does not trace, round by round. ' +
            'The fourth is the tracing layer alone (bench/rpc/trace-layer.ts: CPU per call over the same work untraced, spans dropped instead of exported), a process per sampling.',
        ]
      : []),
    ...(r.baselineCommit !== undefined
      ? [
          `- Baseline (\`--baseline ${o.baseline ?? ''}\`): the tier of commit ${r.baselineCommit}, checked out in a temporary worktree and run as ${runsAs(o.baselineFrom)} there, on a database of its own (the same nodes), ` +
            "a target beside this checkout's tier in the same rounds; the last table compares the two round by round.",
        ]
      : []),
    '',
    resultTable(r.cells),
    '',
    ratioTable(r.cells, o.inflight),
    '',
    ...(r.baselineCommit !== undefined ? [baselineTable(r.cells, o.inflight), ''] : []),
    ...(traced ? [tracedTable(r.cells, o.inflight, r.exported), '', layerTable(r.layer), ''] : []),
    ...o.inflight.flatMap((n) => {
      const line = phaseLine(r.cells, n);
      return line === undefined ? [] : [`- ${line}`];
    }),
    '',
    countCheck(r.cells),
    '',
    'Targets:',
    '',
    ...checks.map((c) => `- ${c.text} — ${mark(c)}`),
  ].join('\n');
}

/** Writes (or replaces) the bench:rpc section of `path`, keeping the rest of the file. */
export function writeSection(path: string, section: string): void {
  const block = `${START_MARKER}\n${section}\n${END_MARKER}`;
  if (!existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `${INTRO}\n${block}\n`);
    return;
  }
  const text = readFileSync(path, 'utf8');
  const start = text.indexOf(START_MARKER);
  const end = text.indexOf(END_MARKER);
  if (start >= 0 && end > start) {
    writeFileSync(path, text.slice(0, start) + block + text.slice(end + END_MARKER.length));
  } else {
    writeFileSync(path, `${text.trimEnd()}\n\n${block}\n`);
  }
}
