// `npm run bench:cache`: cached static reads against uncached reads through the tier, in
// one run. A private MariaDB in a temporary directory, the real tier as a child process,
// the client here (a separate process from the tier). Seeds instances and nodes, then
// measures getInstance and getNode at 1 and at 64 concurrent callers, uncached
// (`cache: false`: every read an RPC) and cached (a warm StaticObjectCache: every read a
// hit). Prints a Markdown section and writes it to docs/BENCHMARKS.md (unless
// --no-write). Everything it started is stopped, and the directory removed, on exit, on
// error and on Ctrl-C (its parts are in the run's lifecycle, harness/main.ts).
//
//   npm run bench:cache [-- --seconds 5 --warmup 1 --count 1000 --invalidations 200
//                          --processes 100 --holders 10 --updates 20 --no-write]
//
// Then cross-process invalidation through the change feed (invalidation.ts), and the
// long-polls one static update wakes across many caching processes (wakeups.ts).
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { StaticObjectCache, createClient } from '../../client/index.js';
import type { DatabaseClient } from '../../client/index.js';
import { measureInvalidation, renderInvalidation } from './invalidation.js';
import { closedLoop } from './measure.js';
import { measureWakeups, renderWakeups } from './wakeups.js';
import { runBench } from '../../harness/main.js';
import { BenchProcesses } from './processes.js';
import { ROOT } from '../../harness/children.js';
import type { ReplicaProcess } from '../../harness/replica.js';
import { metricSum } from '../../harness/scrape.js';
import { renderSection, writeSection } from './report.js';
import type { Row } from './report.js';

const CONCURRENCY = [1, 64] as const;

// A closed pipe (`| head`) must not crash the run before it cleans up.
process.stdout.on('error', () => undefined);
process.stderr.on('error', () => undefined);

function say(message: string): void {
  process.stderr.write(`bench:cache: ${message}\n`);
}

function options() {
  const { values } = parseArgs({
    options: {
      seconds: { type: 'string', default: '5' },
      warmup: { type: 'string', default: '1' },
      count: { type: 'string', default: '1000' },
      invalidations: { type: 'string', default: '200' },
      processes: { type: 'string', default: '100' },
      holders: { type: 'string', default: '10' },
      updates: { type: 'string', default: '20' },
      'no-write': { type: 'boolean', default: false },
    },
  });
  const num = (name: string, raw: string, min: number): number => {
    const n = Number(raw);
    if (!Number.isFinite(n) || n < min) throw new Error(`--${name}: "${raw}" is not a number ≥ ${min}`);
    return n;
  };
  return {
    measureMs: num('seconds', values.seconds, 0.1) * 1000,
    warmupMs: num('warmup', values.warmup, 0) * 1000,
    count: Math.floor(num('count', values.count, 1)),
    invalidations: Math.floor(num('invalidations', values.invalidations, 1)),
    processes: Math.floor(num('processes', values.processes, 1)),
    holders: Math.floor(num('holders', values.holders, 1)),
    updates: Math.floor(num('updates', values.updates, 1)),
    write: !values['no-write'],
  };
}

/** Get RPCs of `operation` the tier has served (any caller). */
async function served(tier: ReplicaProcess, operation: string): Promise<number> {
  return metricSum(await tier.metrics(), 'database_requests_total', { operation });
}

/** Runs `fn` over `items`, `width` at a time. */
async function inBatches<T>(items: readonly T[], width: number, fn: (item: T, i: number) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += width) await Promise.all(items.slice(i, i + width).map((item, j) => fn(item, i + j)));
}

async function seed(db: DatabaseClient, count: number): Promise<{ instances: string[]; nodes: string[] }> {
  const instances = Array.from({ length: count }, () => randomUUID());
  const nodes = Array.from({ length: count }, () => randomUUID());
  await inBatches(instances, 32, (uuid, i) => db.createInstance({ uuid, staticValues: { name: `vm-${i}`, cpus: 2, memoryMb: 2048, disks: [{ size: 20 }] } }));
  await inBatches(nodes, 32, (uuid, i) => db.createNode({ uuid, fqdn: `node-${i}.bench.example`, ipAddress: `10.0.${i >> 8}.${i & 255}` }));
  return { instances, nodes };
}

async function run(tier: ReplicaProcess, opts: ReturnType<typeof options>): Promise<Row[]> {
  const targets = `127.0.0.1:${tier.grpcPort}`;
  const uncached = createClient({ targets, callerDaemon: 'bench', cache: false });
  const cached = createClient({ targets, callerDaemon: 'bench', cache: new StaticObjectCache() });
  try {
    say(`seeding ${opts.count} instances and ${opts.count} nodes`);
    const seeded = await seed(uncached, opts.count);
    const reads = {
      instance: { uuids: seeded.instances, operation: 'GetInstance', uncached: uncached.getInstance, cached: cached.getInstance },
      node: { uuids: seeded.nodes, operation: 'GetNode', uncached: uncached.getNode, cached: cached.getNode },
    };
    const rows: Row[] = [];
    for (const object of ['instance', 'node'] as const) {
      const r = reads[object];
      for (const concurrency of CONCURRENCY) {
        for (const path of ['uncached', 'cached'] as const) {
          // Warm: every seeded object read once (a node's 30 s TTL outlasts one run).
          if (path === 'cached') await inBatches(r.uuids, 32, (uuid) => r.cached(uuid));
          const before = await served(tier, r.operation);
          const result = await closedLoop(r[path], r.uuids, concurrency, opts.warmupMs, opts.measureMs);
          const tierRpcs = (await served(tier, r.operation)) - before;
          rows.push({ object, concurrency, path, tierRpcs, ...result });
          say(`${object} ×${concurrency} ${path}: ${Math.round(result.readsPerSecond)} reads/s, p50 ${result.p50Us.toFixed(2)} µs, p99 ${result.p99Us.toFixed(2)} µs, tier RPCs ${tierRpcs}`);
        }
      }
    }
    return rows;
  } finally {
    uncached.close();
    cached.close();
  }
}

runBench('bench:cache', async (bench) => {
  const opts = options();
  const loadAverage = loadavg()[0] ?? Number.NaN;
  const processes = new BenchProcesses(bench);
  await bench.start();
  say('starting the tier');
  const tier = await processes.startTier();
  const rows = await run(tier, opts);
  say(`cross-process invalidation: ${opts.invalidations} blobs updated, then deleted`);
  const invalidation = await measureInvalidation(`127.0.0.1:${tier.grpcPort}`, opts.invalidations);
  for (const r of invalidation) say(`invalidation after ${r.kind}: p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms, max ${r.maxMs} ms, missed ${r.missed}`);
  if (opts.holders > opts.processes) throw new Error('--holders: at most --processes');
  say(`wake-ups per static update: ${opts.processes} caching processes, ${opts.holders} holders, ${opts.updates} updates each`);
  const wakeups = await measureWakeups(`127.0.0.1:${tier.grpcPort}`, () => tier.metrics(), opts);
  for (const w of wakeups.rows) say(`${w.scenario}: ${w.wokenPerUpdate} woken, ${w.keptPerUpdate} kept per update; eviction p99 ${w.evictionP99Ms ?? '-'} ms`);
  const section = renderSection(rows, {
    command: `npm run bench:cache${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
    date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
    seeded: { instances: opts.count, nodes: opts.count },
    warmupMs: opts.warmupMs,
    measureMs: opts.measureMs,
    loadAverage,
  }) + `\n${renderInvalidation(invalidation)}\n${renderWakeups(wakeups)}`;
  process.stdout.write(`${section}\n`);
  if (opts.write) {
    writeSection(join(ROOT, 'docs', 'BENCHMARKS.md'), section);
    say('wrote docs/BENCHMARKS.md (bench:cache section)');
  }
  return 0;
});
