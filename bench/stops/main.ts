// `npm run bench:stops`: the operator-stop chaos run (rounds.ts). A private MariaDB, two
// replicas behind TCP proxies, K daemon processes; each round faults one replica (SIGSTOP,
// blackhole, SIGKILL, restart; young or old; the stop written at the fault or after it)
// and measures, per daemon, the time from the operator's write to the daemon's notice.
// Prints a table by arrangement and writes bench/results/stops-<date>.json. Exits 1 when a
// stop was lost or STOPPED not recorded.
//
//   npm run bench:stops [-- --rounds 40 --hosts 4 --after-ms 3000 --young-ms 1000 --old-ms 60000 --lost-ms 20000]
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT } from '../../harness/children.js';
import { ProcessCluster } from '../../harness/cluster.js';
import { describeMachine, load1 } from '../../harness/machine.js';
import { EXIT_USAGE, parseCommandLine, runBench } from '../../harness/main.js';
import { component } from '../../proto/runtime/lifecycle.js';
import { StopRounds, arrangements, label, summarize } from './rounds.js';
import type { StopRecord } from './rounds.js';

function options(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      rounds: { type: 'string', default: '40' },
      hosts: { type: 'string', default: '4' },
      'after-ms': { type: 'string', default: '3000' },
      'young-ms': { type: 'string', default: '1000' },
      'old-ms': { type: 'string', default: '60000' },
      'lost-ms': { type: 'string', default: '20000' },
    },
  });
  const int = (name: string, raw: string, min: number): number => {
    const n = Number(raw);
    if (!Number.isSafeInteger(n) || n < min) throw new Error(`--${name}: "${raw}" is not an integer ≥ ${min}`);
    return n;
  };
  return {
    rounds: int('rounds', values.rounds, 1),
    hosts: int('hosts', values.hosts, 1),
    afterMs: int('after-ms', values['after-ms'], 0),
    youngMs: int('young-ms', values['young-ms'], 0),
    oldMs: int('old-ms', values['old-ms'], 0),
    lostMs: int('lost-ms', values['lost-ms'], 1000),
  };
}

/** One line per group of records — by arrangement, by what F held of the daemon, all — with stops, lost, p50, p99, max. */
export function table(records: readonly StopRecord[]): string {
  const held = (r: StopRecord): string => `F held its ${r.pollOnF && r.watchOnF ? 'long-poll and watch' : r.pollOnF ? 'long-poll' : r.watchOnF ? 'watch' : 'neither'}`;
  const groups = new Map<string, StopRecord[]>();
  const add = (key: string, r: StopRecord): void => void groups.set(key, [...(groups.get(key) ?? []), r]);
  for (const r of records) add(r.arrangement, r);
  for (const r of [...records].sort((x, y) => held(x).localeCompare(held(y)))) add(held(r), r);
  for (const r of records) add('all', r);
  const lines = ['| arrangement | stops | lost | STOPPED missing | p50 ms | p99 ms | max ms | hedges + retries per stop |', '|---|---|---|---|---|---|---|---|'];
  for (const [key, rs] of groups) {
    const s = summarize(rs);
    const extra = rs.reduce((n, r) => n + r.hedges + r.retries, 0) / Math.max(1, rs.length);
    lines.push(`| ${key} | ${s.stops} | ${s.lost} | ${s.notStopped} | ${s.p50} | ${s.p99} | ${s.max} | ${extra.toFixed(2)} |`);
  }
  return lines.join('\n');
}

runBench('bench:stops', async (bench) => {
  const opts = parseCommandLine(options, 'usage: npm run bench:stops [-- --rounds N --hosts K --after-ms MS --young-ms MS --old-ms MS --lost-ms MS]');
  if (!opts) return EXIT_USAGE;
  const say = (message: string): void => void process.stderr.write(`bench:stops: ${message}\n`);
  const date = new Date().toISOString();
  const loadBefore = load1();
  const dir = bench.tempDir('sfdb-bench-stops-');
  const children = bench.children();
  const cluster = new ProcessCluster({ dir, server: 'mariadb', database: 'sfdb_stops', replicas: [{ name: 'a' }, { name: 'b' }], idFor: (name, n) => `${name}-${n}`, proxies: true, children, say });
  bench.add(cluster);
  const rounds = new StopRounds({ cluster, children, hosts: opts.hosts, afterMs: opts.afterMs, youngMs: opts.youngMs, oldMs: opts.oldMs, lostMs: opts.lostMs, say });
  bench.add(component('daemon hosts', () => rounds.start(), () => rounds.stop()));
  await bench.start();
  const plan = arrangements();
  for (let i = 0; i < opts.rounds && !bench.interrupted.aborted; i++) {
    const a = plan[i % plan.length];
    if (a) await rounds.run(a, i % 2 === 0 ? 'a' : 'b');
  }
  const command = `npm run bench:stops${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`;
  const all = summarize(rounds.records);
  process.stdout.write(`\n${command}   (${date.slice(0, 16).replace('T', ' ')} UTC, load ${loadBefore} → ${load1()})\n\n${table(rounds.records)}\n`);
  const results = join(ROOT, 'bench', 'results');
  mkdirSync(results, { recursive: true });
  const path = join(results, `stops-${date.slice(0, 19).replace(/[:T]/g, '-')}.json`);
  writeFileSync(path, `${JSON.stringify({ command, date, machine: describeMachine(), loadBefore, loadAfter: load1(), arrangements: plan.map(label), summary: all, records: rounds.records }, null, 2)}\n`);
  say(`wrote ${path}`);
  return all.lost === 0 && all.notStopped === 0 ? 0 : 1;
});
