// `npm run bench:cluster`: the simulated cluster, every mode on the same seeded data, one
// shape or a sweep of shapes. Writes JSON, Markdown and an SVG chart to bench/results/
// and our section of docs/BENCHMARKS.md; every child process and the temporary directory
// are gone on exit, on error and on Ctrl-C (the environment is a part of the run's
// lifecycle, harness/main.ts).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { component } from '../../proto/runtime/lifecycle.js';
import { EXIT_USAGE, parseCommandLine, runBench } from '../../harness/main.js';
import { describeMachine, load1, writeDocs } from './docs.js';
import { commandLine, parseOptions, sweepShapes } from './options.js';
import type { CliOptions } from './options.js';
import { renderRun } from './output.js';
import type { SavedRun } from './output.js';
import type { ClusterResult } from './results.js';
import { ROOT } from '../../harness/children.js';
import { buildCheckout } from '../../harness/built.js';
import { ClusterEnvironment, runCluster } from './run.js';

function say(message: string): void {
  process.stderr.write(`bench:cluster: ${message}\n`);
}

/** Writes the Markdown and SVG beside `json`, prints the Markdown, and rewrites our docs parts. */
function publish(saved: SavedRun, json: string, docs: boolean): void {
  const md = json.replace(/\.json$/, '.md');
  const svg = json.replace(/\.json$/, '.svg');
  const files = [json, md, svg].map((f) => relative(ROOT, f));
  const out = renderRun(saved, files);
  writeFileSync(md, `${out.markdown}\n`);
  writeFileSync(svg, out.svg);
  process.stdout.write(`${out.markdown}\n`);
  if (docs) {
    const path = join(ROOT, 'docs', 'BENCHMARKS.md');
    writeDocs(path, out.parts);
    say(`wrote ${relative(ROOT, path)} (${Object.keys(out.parts).join(', ')})`);
  }
  say(`wrote ${files.join(', ')}`);
  const missed = saved.results.flatMap((r) => r.results.filter((m) => !m.dutiesHeld).map((m) => `${m.mode} at ${r.shape.nodes} nodes`));
  if (missed.length > 0) say(`DUTIES MISSED: ${missed.join('; ')} — lower load does not count there`);
}

async function bench(cli: CliOptions, env: ClusterEnvironment): Promise<number> {
  const date = new Date();
  const loadBefore = load1();
  const base = cli.run;
  const shapes = sweepShapes(base, cli.sweeps);
  const results: ClusterResult[] = [];
  for (const [i, shape] of shapes.entries()) {
    say(`point ${i + 1}/${shapes.length}: ${shape.nodes} nodes, ${shape.instances} instances, history ${shape.history}; modes ${base.modes.join(', ')}`);
    results.push(await runCluster({ ...base, ...shape, log: say }, env));
  }
  await env.stop();

  const outDir = resolve(ROOT, cli.outDir);
  mkdirSync(outDir, { recursive: true });
  const json = join(outDir, `cluster-${date.toISOString().replace(/[:.]/g, '-').replace(/-\d+Z$/, 'Z')}.json`);
  const saved: SavedRun = {
    command: commandLine(cli.argv),
    date: date.toISOString(),
    machine: describeMachine(),
    loadBefore,
    loadAfter: load1(),
    options: base,
    sweeps: cli.sweeps,
    results,
    tier: cli.tier,
  };
  const { fits, history } = renderRun(saved, []);
  writeFileSync(json, `${JSON.stringify({ ...saved, fits, history }, null, 2)}\n`);
  publish(saved, json, cli.writeDocs);
  return 0;
}

runBench('bench:cluster', async (run) => {
  const cli = parseCommandLine(parseOptions);
  if (cli === undefined) return EXIT_USAGE;
  if (cli.from !== undefined) {
    const json = resolve(ROOT, cli.from);
    if (!existsSync(json)) {
      process.stderr.write(`--from: ${cli.from} does not exist\n`);
      return 2;
    }
    publish(JSON.parse(readFileSync(json, 'utf8')) as SavedRun, json, cli.writeDocs);
    return 0;
  }
  if (cli.tier === 'built') {
    // The tier as it ships (what its CPU figures are of), as bench:rpc runs it.
    say('building the tier (tsc -b tsconfig.build.json, as npm start does)');
    buildCheckout(ROOT);
  }
  let env: ClusterEnvironment | undefined;
  run.add(component('cluster environment', async () => (env = await ClusterEnvironment.start(say, cli.backend, cli.tier)), () => env?.stop()));
  await run.start();
  return bench(cli, env as ClusterEnvironment);
});
