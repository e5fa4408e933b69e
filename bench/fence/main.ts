// `npm run bench:fence`: what a lease fence costs a write (issue 38), fenced against the
// same write unfenced, in one run. A private MariaDB in a temporary directory and the real
// tier as a child process; the client here holds a lease and makes each write
// unfenced and fenced, in alternating rounds: SetObjectState (a transaction today:
// the fence adds one statement), DeleteObjectAttributes (one auto-commit statement today:
// fenced, a transaction of its own) and SetObjectAttributes (group-committed today: a fenced
// call runs alone), each at 1 caller and at 32. Statements per call are the tier's own
// (database_queries_total{source="rpc"}: BEGIN and COMMIT included), latency the client's.
// Prints a Markdown section for docs/BENCHMARKS.md. Everything it started is stopped, and
// its directory removed, on exit, on error and on Ctrl-C (harness/main.ts).
//
//   npm run bench:fence [-- --calls 2000 --rounds 2 --unfenced-only]
//
// --unfenced-only runs the unfenced writes alone, with the client calls of a tree without
// fences, so the same file measures a checkout of main (the statement counts to compare).
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { createClient } from '../../client/index.js';
import type { DatabaseClient } from '../../client/index.js';
import { runBench } from '../../harness/main.js';
import type { ReplicaProcess } from '../../harness/replica.js';
import { metricSum } from '../../harness/scrape.js';
import { percentile } from '../../harness/stats.js';

process.stdout.on('error', () => undefined);
process.stderr.on('error', () => undefined);

function say(message: string): void {
  process.stderr.write(`bench:fence: ${message}\n`);
}

function options(): { calls: number; rounds: number; unfencedOnly: boolean } {
  const { values } = parseArgs({
    options: { calls: { type: 'string', default: '2000' }, rounds: { type: 'string', default: '2' }, 'unfenced-only': { type: 'boolean', default: false } },
  });
  const num = (name: string, raw: string): number => {
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 1) throw new Error(`--${name}: "${raw}" is not a whole number ≥ 1`);
    return n;
  };
  return { calls: num('calls', values.calls), rounds: num('rounds', values.rounds), unfencedOnly: values['unfenced-only'] };
}

/** A lease as the client presents it (spelled out: a tree without fences has no such type). */
interface Fence {
  name: string;
  holder: string;
  token: string;
}

/** One write: call `i` on object `uuid`, fenced when `fence` is given. */
type Write = (db: DatabaseClient, uuid: string, i: number, fence: Fence | undefined) => Promise<unknown>;

// `{ fence }` travels as the call's options; a tree without fences ignores them (--unfenced-only passes none).
const opts = (fence: Fence | undefined): object | undefined => (fence ? { fence } : undefined);
const WRITES: Record<string, Write> = {
  SetObjectState: (db, uuid, i, fence) => db.setObjectState('INSTANCE', uuid, i % 2 === 0 ? 'CREATING' : 'CREATED', `call ${i}`, opts(fence)),
  DeleteObjectAttributes: (db, uuid, i, fence) => db.deleteObjectAttributes('INSTANCE', uuid, [`k${i % 8}`], opts(fence)),
  SetObjectAttributes: (db, uuid, i, fence) => db.setObjectAttributes('INSTANCE', uuid, { [`k${i % 8}`]: i }, opts(fence)),
};
const CONCURRENCY = [1, 32] as const;

interface Measured {
  calls: number;
  statements: number;
  latenciesMs: number[];
  seconds: number;
}

async function rpcStatements(tier: ReplicaProcess): Promise<number> {
  return metricSum(await tier.metrics(), 'database_queries_total', { source: 'rpc' });
}

/** `calls` calls of `write`, `concurrency` at a time, each caller on objects of its own. */
async function measure(tier: ReplicaProcess, db: DatabaseClient, write: Write, objects: string[], calls: number, concurrency: number, fence: Fence | undefined): Promise<Measured> {
  const latenciesMs: number[] = [];
  const before = await rpcStatements(tier);
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, caller) => {
      for (let i = next++; i < calls; i = next++) {
        const t0 = performance.now();
        await write(db, objects[caller % objects.length] as string, i, fence);
        latenciesMs.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { calls, statements: (await rpcStatements(tier)) - before, latenciesMs, seconds };
}

function merge(parts: readonly Measured[]): Measured {
  return {
    calls: parts.reduce((s, p) => s + p.calls, 0),
    statements: parts.reduce((s, p) => s + p.statements, 0),
    latenciesMs: parts.flatMap((p) => p.latenciesMs),
    seconds: parts.reduce((s, p) => s + p.seconds, 0),
  };
}

function row(write: string, concurrency: number, path: string, m: Measured): string {
  const sorted = [...m.latenciesMs].sort((a, b) => a - b);
  return `| ${write} | ${concurrency} | ${path} | ${(m.statements / m.calls).toFixed(2)} | ${percentile(sorted, 0.5).toFixed(2)} | ${percentile(sorted, 0.99).toFixed(2)} | ${Math.round(m.calls / m.seconds)} |`;
}

runBench('bench:fence', async (bench) => {
  const o = options();
  const loadBefore = (loadavg()[0] ?? Number.NaN).toFixed(2);
  const cluster = bench.tier({ dir: 'sfdb-bench-fence-', server: 'mariadb', database: 'bench', graceMs: 15_000, timeoutMs: 180_000 });
  await bench.start();
  const tier = await cluster.add({ name: 'tier', id: `bench-fence-${process.pid}`, env: { SFDB_RATE_LIMIT_NODE_RPS: '0', SFDB_RATE_LIMIT_DAEMON_RPS: '0' } });
  const db = createClient({ targets: `127.0.0.1:${tier.grpcPort}`, callerDaemon: 'bench', deadlineMs: 10_000 });
  const lines = ['| write | callers | path | statements/call | p50 ms | p99 ms | calls/s |', '|---|---|---|---|---|---|---|'];
  try {
    const lease = await db.acquireLease('bench/fence', 'bench-holder', 3_600_000);
    const fence: Fence = { name: 'bench/fence', holder: 'bench-holder', token: lease.lease.token };
    const objects = Array.from({ length: 32 }, () => randomUUID());
    for (const uuid of objects) await db.createInstance({ uuid, staticValues: {} });

    for (const [name, write] of Object.entries(WRITES)) {
      for (const concurrency of CONCURRENCY) {
        const unfenced: Measured[] = [];
        const fenced: Measured[] = [];
        // Alternating rounds: the machine's noise falls on both paths alike.
        for (let r = 0; r < o.rounds; r++) {
          unfenced.push(await measure(tier, db, write, objects, o.calls, concurrency, undefined));
          if (!o.unfencedOnly) fenced.push(await measure(tier, db, write, objects, o.calls, concurrency, fence));
        }
        const rows = [row(name, concurrency, 'unfenced', merge(unfenced)), ...(o.unfencedOnly ? [] : [row(name, concurrency, 'fenced', merge(fenced))])];
        lines.push(...rows);
        say(rows.join('\n'));
      }
    }
  } finally {
    db.close();
  }
  const command = `npm run bench:fence${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`;
  process.stdout.write(`\n${command}   (${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, load ${loadBefore} → ${(loadavg()[0] ?? Number.NaN).toFixed(2)})\n\n${lines.join('\n')}\n`);
  return 0;
});
