// npm run bench:planted — issue 39's experiment: a statement slowed on purpose in one
// simulated daemon's path is found from the dashboard's "top pairs by MariaDB seconds"
// panel, and its slow-statement log line names the daemon and the operation.
//
// A 6-node feed-mode cluster (bench:cluster's simulator, 2 replicas) runs; during its
// measured window a connection of the benchmark's own holds every node_heartbeats row FOR
// UPDATE in 4 s spells (bench/cluster/slow.ts), so the resources daemons' NodeHeartbeat
// writes wait inside MariaDB. A real Prometheus scrapes both replicas every second from the
// window's start; at its end the panel's own expression, read from the generated dashboard
// (ops/grafana/sf-database.json) and filled in as Grafana would (every variable at All),
// is asked of it. The replicas' logs are then searched for `slow statement` lines.
// Prints the panel's answer, the log lines' fields and whether the planted pair topped it.
import { readFileSync } from 'node:fs';
import { component, Lifecycle } from '@sfdb/proto/runtime/lifecycle';
import { DEFAULT_RUN } from '../cluster/options.js';
import { ClusterEnvironment, runCluster } from '../cluster/run.js';
import { startPrometheus, substitute } from '../../test/helpers/prometheus.js';
import type { PromResult, TestPrometheus } from '../../test/helpers/prometheus.js';

const PANEL = 'Top 10 (operation, caller daemon) pairs by MariaDB seconds';
const PLANTED = { operation: 'NodeHeartbeat', caller_daemon: 'resources' };

interface Panel {
  title?: string;
  targets?: { expr?: string }[];
  panels?: Panel[];
}

/** The panel's first query, from the dashboard as generated. */
function panelExpr(): string {
  const dashboard = JSON.parse(readFileSync(new URL('../../ops/grafana/sf-database.json', import.meta.url), 'utf8')) as Panel;
  const all = (p: Panel): Panel[] => [p, ...(p.panels ?? []).flatMap(all)];
  const expr = all(dashboard).find((p) => p.title === PANEL)?.targets?.[0]?.expr;
  if (expr === undefined) throw new Error(`no panel "${PANEL}" in ops/grafana/sf-database.json`);
  return expr;
}

const say = (line: string): void => void process.stderr.write(`bench:planted: ${line}\n`);

async function main(): Promise<void> {
  const expr = substitute(panelExpr());
  let answer: PromResult[] = [];
  let logs: string[] = [];
  let prometheus: TestPrometheus | undefined;
  const run = new Lifecycle();
  let env: ClusterEnvironment | undefined;
  run.add(component('cluster environment', async () => (env = await ClusterEnvironment.start(say)), () => env?.stop()));
  run.add(component('prometheus', () => undefined, () => prometheus?.stop()));
  await run.start();
  try {
    const result = await runCluster(
      {
        ...DEFAULT_RUN,
        nodes: 6,
        instances: 8,
        history: 100,
        replicas: 2,
        modes: ['feed'],
        warmupS: 10,
        durationS: 60,
        slow: 'heartbeat-lock',
        log: say,
        onWindow: async (replicas) => {
          prometheus = await startPrometheus({ jobs: [{ job: 'sf-database', targets: replicas.map((r) => `127.0.0.1:${r.httpPort}`) }] });
          say(`Prometheus at ${prometheus.url} scrapes ${replicas.length} replicas`);
          return async () => {
            answer = await (prometheus as TestPrometheus).query(expr);
            logs = replicas.flatMap((r) => (r.logPath === undefined ? [] : readFileSync(r.logPath, 'utf8').split('\n')));
          };
        },
      },
      env as ClusterEnvironment,
    );
    const slow = logs.filter((l) => l.includes('"slow statement"')).map((l) => JSON.parse(l) as Record<string, unknown>);
    const top = answer[0]?.metric;
    const held = result.results[0]?.dutiesHeld;
    process.stdout.write(`panel "${PANEL}", its expression as Grafana sends it:\n  ${expr}\n\nPrometheus's answer at the window's end (seconds/s):\n`);
    for (const r of answer) process.stdout.write(`  ${r.metric['caller_daemon']} · ${r.metric['operation']}: ${Number(r.value[1]).toFixed(4)}\n`);
    process.stdout.write(`\nslow-statement lines in the replicas' logs: ${slow.length}\n`);
    const fields = ['operation', 'caller_daemon', 'statement', 'source', 'duration_ms', 'rows', 'shared_by', 'callers', 'threshold_ms'];
    for (const l of slow.slice(0, 5)) process.stdout.write(`  ${JSON.stringify(Object.fromEntries(fields.filter((f) => f in l).map((f) => [f, l[f]])))}\n`);
    const named = slow.filter((l) => l['operation'] === PLANTED.operation && l['caller_daemon'] === PLANTED.caller_daemon).length;
    const found = top?.['operation'] === PLANTED.operation && top['caller_daemon'] === PLANTED.caller_daemon;
    process.stdout.write(
      `\nplanted pair ${PLANTED.caller_daemon} · ${PLANTED.operation}: first in the panel: ${found ? 'yes' : 'NO'}; ` +
        `slow-statement lines naming it: ${named} of ${slow.length}; every duty held: ${held ? 'yes' : 'no (the lock delays the heartbeats it holds)'}\n`,
    );
    if (!found || named === 0) process.exitCode = 1;
  } finally {
    await run.stop();
  }
}

await main();
