// npm run budget:derive: measures the shipped default mode (feed) and its fallback
// (anchor) over a small sweep of cluster shapes, fits every (operation, caller_daemon)
// pair's rate as cluster + perNode·nodes + perInstance·instances, and writes one budget
// per mode: ops/load-budget.json (feed, what production runs) and
// ops/load-budget.anchor.json (the polling fallback, which CI keeps checking so a
// regression of the fallback is caught). Derived from measured runs, never typed in.
//   npm run budget:derive [-- --mode feed,anchor --nodes 2,3,4 --instances 0,4,8 --duration 40 --warmup 10]
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { BUDGET_FILES } from '../../ops/budget.js';
import type { LoadBudget, PairBudget } from '../../ops/budget.js';
import { fitLoad } from './fit.js';
import { DEFAULT_RUN, sweepShapes } from './options.js';
import type { Shape } from './options.js';
import type { Mode } from './protocol.js';
import { BENCH_CALLER } from './results.js';
import { ClusterEnvironment, ROOT, runCluster } from './run.js';

/** ceiling = max(expected × 1.5, expected + 0.2/s); a pair outside the budget at ≥ 1/min is a violation. */
export const CEILING = { factor: 1.5, floor: 0.2 } as const;
export const UNBUDGETED_STEADY_RATE = 1 / 60;

const list = (text: string): number[] => text.split(',').map((v) => Number(v));

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      nodes: { type: 'string', default: '2,3,4' },
      instances: { type: 'string', default: '0,4,8' },
      'base-nodes': { type: 'string', default: '3' },
      'base-instances': { type: 'string', default: '4' },
      history: { type: 'string', default: '100' },
      duration: { type: 'string', default: '40' },
      warmup: { type: 'string', default: '10' },
      mode: { type: 'string', default: 'feed,anchor' },
    },
    strict: true,
  });
  const modes = values.mode.split(',').map((m) => m.trim()) as ('feed' | 'anchor')[];
  for (const m of modes) if (m !== 'feed' && m !== 'anchor') throw new Error(`--mode: ${m} is not feed or anchor`);
  const base: Shape = { nodes: Number(values['base-nodes']), instances: Number(values['base-instances']), history: Number(values.history) };
  const shapes = sweepShapes(base, { nodes: list(values.nodes), instances: list(values.instances) });
  const say = (m: string): void => void process.stderr.write(`budget:derive: ${m}\n`);
  const env = await ClusterEnvironment.start(say);
  const points = new Map<Mode, { shape: Shape; windowS: number; rates: Map<string, number> }[]>(modes.map((m) => [m, []]));
  try {
    for (const shape of shapes) {
      say(`measuring ${shape.nodes} nodes, ${shape.instances} instances`);
      const result = await runCluster(
        { ...DEFAULT_RUN, ...shape, modes, replicas: 1, durationS: Number(values.duration), warmupS: Number(values.warmup), log: say },
        env,
      );
      for (const m of modes) {
        const mode = result.results.find((r) => r.mode === m);
        if (!mode) throw new Error(`the ${m} mode did not run`);
        if (!mode.dutiesHeld) throw new Error(`${m}: a duty missed its bound at ${JSON.stringify(shape)}: a budget must come from runs that meet every duty`);
        const rates = new Map<string, number>();
        for (const p of mode.tier.pairs) if (p.callerDaemon !== BENCH_CALLER) rates.set(`${p.operation}|${p.callerDaemon}`, p.perSecond);
        points.get(m)?.push({ shape, windowS: mode.windowS, rates });
      }
    }
  } finally {
    await env.stop();
  }
  for (const m of modes) {
    const out = join(ROOT, BUDGET_FILES[m]);
    const budget = budgetOf(m, points.get(m) ?? []);
    writeFileSync(out, `${JSON.stringify(budget, null, 2)}\n`);
    say(`${m}: wrote ${budget.pairs.length} pairs to ${out}`);
  }
  return 0;
}

function budgetOf(mode: Mode, points: { shape: Shape; windowS: number; rates: Map<string, number> }[]): LoadBudget {
  const keys = [...new Set(points.flatMap((p) => [...p.rates.keys()]))].sort();
  const pairs: PairBudget[] = keys.map((key) => {
    const [operation = '', caller_daemon = ''] = key.split('|');
    const fit = fitLoad(points.map((p) => ({ nodes: p.shape.nodes, instances: p.shape.instances, rate: p.rates.get(key) ?? 0 })));
    const round = (v: number | undefined): number => Number((v ?? 0).toFixed(5));
    return { operation, caller_daemon, cluster: round(fit.base), perNode: round(fit.perNode), perInstance: round(fit.perInstance), r2: Number.isNaN(fit.r2) ? 1 : round(fit.r2) };
  });
  const budget: LoadBudget = {
    derivation: {
      command: `npm run budget:derive -- ${process.argv.slice(2).join(' ')}`.trim(),
      derivedAt: new Date().toISOString(),
      mode,
      runs: points.map((p) => ({ nodes: p.shape.nodes, instances: p.shape.instances, windowS: Math.round(p.windowS) })),
    },
    ceiling: { ...CEILING },
    unbudgetedSteadyRate: Number(UNBUDGETED_STEADY_RATE.toFixed(5)),
    pairs,
  };
  return budget;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`budget:derive: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
