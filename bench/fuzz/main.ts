// `npm run bench:fuzz`: the gRPC port against hostile clients (issue 37). A private
// MariaDB and one replica process, tracing every call (its spans to an OTLP sink here, so
// that the trace headers the cases carry are read); fast-check draws the cases (cases.ts)
// and run.ts sends them and checks the replica after every batch. With --headers, first what one oversized
// request header does to the other calls of its connection, size by size (header-sizes.ts).
// Prints the figures and writes bench/results/fuzz-<date>.json; exits 1 when a check failed.
//
//   npm run bench:fuzz [-- --cases 10000 --seed N --path P --batch 100 --rss-margin-mb 100
//                         --headers --kbs 8,16,32,60,64,65,70,80,100,200]
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT } from '../../harness/children.js';
import { describeMachine, load1 } from '../../harness/machine.js';
import { EXIT_USAGE, parseCommandLine, runBench } from '../../harness/main.js';
import { startOtlpSink } from '../../harness/otlp-sink.js';
import type { OtlpSink } from '../../harness/otlp-sink.js';
import { component } from '../../proto/runtime/lifecycle.js';
import { probeHeaderSizes } from './header-sizes.js';
import type { HeaderProbe } from './header-sizes.js';
import { runFuzz } from './run.js';
import type { FuzzReport } from './run.js';

function options(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      cases: { type: 'string', default: '10000' },
      seed: { type: 'string' },
      path: { type: 'string' },
      batch: { type: 'string', default: '100' },
      'rss-margin-mb': { type: 'string', default: '100' },
      headers: { type: 'boolean', default: false },
      kbs: { type: 'string', default: '8,16,32,60,64,65,70,80,100,200' },
    },
  });
  const int = (name: string, raw: string, min: number): number => {
    const n = Number(raw);
    if (!Number.isSafeInteger(n) || n < min) throw new Error(`--${name}: "${raw}" is not an integer ≥ ${min}`);
    return n;
  };
  return {
    cases: int('cases', values.cases, 0),
    seed: values.seed !== undefined ? int('seed', values.seed, 0) : Date.now() % 2 ** 31,
    ...(values.path !== undefined ? { path: values.path } : {}),
    batch: int('batch', values.batch, 1),
    rssMarginMb: int('rss-margin-mb', values['rss-margin-mb'], 1),
    headers: values.headers,
    kbs: values.kbs.split(',').map((kb) => int('kbs', kb, 1)),
  };
}

/** The fuzz run as BENCHMARKS.md shows it. */
export function fuzzTable(r: FuzzReport): string {
  const rows = Object.entries(r.outcomes).sort((a, b) => b[1] - a[1]);
  return [
    `cases ${r.cases} (seed ${r.seed}) in ${(r.ms / 1000).toFixed(0)} s; INTERNAL or UNKNOWN ${r.internal}; ${r.failure ? `FAILED: ${r.failure}` : 'every check passed'}`,
    `replica RSS MB: baseline ${r.rssMb.start}, end ${r.rssMb.end}, max ${r.rssMb.max}; other client: ${r.otherClient.calls} calls, slowest ${r.otherClient.maxMs} ms`,
    '',
    '| outcome | count |',
    '|---|---|',
    ...rows.map(([o, n]) => `| ${o} | ${n} |`),
    '',
    '| status | longest grpc-message | first grpc-message | its path |',
    '|---|---|---|---|',
    ...Object.entries(r.messages).map(([o, m]) => `| ${o} | ${m.longest} | ${m.first.replace(/\|/g, '\\|')} | ${m.path} |`),
  ].join('\n');
}

/** The header probes as one table: a row per (client, shape), a column per size. */
export function headerTable(probes: readonly HeaderProbe[]): string {
  const sizes = [...new Set(probes.map((p) => p.bytes))];
  const rows = [...new Set(probes.map((p) => `${p.client} | ${p.shape}`))];
  const cell = (p: HeaderProbe | undefined): string => {
    if (!p) return '';
    const others = [p.heldPoll, p.beside, p.after].filter((o) => o !== 'OK').length;
    return `${p.oversized}${others > 0 ? ` · ${others} of 3 others failed (${p.heldPoll})` : ''}`;
  };
  return [
    `| client | shape | ${sizes.map((b) => `${b / 1000} KB`).join(' | ')} |`,
    `|---|---|${sizes.map(() => '---').join('|')}|`,
    ...rows.map((row) => `| ${row} | ${sizes.map((b) => cell(probes.find((p) => `${p.client} | ${p.shape}` === row && p.bytes === b))).join(' | ')} |`),
  ].join('\n');
}

runBench('bench:fuzz', async (bench) => {
  const opts = parseCommandLine(options, 'usage: npm run bench:fuzz [-- --cases N --seed N --path P --batch N --rss-margin-mb MB --headers --kbs 8,16,...]');
  if (!opts) return EXIT_USAGE;
  const say = (m: string): void => void process.stderr.write(`bench:fuzz: ${m}\n`);
  const date = new Date().toISOString();
  const loadBefore = load1();
  let started: OtlpSink | undefined;
  bench.add(component('otlp sink', async () => void (started = await startOtlpSink()), () => started?.close()));
  const tier = bench.tier({ dir: 'sfdb-bench-fuzz-', server: 'mariadb', database: 'sfdb_fuzz', say });
  await bench.start();
  const sink = started as OtlpSink;
  const replica = await tier.add({ name: 'a', env: { OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_ENDPOINT: sink.endpoint, OTEL_TRACES_SAMPLER: 'always_on' } });
  const headers = opts.headers ? await probeHeaderSizes(replica.grpcAddress, opts.kbs, say) : [];
  const pid = replica.pid;
  if (pid === undefined) throw new Error('the replica has no pid');
  const report = await runFuzz({ address: replica.grpcAddress, httpPort: replica.httpPort, pid }, { ...opts, say });
  say(`the replica traced its calls: ${sink.spans} spans exported to the OTLP sink so far`);
  const command = `npm run bench:fuzz${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`;
  const when = `${date.slice(0, 16).replace('T', ' ')} UTC, load ${loadBefore} → ${load1()}`;
  process.stdout.write(`\n${command}   (${when})\n\n${headers.length > 0 ? `${headerTable(headers)}\n\n` : ''}${fuzzTable(report)}\n`);
  const results = join(ROOT, 'bench', 'results');
  mkdirSync(results, { recursive: true });
  const path = join(results, `fuzz-${date.slice(0, 19).replace(/[:T]/g, '-')}.json`);
  writeFileSync(path, `${JSON.stringify({ command, date, machine: describeMachine(), loadBefore, loadAfter: load1(), headers, fuzz: report }, null, 2)}\n`);
  say(`wrote ${path}`);
  return report.failure === undefined && report.internal === 0 ? 0 : 1;
});
