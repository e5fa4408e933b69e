// `npm run bench:soak`: a steady mixed load against one real replica for a long time, to
// see whether anything grows. A private MariaDB in a temporary directory and the replica
// run as child processes; the clients run here. Every --sample-s seconds the replica is
// read twice: under load, and in a quiet gap (the load paused, every call of ours settled,
// then --quiet-ms) where nothing should be in flight. At the end, a verdict per series
// (verdict.ts) and the run as JSON and Markdown under bench/results/. Everything it
// started is stopped, and the directory removed, on exit, on error and on Ctrl-C (the
// samples so far are still written): they are parts of the run's lifecycle
// (harness/main.ts).
//
//   npm run bench:soak -- [--minutes 30] [--sample-s 60] [--rate 300]   (--help-like: see options.ts USAGE)
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { createClient } from '../../client/index.js';
import { ROOT } from '../../harness/children.js';
import { describeMachine, load1 } from '../../harness/machine.js';
import { EXIT_SIGNALLED, EXIT_USAGE, parseCommandLine, runBench } from '../../harness/main.js';
import { SoakLoad } from './load.js';
import { commandLine, parseOptions } from './options.js';
import type { SoakOptions } from './options.js';
import { SoakEnvironment } from './processes.js';
import { renderSoak, sampleLine } from './report.js';
import type { SavedSoak } from './report.js';
import { ReplicaReader, deltas, spreadOf } from './sample.js';
import type { Memory, Reading, SoakSample } from './sample.js';
import { seed } from './seed.js';
import { judgeAll } from './verdict.js';

// A closed pipe (`| head`) must not crash the run before it cleans up.
process.stdout.on('error', () => undefined);
process.stderr.on('error', () => undefined);

function say(message: string): void {
  process.stderr.write(`bench:soak: ${message}\n`);
}

const stopRun = new AbortController();

function sleep(ms: number): Promise<void> {
  return new Promise((r) => {
    if (stopRun.signal.aborted || ms <= 0) return r();
    const done = (): void => {
      clearTimeout(timer);
      stopRun.signal.removeEventListener('abort', done);
      r();
    };
    const timer = setTimeout(done, ms);
    stopRun.signal.addEventListener('abort', done, { once: true });
  });
}

/** A wait that a Ctrl-C does not cut short (the quiet gap must stay quiet). */
function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Polls the in-flight gauge until it is 0; the ms that took, or undefined after `limitMs`. */
async function drainInFlight(reader: ReplicaReader, limitMs: number): Promise<number | undefined> {
  const t0 = performance.now();
  while (performance.now() - t0 < limitMs) {
    await delay(250);
    if ((await reader.inFlight()) === 0) return performance.now() - t0;
  }
  return undefined;
}

interface Run {
  samples: SoakSample[];
  baseline: Reading;
  seeded: { nodes: number; instances: number };
  ended?: string;
}

async function soak(opts: SoakOptions, env: SoakEnvironment): Promise<Run> {
  const replica = await env.startReplica(opts.window);
  if (replica.pid === undefined) throw new Error('the replica has no pid');
  say(`replica pid ${replica.pid}, gRPC ${replica.grpcAddress}, HTTP ${replica.httpPort}; seeding ${opts.nodes} nodes × ${opts.instancesPerNode} instances`);
  const seeder = createClient({ targets: replica.grpcAddress, callerDaemon: 'bench', cache: false, feed: false });
  const seeded = await seed(seeder, opts.nodes, opts.instancesPerNode).finally(() => seeder.close());
  const reader = new ReplicaReader(replica.pid, replica.httpPort, env.mariadb.url);
  const load = new SoakLoad({ targets: replica.grpcAddress, rate: opts.rate, clients: opts.clients, waiters: opts.waiters, maxOutstanding: opts.maxOutstanding }, seeded);
  const run: Run = { samples: [], baseline: await reader.read(), seeded: { nodes: seeded.nodes.length, instances: seeded.instances.length } };
  say(`baseline: RSS ${run.baseline.gauges.rssMb.toFixed(1)} MB, fds ${run.baseline.gauges.openFds}, heap ${run.baseline.gauges.heapUsedMb.toFixed(1)} MB`);
  try {
    await load.prime();
    const count = Math.floor((opts.minutes * 60) / opts.sampleS);
    say(`${opts.rate} calls/s for ${opts.minutes} min; ${count} samples, one every ${opts.sampleS} s (under load, then after a ${opts.quietMs} ms quiet gap)`);
    const start = performance.now();
    let previous = run.baseline;
    for (let i = 1; i <= count && !stopRun.signal.aborted; i++) {
      load.resume();
      // The phase ends so that the quiet reading falls near start + i × sample-s.
      const phaseEnd = start + i * opts.sampleS * 1000 - opts.quietMs - 500;
      const memory: Memory[] = [];
      while (!stopRun.signal.aborted && env.replicaAlive && performance.now() < phaseEnd - 1000) {
        await sleep(Math.min(opts.scrapeS * 1000, phaseEnd - 1000 - performance.now()));
        if (env.replicaAlive) memory.push(await reader.memory());
      }
      await sleep(phaseEnd - performance.now());
      if (!env.replicaAlive) {
        run.ended = `the replica exited at minute ${((performance.now() - start) / 60_000).toFixed(1)}`;
        break;
      }
      const underLoad = await reader.read();
      const settled = await load.pause();
      await delay(opts.quietMs);
      const quiet = await reader.read();
      const inFlightDrainMs = quiet.gauges.inFlight === 0 ? 0 : await drainInFlight(reader, 5_000);
      const seconds = (quiet.at - previous.at) / 1000;
      const sample: SoakSample = {
        index: i,
        minute: (performance.now() - start) / 60_000,
        load: underLoad.gauges,
        quiet: quiet.gauges,
        memory: spreadOf([...memory, underLoad.gauges, quiet.gauges]),
        settleMs: settled.settledMs,
        stillPending: settled.stillPending,
        ...(quiet.gauges.inFlight !== 0 ? { inFlightDrainMs } : {}),
        calls: load.takeInterval(),
        tier: {
          requestsPerS: (quiet.counters.requests - previous.counters.requests) / seconds,
          cpuSecondsPerS: (quiet.counters.cpuSeconds - previous.counters.cpuSeconds) / seconds,
          errors: deltas(previous.counters.errors, quiet.counters.errors),
          waits: deltas(previous.counters.waits, quiet.counters.waits),
        },
      };
      previous = quiet;
      run.samples.push(sample);
      process.stdout.write(`${sampleLine(sample)}\n`);
      if (settled.stillPending > 0) say(`sample ${i}: ${settled.stillPending} calls of ours still pending after 30 s`);
    }
    if (stopRun.signal.aborted) run.ended ??= 'interrupted';
  } catch (err) {
    if (!stopRun.signal.aborted) throw err;
    run.ended ??= 'interrupted';
  } finally {
    load.close();
  }
  return run;
}

function publish(opts: SoakOptions, run: Run, date: Date, loadBefore: string): void {
  const { argv: _argv, ...options } = opts;
  const saved: SavedSoak & { baseline: Reading['gauges'] } = {
    command: commandLine(opts.argv),
    date: date.toISOString(),
    machine: describeMachine(),
    loadBefore,
    loadAfter: load1(),
    options,
    seeded: run.seeded,
    baseline: run.baseline.gauges,
    samples: run.samples,
    verdicts: judgeAll(run.samples, opts.warmupMin),
    ...(run.ended ? { ended: run.ended } : {}),
  };
  const outDir = resolve(ROOT, opts.outDir);
  mkdirSync(outDir, { recursive: true });
  const base = join(outDir, `soak-${date.toISOString().replace(/[:.]/g, '-').replace(/-\d+Z$/, 'Z')}`);
  const files = [`${base}.json`, `${base}.md`];
  const markdown = renderSoak(saved, files.map((f) => relative(ROOT, f)));
  writeFileSync(files[0] as string, `${JSON.stringify(saved, null, 2)}\n`);
  writeFileSync(files[1] as string, `${markdown}\n`);
  process.stdout.write(`\n${markdown}\n`);
  say(`wrote ${files.map((f) => relative(ROOT, f)).join(', ')}`);
}

// The first signal (or two, close together: the tsx CLI relays the terminal's signal too)
// ends the run, whose samples so far are written; the next one stops at once.
runBench(
  'bench:soak',
  async (bench) => {
    const opts = parseCommandLine(parseOptions);
    if (opts === undefined) return EXIT_USAGE;
    const date = new Date();
    const loadBefore = load1();
    bench.interrupted.addEventListener(
      'abort',
      () => {
        say(`${String(bench.interrupted.reason)}: ending the run (samples so far are written); again to stop at once`);
        stopRun.abort();
      },
      { once: true },
    );
    const env = new SoakEnvironment(bench);
    await bench.start();
    try {
      if (stopRun.signal.aborted) return EXIT_SIGNALLED;
      const run = await soak(opts, env);
      publish(opts, run, date, loadBefore);
      return stopRun.signal.aborted ? EXIT_SIGNALLED : 0;
    } finally {
      say('stopping the replica and MariaDB');
    }
  },
  { interruptions: 2 },
);
