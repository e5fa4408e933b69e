// Command line of `npm run bench:cluster`, parsed once into a frozen object, and the
// shapes a sweep runs.
import { parseArgs } from 'node:util';
import { fromOption } from '../../harness/built.js';
import type { From } from '../../harness/built.js';
import type { Mode, PeriodDuty, Plant } from './protocol.js';
import type { SlowPlant } from './slow.js';
import type { ReplicaProcess } from '../../harness/replica.js';

export const MODES: readonly Mode[] = ['naive', 'anchor', 'feed'];

/** The simulated cluster's size. */
export interface Shape {
  nodes: number;
  instances: number;
  /** Completed objects with their events and finished work items. */
  history: number;
  /** Instance lifecycles started per second, cluster-wide (docs/workload.md "Churn"; absent or 0: none). */
  churnInstances?: number;
  /** Static-object updates (a blob's or a node's, alternating) per second, cluster-wide (absent or 0: none). */
  churnStatic?: number;
}

/** A shape's churn as the fit and the budget count it: changes per second, both kinds together. */
export function churnOf(shape: Partial<Pick<Shape, 'churnInstances' | 'churnStatic'>>): number {
  // Runs saved before churn existed have neither field: the quiet cluster.
  return (shape.churnInstances ?? 0) + (shape.churnStatic ?? 0);
}

/** One measured run: one shape, every mode in turn on the same seeded data. */
export interface ClusterOptions extends Shape {
  modes: readonly Mode[];
  replicas: number;
  warmupS: number;
  durationS: number;
  /** One injection every this many ms during the window, the same in every mode. */
  injectEveryMs: number;
  /** The simulator's entry point (argv[2]: the config file) and the module exporting seed(). */
  simMain: string;
  simSeed: string;
  /** A churned instance's lifetime, creating to deleted (docs/workload.md: about 60 s). */
  churnLifetimeS: number;
  /** A defect planted in the simulator (the load check's positive controls; never from the command line). */
  plant?: Plant;
  /** A statement slowed during the window (./slow.ts; the load check's positive control on MariaDB seconds; never from the command line). */
  slow?: SlowPlant;
  /**
   * Called as each mode's window starts, with its replicas; what it answers is called as the
   * window ends, before a planted slow statement is lifted (bench:planted's Prometheus;
   * never from the command line).
   */
  onWindow?: (replicas: readonly ReplicaProcess[]) => Promise<() => Promise<void>>;
  /** Simulator processes the nodes are spread over (sim-group.ts); default 1 (more only on a machine with cores to spare). */
  simProcesses?: number;
  /** Feed mode: after the window, one cluster-config change every simulated process hears, timed. */
  wakeAll?: boolean;
  /** Overrides of the duty periods (the CI-sized run shortens none of the bounds). */
  periods?: Partial<Record<PeriodDuty, number>>;
  /** Progress lines; default none. */
  log?: (message: string) => void;
}

/** The defaults of docs/workload.md: `runCluster({ ...DEFAULT_RUN, nodes: 2, durationS: 15 })`. */
export const DEFAULT_RUN: Omit<ClusterOptions, 'log' | 'periods'> = Object.freeze({
  modes: ['naive', 'anchor', 'feed'] as Mode[],
  nodes: 6,
  replicas: 2,
  instances: 8,
  history: 1000,
  churnInstances: 0,
  churnStatic: 0,
  churnLifetimeS: 60,
  warmupS: 10,
  durationS: 60,
  injectEveryMs: 2000,
  simMain: 'bench/cluster/sim/main.ts',
  simSeed: 'bench/cluster/sim/seed.ts',
});

/** `churn=v` runs v changes per second: v/2 instance lifecycles and v/2 static updates. */
export type SweepKey = 'nodes' | 'instances' | 'history' | 'churn';
export type Sweeps = Partial<Record<SweepKey, number[]>>;

export interface CliOptions {
  readonly run: Omit<ClusterOptions, 'log'>;
  readonly sweeps: Sweeps;
  /** Where the JSON, Markdown and SVG go. */
  readonly outDir: string;
  readonly writeDocs: boolean;
  /** The database the replicas use: one MariaDB, or a 3-node Galera cluster (replicas spread over its nodes). */
  readonly backend: 'mariadb' | 'galera';
  /** Render a saved run's JSON again (Markdown, SVG, docs) instead of running. */
  readonly from: string | undefined;
  /** How the tier replicas run: the build, as they ship (the default), or the sources under tsx. */
  readonly tier: From;
  readonly argv: readonly string[];
}

export const USAGE = `usage: npm run bench:cluster -- [--mode naive,anchor,feed] [--nodes 6] [--replicas 2] [--instances 8]
         [--history 1000] [--warmup 10] [--duration 60] [--inject-every 2]
         [--churn-instances 0] [--churn-static 0] [--churn-lifetime 60]
         [--sweep nodes=2,4,6,8,12] [--sweep instances=0,8,32,64] [--sweep history=1000,10000]
         [--sweep churn=0,0.5,1,2]
         [--out bench/results] [--no-docs] [--backend mariadb|galera] [--tier built|source]
         [--sim bench/cluster/sim/main.ts] [--seed bench/cluster/sim/seed.ts]
       npm run bench:cluster -- --from bench/results/cluster-….json [--no-docs]   (render a saved run again)`;

function number(name: string, raw: string | undefined, dflt: number, min: number, max: number, integer = true): number {
  if (raw === undefined) return dflt;
  const value = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw) || value < min || value > max || (integer && !Number.isInteger(value))) {
    throw new Error(`--${name}: "${raw}" is not ${integer ? 'an integer' : 'a number'} in ${min}..${max}`);
  }
  return value;
}

const LIMITS: Record<SweepKey, [number, number]> = { nodes: [1, 1000], instances: [0, 10_000], history: [0, 1_000_000], churn: [0, 100] };
/** Churn rates per second (each kind): fractions allowed. */
const CHURN_LIMIT: [number, number] = [0, 50];

/** `nodes=2,4,6` → ['nodes', [2, 4, 6]]; `churn=0,0.5,1` → ['churn', [0, 0.5, 1]]. */
export function parseSweep(text: string): [SweepKey, number[]] {
  const m = /^(nodes|instances|history|churn)=([\d.,\s]+)$/.exec(text.trim());
  if (!m) throw new Error(`--sweep: "${text}" is not nodes=…, instances=…, history=… or churn=… with a comma list`);
  const key = m[1] as SweepKey;
  const [min, max] = LIMITS[key];
  const values = (m[2] as string).split(',').map((s) => s.trim()).filter(Boolean).map((s) => number(`sweep ${key}`, s, 0, min, max, key !== 'churn'));
  if (values.length === 0) throw new Error(`--sweep ${key}: no values`);
  return [key, [...new Set(values)]];
}

export function parseOptions(argv: readonly string[]): CliOptions {
  const { values, positionals } = parseArgs({
    args: [...argv],
    options: {
      mode: { type: 'string' },
      nodes: { type: 'string' },
      replicas: { type: 'string' },
      instances: { type: 'string' },
      history: { type: 'string' },
      'churn-instances': { type: 'string' },
      'churn-static': { type: 'string' },
      'churn-lifetime': { type: 'string' },
      warmup: { type: 'string' },
      duration: { type: 'string' },
      'inject-every': { type: 'string' },
      sweep: { type: 'string', multiple: true },
      out: { type: 'string' },
      'no-docs': { type: 'boolean' },
      backend: { type: 'string' },
      sim: { type: 'string' },
      'sim-processes': { type: 'string' },
      'wake-all': { type: 'boolean' },
      seed: { type: 'string' },
      from: { type: 'string' },
      tier: { type: 'string' },
      help: { type: 'boolean' },
    },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) throw new Error(USAGE);
  const sweeps: Sweeps = {};
  // `--sweep nodes=2,4 instances=0,8` (docs/workload.md's form): the second is a positional.
  for (const text of [...(values.sweep ?? []), ...positionals]) {
    const [key, list] = parseSweep(text);
    sweeps[key] = list;
  }
  const modes = (values.mode ?? DEFAULT_RUN.modes.join(',')).split(',').map((s) => s.trim()).filter(Boolean);
  for (const m of modes) if (!MODES.includes(m as Mode)) throw new Error(`--mode: "${m}" is not one of ${MODES.join(', ')}`);
  if (modes.length === 0) throw new Error('--mode: name at least one mode');
  return Object.freeze({
    run: Object.freeze({
      modes: [...new Set(modes)] as Mode[],
      nodes: number('nodes', values.nodes, DEFAULT_RUN.nodes, ...LIMITS.nodes),
      replicas: number('replicas', values.replicas, DEFAULT_RUN.replicas, 1, 16),
      instances: number('instances', values.instances, DEFAULT_RUN.instances, ...LIMITS.instances),
      history: number('history', values.history, DEFAULT_RUN.history, ...LIMITS.history),
      churnInstances: number('churn-instances', values['churn-instances'], 0, ...CHURN_LIMIT, false),
      churnStatic: number('churn-static', values['churn-static'], 0, ...CHURN_LIMIT, false),
      churnLifetimeS: number('churn-lifetime', values['churn-lifetime'], DEFAULT_RUN.churnLifetimeS, 4, 3600, false),
      warmupS: number('warmup', values.warmup, DEFAULT_RUN.warmupS, 0, 3600, false),
      durationS: number('duration', values.duration, DEFAULT_RUN.durationS, 1, 24 * 3600, false),
      injectEveryMs: Math.round(number('inject-every', values['inject-every'], DEFAULT_RUN.injectEveryMs / 1000, 0.1, 600, false) * 1000),
      simMain: values.sim ?? DEFAULT_RUN.simMain,
      simSeed: values.seed ?? DEFAULT_RUN.simSeed,
      ...(values['wake-all'] === true ? { wakeAll: true } : {}),
      ...(values['sim-processes'] !== undefined ? { simProcesses: number('sim-processes', values['sim-processes'], 1, 1, 16) } : {}),
    }),
    sweeps,
    outDir: values.out ?? 'bench/results',
    // A Galera run is recorded by hand beside the single-MariaDB figures, never over them.
    writeDocs: values['no-docs'] !== true && (values.backend ?? 'mariadb') === 'mariadb',
    backend: parseBackend(values.backend),
    from: values.from,
    tier: fromOption('tier', values.tier, 'built'),
    argv: Object.freeze([...argv]),
  });
}

/**
 * The shapes of a run: the base shape alone without sweeps; else each swept dimension's
 * values with the other dimensions at the base (nodes at the base instances, instances at
 * the base nodes, history at both), duplicates once. A churn sweep runs at the base nodes
 * and, when nodes are swept too, again at the largest node count, so the fit can tell
 * c·churn from d·nodes·churn.
 */
export function sweepShapes(base: Shape, sweeps: Sweeps): Shape[] {
  const keys = (['nodes', 'instances', 'history', 'churn'] as const).filter((k) => sweeps[k] !== undefined);
  // Churn only where there is some: a quiet shape is what it was before churn existed.
  const withChurn = (shape: Shape, instances: number, statics: number): Shape => {
    const { churnInstances: _i, churnStatic: _s, ...quiet } = shape;
    return instances > 0 || statics > 0 ? { ...quiet, churnInstances: instances, churnStatic: statics } : quiet;
  };
  const start = withChurn({ nodes: base.nodes, instances: base.instances, history: base.history }, base.churnInstances ?? 0, base.churnStatic ?? 0);
  if (keys.length === 0) return [start];
  const shapes: Shape[] = [];
  const seen = new Set<string>();
  const add = (shape: Shape): void => {
    const id = `${shape.nodes}/${shape.instances}/${shape.history}/${shape.churnInstances ?? 0}/${shape.churnStatic ?? 0}`;
    if (seen.has(id)) return;
    seen.add(id);
    shapes.push(shape);
  };
  for (const key of keys) {
    for (const v of sweeps[key] ?? []) {
      if (key !== 'churn') {
        add({ ...start, [key]: v });
        continue;
      }
      const nodeCounts = [base.nodes, ...(sweeps.nodes ? [Math.max(...sweeps.nodes)] : [])];
      for (const nodes of nodeCounts) add(withChurn({ ...start, nodes }, v / 2, v / 2));
    }
  }
  return shapes;
}

export function commandLine(argv: readonly string[]): string {
  return argv.length > 0 ? `npm run bench:cluster -- ${argv.join(' ')}` : 'npm run bench:cluster';
}

function parseBackend(value: string | undefined): 'mariadb' | 'galera' {
  if (value === undefined || value === 'mariadb' || value === 'galera') return value ?? 'mariadb';
  throw new Error('--backend: mariadb or galera');
}
