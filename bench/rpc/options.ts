// Command line of `npm run bench:rpc`, parsed once into a frozen object.
import { parseArgs } from 'node:util';
import { resolveRevision } from './baseline.js';
import { fromOption } from '../../harness/built.js';
import type { From } from '../../harness/built.js';

export interface BenchOptions {
  /** Measured seconds per target, in-flight value and phase, split into `rounds`. */
  readonly durationS: number;
  /** Unmeasured seconds before a load client's first round (connections, JIT, buffer pool). */
  readonly warmupS: number;
  /** Concurrent callers of the closed loop; every value is measured. */
  readonly inflight: readonly number[];
  /** Rounds per target, in-flight value and phase; the targets' rounds interleave. */
  readonly rounds: number;
  /**
   * Each in-flight value is measured in this many phases, each with load client processes
   * and connections of its own, `rounds` rounds each: most of the spread between
   * runs comes from the phase (how the clients' connections and processes fell), not from
   * the round, so the targets are judged over several.
   */
  readonly phases: number;
  /** Rows seeded into `nodes`. */
  readonly nodes: number;
  /** MariaDB connections of each pool (the tier's SFDB_POOL_SIZE). */
  readonly poolSize: number;
  /** Write the section of docs/BENCHMARKS.md (default yes). */
  readonly writeDocs: boolean;
  /** The database: one MariaDB, or node 0 of a 3-node Galera cluster (every write certified cluster-wide). */
  readonly backend: 'mariadb' | 'galera';
  /** Directory for `--cpu-prof` profiles of the bare server and the tier (DIR/bare, DIR/tier), if set. */
  readonly profileDir: string | undefined;
  /**
   * Sampling percentages of tiers that trace (OTEL_TRACES_SAMPLER=parentbased_traceidratio,
   * their spans exported to an OTLP sink of the run's): each a target beside `tier`, which
   * does not trace. 0 is a control: a replica started as the traced ones are, without an
   * SDK (OTEL_TRACES_EXPORTER=none), so what its place in the run costs is seen apart from
   * tracing. Empty: none.
   */
  readonly traced: readonly number[];
  /**
   * The commit (--baseline REF, resolved when parsed) whose tier is a target beside this
   * checkout's (baseline.ts): what a change costs, as a ratio of one run. Undefined: none.
   */
  readonly baseline: string | undefined;
  /**
   * How the servers run (harness/built.ts): 'built', as they ship (tsc's output under plain Node:
   * the tier as `npm start` runs it, the bare server compiled alike), or 'source' (every
   * server under tsx, as the tests run the tier).
   */
  readonly from: From;
  /** How the baseline's tier runs (--baseline-from): `from` unless told. */
  readonly baselineFrom: From;
  /** The arguments as given, for the "exact command" line. */
  readonly argv: readonly string[];
}

/** Unmeasured time at the start of every round after the first: the loop was idle. */
export const REWARM_MS = 250;

export const USAGE = `usage: npm run bench:rpc -- [--duration 3] [--warmup 2] [--inflight 1,64] [--rounds 3] [--phases 6] [--backend mariadb|galera]
                          [--nodes 1000] [--pool-size 16] [--no-docs] [--profile DIR] [--traced 1,100]
                          [--baseline REF] [--from built|source] [--baseline-from built|source]`;

function positive(name: string, raw: string | undefined, dflt: number, max: number): number {
  if (raw === undefined) return dflt;
  const value = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw) || value <= 0 || value > max) throw new Error(`--${name}: "${raw}" is not a number in (0, ${max}]`);
  return value;
}

function integer(name: string, raw: string | undefined, dflt: number, max: number): number {
  const value = positive(name, raw, dflt, max);
  if (!Number.isInteger(value)) throw new Error(`--${name}: "${raw}" is not an integer`);
  return value;
}

export function parseOptions(argv: readonly string[]): BenchOptions {
  const { values, positionals } = parseArgs({
    args: [...argv],
    options: {
      duration: { type: 'string' },
      backend: { type: 'string' },
      warmup: { type: 'string' },
      inflight: { type: 'string' },
      rounds: { type: 'string' },
      phases: { type: 'string' },
      nodes: { type: 'string' },
      'pool-size': { type: 'string' },
      'no-docs': { type: 'boolean' },
      profile: { type: 'string' },
      traced: { type: 'string' },
      baseline: { type: 'string' },
      from: { type: 'string' },
      'baseline-from': { type: 'string' },
      help: { type: 'boolean' },
    },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) throw new Error(USAGE);
  if (positionals.length > 0) throw new Error(`unexpected arguments: ${positionals.join(' ')}\n${USAGE}`);
  const from = fromOption('from', values.from, 'built');
  if (values['baseline-from'] !== undefined && values.baseline === undefined) throw new Error('--baseline-from: only with --baseline');
  const inflight = (values.inflight ?? '1,64').split(',').map((s) => integer('inflight', s.trim(), 1, 4096));
  return Object.freeze({
    durationS: positive('duration', values.duration, 3, 3600),
    warmupS: values.warmup === '0' ? 0 : positive('warmup', values.warmup, 2, 600),
    inflight: Object.freeze([...new Set(inflight)]),
    rounds: integer('rounds', values.rounds, 3, 1000),
    phases: integer('phases', values.phases, 6, 1000),
    nodes: integer('nodes', values.nodes, 1000, 1_000_000),
    poolSize: integer('pool-size', values['pool-size'], 16, 1000),
    // A Galera run is recorded by hand beside the single-MariaDB figures, never over them.
    writeDocs: values['no-docs'] !== true && (values.backend ?? 'mariadb') === 'mariadb',
    backend: values.backend === 'galera' ? 'galera' : values.backend === undefined || values.backend === 'mariadb' ? 'mariadb' : invalidBackend(),
    profileDir: values.profile,
    traced: Object.freeze([...new Set((values.traced ?? '').split(',').filter((s) => s.trim() !== '').map((s) => (s.trim() === '0' ? 0 : positive('traced', s.trim(), 0, 100))))]),
    baseline: values.baseline === undefined ? undefined : resolveRevision(values.baseline),
    from,
    baselineFrom: fromOption('baseline-from', values['baseline-from'], from),
    argv: Object.freeze([...argv]),
  });
}

function invalidBackend(): never {
  throw new Error('--backend: mariadb or galera');
}
