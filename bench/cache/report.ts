// The benchmark's Markdown: a results table, a ratio table, and the machine; written to
// its own marked section of docs/BENCHMARKS.md (other benchmarks own other sections).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, release, totalmem, type } from 'node:os';
import type { LoopResult } from './measure.js';

export interface Row extends LoopResult {
  object: 'instance' | 'node';
  concurrency: number;
  path: 'uncached' | 'cached';
  /** Get RPCs the tier counted during the run (warm-up included). */
  tierRpcs: number;
}

export interface RunInfo {
  command: string;
  date: string;
  seeded: { instances: number; nodes: number };
  warmupMs: number;
  measureMs: number;
  /** 1-minute load average when the run started (the machine may be shared). */
  loadAverage: number;
}

export function describeMachine(): string {
  const model = cpus()[0]?.model.trim() ?? 'unknown CPU';
  return `${availableParallelism()} CPUs (nproc), ${model}, ${Math.round(totalmem() / 2 ** 30)} GiB, ${type()} ${release()}, Node ${process.version}`;
}

function us(value: number): string {
  if (!Number.isFinite(value)) return '—';
  if (value < 10) return `${value.toFixed(2)} µs`;
  if (value < 100) return `${value.toFixed(1)} µs`;
  return `${Math.round(value)} µs`;
}

const int = (n: number): string => Math.round(n).toLocaleString('en-US');

export function renderSection(rows: readonly Row[], info: RunInfo): string {
  const lines = [
    '## Static-object cache (`npm run bench:cache`)',
    '',
    `Command: \`${info.command}\` · ${info.date} · ${describeMachine()} · load average ${info.loadAverage.toFixed(2)} at the start.`,
    '',
    `A private MariaDB, the real tier as a child process (\`node --import tsx server/main.ts\`), and the client in the benchmark's own process; ` +
      `${int(info.seeded.instances)} instances and ${int(info.seeded.nodes)} nodes seeded. **uncached** is \`createClient({ cache: false })\`: ` +
      'every `getInstance`/`getNode` is a GetInstance/GetNode RPC through the tier. **cached** is a client with its own warm `StaticObjectCache` ' +
      '(every seeded object read once before the run), so every read is a hit; *tier RPCs* is what the tier counted during the run (0 proves it). ' +
      `Closed loop: each caller reads a random seeded uuid and at once the next; ${info.warmupMs / 1000} s warm-up, then ${info.measureMs / 1000} s measured per row.`,
    '',
    '| object | callers | path | reads/s | p50 | p99 | tier RPCs |',
    '|---|---:|---|---:|---:|---:|---:|',
    ...rows.map((r) => `| ${r.object} | ${r.concurrency} | ${r.path} | ${int(r.readsPerSecond)} | ${us(r.p50Us)} | ${us(r.p99Us)} | ${int(r.tierRpcs)} |`),
    '',
    '| object | callers | reads/s, cached ÷ uncached | p50, uncached ÷ cached | p99, uncached ÷ cached |',
    '|---|---:|---:|---:|---:|',
  ];
  for (const cached of rows.filter((r) => r.path === 'cached')) {
    const plain = rows.find((r) => r.path === 'uncached' && r.object === cached.object && r.concurrency === cached.concurrency);
    if (!plain) continue;
    const x = (a: number, b: number): string => `${(a / b).toFixed(0)}×`;
    lines.push(
      `| ${cached.object} | ${cached.concurrency} | ${x(cached.readsPerSecond, plain.readsPerSecond)} | ${x(plain.p50Us, cached.p50Us)} | ${x(plain.p99Us, cached.p99Us)} |`,
    );
  }
  lines.push(
    '',
    'Reading it: the machine is shared by the client, the tier and MariaDB, so the uncached rows are bounded by CPU, not by the network. ' +
      'A cached latency includes two `performance.now()` calls; at 64 callers it is mostly the wait behind the other 63 callers in the one event loop, ' +
      'so the throughput ratio is the number to compare there.',
  );
  return lines.join('\n');
}

const START = '<!-- bench:cache:start -->';
const END = '<!-- bench:cache:end -->';
const INTRO = '# Benchmarks\n\nMeasured numbers. Each section is written by its `npm run bench:*` script, between its own markers.\n';

/** Replaces this benchmark's section of `path` (creating the file or the section), leaving the rest alone. */
export function writeSection(path: string, section: string): void {
  const block = `${START}\n${section.trim()}\n${END}`;
  // Read immediately before writing: another benchmark writes its own section of this file.
  const current = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
  let next: string;
  if (current === undefined) next = `${INTRO}\n${block}\n`;
  else {
    const i = current.indexOf(START);
    const j = current.indexOf(END);
    next = i >= 0 && j > i ? current.slice(0, i) + block + current.slice(j + END.length) : `${current.trimEnd()}\n\n${block}\n`;
  }
  writeFileSync(path, next);
}
