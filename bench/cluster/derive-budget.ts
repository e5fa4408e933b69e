// npm run budget:derive: measures the shipped default mode (feed) and its fallback
// (anchor) over a small sweep of cluster shapes and churn rates, fits every
// (operation, caller_daemon) pair's rate as cluster + perNode·nodes + perInstance·instances
// + perChurn·churn + perNodeChurn·nodes·churn (./budget-fit.ts), and writes one budget per
// mode: ops/load-budget.json (feed, what production runs) and ops/load-budget.anchor.json
// (the polling fallback, which CI keeps checking so a regression of the fallback is
// caught). Derived from measured runs, never typed in. A churn value c runs c/2 instance
// lifecycles and c/2 static updates per second (at the base nodes and the largest nodes),
// with instances living --churn-lifetime s and a warm-up of at least that long.
//   npm run budget:derive [-- --mode feed,anchor --nodes 2,3,4 --instances 0,4,8 --churn 1,2 --churn-lifetime 20 --duration 40 --warmup 10]
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { BUDGET_FILES } from '../../ops/budget.js';
import { component } from '../../proto/runtime/lifecycle.js';
import { runBench } from '../../harness/main.js';
import { budgetOf } from './budget-fit.js';
import type { BudgetPoint } from './budget-fit.js';
import { DEFAULT_RUN, churnOf, sweepShapes } from './options.js';
import type { Shape } from './options.js';
import type { Mode } from './protocol.js';
import { BENCH_CALLER } from './results.js';
import type { PairRate } from '../../ops/prom.js';
import { ROOT } from '../../harness/children.js';
import { ClusterEnvironment, runCluster } from './run.js';

/**
 * The seconds ceiling's floor, in MariaDB seconds/s (the connections a pair may keep busy
 * above its expected seconds): 0.05, far above a quiet pair's own (its calls/s × about a
 * millisecond a statement), so statements slowed by a loaded, shared machine stay within
 * it, and far below a pair whose calls wait on a lock (seconds a call).
 */
const SECONDS_FLOOR = 0.05;

/**
 * ceiling = max(expected × 1.5, expected + 0.2/s); a pair outside the budget at ≥ 1/min is a
 * violation. A pair's seconds ceiling: the same rule over its MariaDB seconds/s model, with
 * a floor of SECONDS_FLOOR s/s.
 */
export const CEILING = { factor: 1.5, floor: 0.2, secondsFloor: SECONDS_FLOOR } as const;
export const UNBUDGETED_STEADY_RATE = 1 / 60;

const list = (text: string): number[] => text.split(',').filter((v) => v.trim() !== '').map((v) => Number(v));

/**
 * A budget is derived from runs that meet every duty — but for a static update's eviction
 * (p99 ≤ 100 ms), which the polling fallback cannot meet by design (its cache forgets by
 * TTL only): a miss there is logged, not refused; the benchmark and CI judge that duty.
 */
const LOAD_ONLY_DUTIES: ReadonlySet<string> = new Set(['static-evict']);

// Measuring, the cluster environment is a part of the run's lifecycle (harness/main.ts):
// stopped on exit, error and Ctrl-C.
runBench('budget:derive', async (bench) => {
  const { values } = parseArgs({
    options: {
      nodes: { type: 'string', default: '2,3,4' },
      instances: { type: 'string', default: '0,4,8' },
      'base-nodes': { type: 'string', default: '3' },
      'base-instances': { type: 'string', default: '4' },
      churn: { type: 'string', default: '1,2' },
      'churn-lifetime': { type: 'string', default: '20' },
      history: { type: 'string', default: '100' },
      duration: { type: 'string', default: '40' },
      warmup: { type: 'string', default: '10' },
      mode: { type: 'string', default: 'feed,anchor' },
      /** Fit again from the points a run saved (its measurements), without measuring. */
      points: { type: 'string' },
    },
    strict: true,
  });
  const modes = values.mode.split(',').map((m) => m.trim()) as ('feed' | 'anchor')[];
  for (const m of modes) if (m !== 'feed' && m !== 'anchor') throw new Error(`--mode: ${m} is not feed or anchor`);
  const base: Shape = { nodes: Number(values['base-nodes']), instances: Number(values['base-instances']), history: Number(values.history) };
  const churn = list(values.churn);
  const lifetimeS = Number(values['churn-lifetime']);
  const shapes = sweepShapes(base, { nodes: list(values.nodes), instances: list(values.instances), ...(churn.length > 0 ? { churn } : {}) });
  const say = (m: string): void => void process.stderr.write(`budget:derive: ${m}\n`);
  let env: ClusterEnvironment | undefined;
  if (values.points === undefined) bench.add(component('cluster environment', async () => (env = await ClusterEnvironment.start(say)), () => env?.stop()));
  await bench.start();
  const points = values.points !== undefined ? loadPoints(values.points) : await measure(env as ClusterEnvironment, modes, shapes, { ...values, lifetimeS }, say);
  for (const m of modes) {
    const out = join(ROOT, BUDGET_FILES[m]);
    const budget = budgetOf(
      {
        command: `npm run budget:derive -- ${process.argv.slice(2).join(' ')}`.trim(),
        derivedAt: new Date().toISOString(),
        mode: m,
        ceiling: { ...CEILING },
        unbudgetedSteadyRate: Number(UNBUDGETED_STEADY_RATE.toFixed(5)),
      },
      points.get(m) ?? [],
    );
    writeFileSync(out, `${JSON.stringify(budget, null, 2)}\n`);
    say(`${m}: wrote ${budget.pairs.length} pairs to ${out}`);
  }
  return 0;
});

type Points = Map<Mode, BudgetPoint[]>;

type SavedPoint = Omit<BudgetPoint, 'rates' | 'seconds'> & { rates: Record<string, number>; seconds?: Record<string, number> };

function loadPoints(path: string): Points {
  const saved = JSON.parse(readFileSync(path, 'utf8')) as Record<string, SavedPoint[]>;
  const point = ({ rates, seconds, ...rest }: SavedPoint): BudgetPoint => ({
    ...rest,
    rates: new Map(Object.entries(rates)),
    ...(seconds ? { seconds: new Map(Object.entries(seconds)) } : {}),
  });
  return new Map(Object.entries(saved).map(([mode, list]) => [mode as Mode, list.map(point)]));
}

/** Writes the measured points (after each shape), so a fit can be made again from them with --points. */
function savePoints(path: string, points: Points): void {
  const saved = ({ rates, seconds, ...rest }: BudgetPoint): SavedPoint => ({
    ...rest,
    rates: Object.fromEntries(rates),
    ...(seconds ? { seconds: Object.fromEntries(seconds) } : {}),
  });
  const out = Object.fromEntries([...points].map(([mode, list]) => [mode, list.map(saved)]));
  writeFileSync(path, `${JSON.stringify(out, null, 2)}\n`);
}

/** Measures every shape on `env`, which it stops when done (before the fit). */
async function measure(
  env: ClusterEnvironment,
  modes: readonly ('feed' | 'anchor')[],
  shapes: readonly Shape[],
  values: { duration: string; warmup: string; lifetimeS: number },
  say: (m: string) => void,
): Promise<Points> {
  const lifetimeS = values.lifetimeS;
  const saveTo = join(ROOT, 'bench', 'results', `derive-points-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  mkdirSync(dirname(saveTo), { recursive: true });
  const points: Points = new Map(modes.map((m) => [m, []]));
  try {
    for (const shape of shapes) {
      const c = churnOf(shape);
      say(`measuring ${shape.nodes} nodes, ${shape.instances} instances, churn ${c}/s`);
      const warmupS = c > 0 ? Math.max(Number(values.warmup), lifetimeS) : Number(values.warmup);
      const result = await runCluster(
        { ...DEFAULT_RUN, ...shape, modes, replicas: 1, durationS: Number(values.duration), warmupS, churnLifetimeS: lifetimeS, log: say },
        env,
      );
      for (const m of modes) {
        const mode = result.results.find((r) => r.mode === m);
        if (!mode) throw new Error(`the ${m} mode did not run`);
        const missed = mode.duties.filter((d) => d.held === false);
        for (const d of missed.filter((x) => LOAD_ONLY_DUTIES.has(x.duty))) say(`${m}: ${d.duty} missed its bound (p99 ${Math.round(d.p99Ms)} ms) at ${JSON.stringify(shape)}; kept for the load figures`);
        if (missed.some((d) => !LOAD_ONLY_DUTIES.has(d.duty))) {
          throw new Error(`${m}: a duty missed its bound at ${JSON.stringify(shape)}: a budget must come from runs that meet every duty`);
        }
        const byPair = (list: readonly PairRate[]): Map<string, number> =>
          new Map(list.filter((p) => p.callerDaemon !== BENCH_CALLER).map((p) => [`${p.operation}|${p.callerDaemon}`, p.perSecond]));
        const rates = byPair(mode.tier.pairs);
        const seconds = mode.tier.pairSeconds ? { seconds: byPair(mode.tier.pairSeconds) } : {};
        const changesPerSecond = mode.tier.changesPerSecond ?? 0;
        points.get(m)?.push({ nodes: shape.nodes, instances: shape.instances, churn: c, windowS: mode.windowS, rates, ...seconds, changesPerSecond });
      }
      savePoints(saveTo, points);
    }
  } finally {
    await env.stop();
  }
  say(`measured points in ${saveTo} (fit again with --points)`);
  return points;
}
