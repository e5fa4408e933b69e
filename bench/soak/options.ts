// Command line of `npm run bench:soak`, parsed once into a frozen object.
import { parseArgs } from 'node:util';

export interface SoakOptions {
  /** How long the load runs, in minutes. */
  readonly minutes: number;
  /** One sample (under load, then in a quiet gap) every this many seconds. */
  readonly sampleS: number;
  /** Scheduled calls per second over every client (open loop; long-poll re-issues come on top). */
  readonly rate: number;
  /** Memory read every this many seconds under load (the minute's floor and peak). */
  readonly scrapeS: number;
  /** Samples taken before this many minutes are left out of the verdicts. */
  readonly warmupMin: number;
  /** Load clients: each its own channel, caller daemon and caller node. */
  readonly clients: number;
  /** WaitForChanges loops held over the run, woken by the writes. */
  readonly waiters: number;
  /** Seeded nodes (each with `instancesPerNode` instances placed on it and a queue). */
  readonly nodes: number;
  readonly instancesPerNode: number;
  /** Scheduled calls still unanswered beyond which the scheduler sheds (counts, does not call). */
  readonly maxOutstanding: number;
  /** The quiet gap: how long after the last call settled the quiet sample is taken (ms). */
  readonly quietMs: number;
  /** The replica's SFDB_CHANGEFEED_WINDOW (change rows it keeps in memory). */
  readonly window: number;
  /** Where the JSON and Markdown go. */
  readonly outDir: string;
  readonly argv: readonly string[];
}

export const USAGE = `usage: npm run bench:soak -- [--minutes 30] [--sample-s 60] [--scrape-s 5] [--rate 300] [--warmup-min 5]
         [--clients 4] [--waiters 16] [--nodes 48] [--instances-per-node 4]
         [--max-outstanding 256] [--quiet-ms 1000] [--window 10000] [--out bench/results]`;

function number(name: string, raw: string | undefined, dflt: number, min: number, max: number, integer = false): number {
  if (raw === undefined) return dflt;
  const value = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw) || value < min || value > max || (integer && !Number.isInteger(value))) {
    throw new Error(`--${name}: "${raw}" is not ${integer ? 'an integer' : 'a number'} in ${min}..${max}\n${USAGE}`);
  }
  return value;
}

export function parseOptions(argv: readonly string[]): SoakOptions {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    options: {
      minutes: { type: 'string' },
      'sample-s': { type: 'string' },
      'scrape-s': { type: 'string' },
      rate: { type: 'string' },
      'warmup-min': { type: 'string' },
      clients: { type: 'string' },
      waiters: { type: 'string' },
      nodes: { type: 'string' },
      'instances-per-node': { type: 'string' },
      'max-outstanding': { type: 'string' },
      'quiet-ms': { type: 'string' },
      window: { type: 'string' },
      out: { type: 'string' },
    },
  });
  const minutes = number('minutes', values.minutes, 30, 0.5, 24 * 60);
  const sampleS = number('sample-s', values['sample-s'], 60, 5, 3600);
  const quietMs = number('quiet-ms', values['quiet-ms'], 1000, 100, 30_000, true);
  if (sampleS * 1000 < quietMs + 3000) throw new Error(`--sample-s: at least ${(quietMs + 3000) / 1000} s with --quiet-ms ${quietMs}`);
  if (minutes * 60 < sampleS * 3) throw new Error('--minutes: the run needs at least three samples (--minutes ≥ 3 × --sample-s / 60)');
  // Default warm-up: 5 min of a long run, a third of a short one.
  const warmupMin = number('warmup-min', values['warmup-min'], Math.min(5, minutes / 3), 0, minutes);
  return Object.freeze({
    minutes,
    sampleS,
    scrapeS: number('scrape-s', values['scrape-s'], 5, 1, 3600),
    rate: number('rate', values.rate, 300, 1, 5000),
    warmupMin,
    clients: number('clients', values.clients, 4, 1, 32, true),
    waiters: number('waiters', values.waiters, 16, 0, 1000, true),
    nodes: number('nodes', values.nodes, 48, 1, 1000, true),
    instancesPerNode: number('instances-per-node', values['instances-per-node'], 4, 1, 100, true),
    maxOutstanding: number('max-outstanding', values['max-outstanding'], 256, 1, 100_000, true),
    quietMs,
    // Smaller than the shipped 50 000 so that the window (a bounded buffer) is full within
    // the warm-up at the default rate (~45 change rows/s) and its filling is not read as growth.
    window: number('window', values.window, 10_000, 100, 1_000_000, true),
    outDir: values.out ?? 'bench/results',
    argv: [...argv],
  });
}

/** The command as typed, for the report. */
export function commandLine(argv: readonly string[]): string {
  return `npm run bench:soak${argv.length > 0 ? ` -- ${argv.join(' ')}` : ''}`;
}
