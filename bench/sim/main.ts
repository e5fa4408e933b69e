#!/usr/bin/env node
// npm run bench:sim — the deterministic simulation of the daemon framework and the client
// (harness/sim/) over many seeds: how many seeds per second, and the violations of each
// duty, with the first seeds that broke it. The seeds are shared among child processes
// (--workers, default 2: this machine's cores); a run is a pure function of its seed, so
// the figures do not depend on how they were shared.
//   npm run bench:sim -- [--seeds 100000] [--from 1] [--workers 2] [--out .data/bench-sim.json]
// Replay one seed, printing its plan, violations and trace:
//   npm run bench:sim -- --seed 123 [--trace 80]
import { writeFileSync, mkdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { forkTs } from '../../harness/children.js';
import { DUTIES, replayCommand, runSeed } from '../../harness/sim/run.js';
import type { Duty } from '../../harness/sim/run.js';

interface Slice {
  from: number;
  to: number;
  step: number;
}

interface Tally {
  seeds: number;
  events: number;
  byDuty: Record<string, number[]>;
}

/** Seeds a child runs between two reports of its tally so far. */
const REPORT_EVERY = 500;

/** Runs seeds from, from+step, … below `to`; counts violations by duty (every violating seed kept); `report` is told the tally so far now and then. */
async function runSlice({ from, to, step }: Slice, report: (tally: Tally, done: boolean) => void): Promise<void> {
  const tally: Tally = { seeds: 0, events: 0, byDuty: {} };
  for (let seed = from; seed < to; seed += step) {
    const r = await runSeed(seed);
    tally.seeds += 1;
    tally.events += r.events;
    for (const v of r.violations) (tally.byDuty[v.duty] ??= []).push(seed);
    if (tally.seeds % REPORT_EVERY === 0) report(tally, false);
  }
  report(tally, true);
}

const { values } = parseArgs({
  options: { seeds: { type: 'string' }, from: { type: 'string' }, seed: { type: 'string' }, workers: { type: 'string' }, out: { type: 'string' }, trace: { type: 'string' }, slice: { type: 'string' } },
  strict: true,
});
{
  if (values.slice !== undefined) {
    // A child of the run below: its share of the seeds, told back over IPC.
    const [from, to, step] = values.slice.split(':').map(Number) as [number, number, number];
    await runSlice({ from, to, step }, (tally, done) => process.send?.({ tally, done }, () => done && process.exit(0)));
  } else if (values.seed !== undefined) {
    const seed = Number(values.seed);
    const r = await runSeed(seed, { traceLines: Number(values.trace ?? 80) });
    process.stdout.write(`seed ${seed}: ${JSON.stringify(r.plan)}\n`);
    for (const v of r.violations) process.stdout.write(`\n${v.duty} at ${(v.at / 1000).toFixed(3)} s: ${v.message}\n${v.trace.join('\n')}\n`);
    process.stdout.write(`\nseed ${seed}: ${r.violations.length === 0 ? 'no violation' : r.violations.map((v) => v.duty).join(', ')} (${r.events} events)\n`);
  } else {
    const seeds = Number(values.seeds ?? 100_000);
    const from = Number(values.from ?? 1);
    const workers = Number(values.workers ?? 2);
    if (!Number.isInteger(seeds) || seeds < 1) throw new Error('--seeds: a positive integer');
    if (!Number.isInteger(workers) || workers < 1 || workers > 64) throw new Error('--workers: 1..64');
    const started = performance.now();
    const load = loadavg()[0] ?? 0;
    const out = values.out ?? '.data/bench-sim.json';
    mkdirSync(dirname(out), { recursive: true });
    const latest: Tally[] = Array.from({ length: workers }, () => ({ seeds: 0, events: 0, byDuty: {} }));
    // The figures so far, written at every report: a run cut short still says what it saw.
    const figuresNow = (finished: boolean) => {
      const ran = latest.reduce((n, t) => n + t.seeds, 0);
      const seconds = (performance.now() - started) / 1000;
      const byDuty = Object.fromEntries(DUTIES.map((d) => [d, latest.flatMap((t) => t.byDuty[d] ?? []).sort((a, b) => a - b)])) as Record<Duty, number[]>;
      const figures = {
        command: `npm run bench:sim -- --seeds ${seeds}${from === 1 ? '' : ` --from ${from}`}`,
        finished,
        seeds: ran,
        from,
        workers,
        seconds: Number(seconds.toFixed(1)),
        seedsPerSecond: Number((ran / seconds).toFixed(1)),
        eventsPerSeed: Math.round(latest.reduce((n, t) => n + t.events, 0) / Math.max(1, ran)),
        load1AtStart: Number(load.toFixed(2)),
        load1AtEnd: Number((loadavg()[0] ?? 0).toFixed(2)),
        violations: Object.fromEntries(DUTIES.map((d) => [d, byDuty[d].length])),
        firstSeeds: Object.fromEntries(DUTIES.map((d) => [d, byDuty[d].slice(0, 10)])),
      };
      writeFileSync(out, `${JSON.stringify(figures, null, 2)}\n`);
      return { figures, byDuty };
    };
    await Promise.all(
      Array.from({ length: workers }, (_, i) =>
        new Promise<void>((resolve, reject) => {
          const child = forkTs(fileURLToPath(import.meta.url), ['--slice', `${from + i}:${from + seeds}:${workers}`]);
          child.on('message', (m) => {
            const { tally, done } = m as { tally: Tally; done: boolean };
            latest[i] = tally;
            figuresNow(false);
            if (done) resolve();
          });
          child.once('exit', (code) => reject(new Error(`a bench:sim child exited ${code} before its figures`)));
        }),
      ),
    );
    const { figures, byDuty } = figuresNow(true);
    process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
    for (const d of DUTIES) if (byDuty[d].length > 0) process.stdout.write(`${d}: replay with \`${replayCommand(byDuty[d][0] as number)}\`\n`);
  }
}
