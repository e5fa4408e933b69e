// `sf-ctl audit`: every declared periodic task, its declared rate against the rate the
// tier measures, and what each call costs — what still polls, and at what price.
import { GLOBAL_HELP, flag, formatDurationMs, parseAddressList, parseDuration, str } from './cli.js';
import type { Command, Io, Parsed } from './cli.js';
import { withTier } from './connect.js';
import { daemonTaskRows, daemonTaskTable, tierTaskRows, tierTaskTable } from './audit-report.js';
import { replicaEndpoints, scrape, scrapeTwice } from './scrape.js';

const HELP = `usage: sf-ctl audit [--window 30s] [--daemon-metrics host:port,...] [--metrics host:port,...] [--json]

Lists every declared periodic task with its declared and its measured rate, scraping each
live replica's /metrics twice, --window apart:

- the tier's own tasks (database_periodic_task_interval_seconds{task,source,duty}, one set
  per replica) against the tier's measured statements of the same source
  (database_queries_total{source}; several tasks may share a source, so both sides are
  also given summed per source);
- with --daemon-metrics, the tasks each daemon process declares
  (database_daemon_periodic_task_interval_seconds{daemon,task,operation,scale}, served by
  \`sf-daemon --metrics-port\`) against the tier's measured requests of that RPC from that
  daemon (database_requests_total{operation,caller_daemon}, every process of that daemon
  name), with the RPC's mean handling time over the window
  (database_request_duration_seconds _sum/_count, every caller) and the tier time it costs
  per second (a long-poll, WaitForChanges, is held, not worked: its latency is the hold
  and no cost is given). Declared rates: Σ 1/interval over the processes given (scale process), one
  holder (elected), or per running job (job). An RPC a given daemon calls at a rate
  without declaring it is listed as (undeclared). In feed mode the daemon-state poll is
  declared but runs only while the change feed is unavailable: a measured rate there
  means something still polls.

  --window D              time between the two scrapes (default 30s; 500ms..1h)
  --daemon-metrics LIST   daemon metrics endpoints (host:port of sf-daemon --metrics-port)
  --metrics LIST          replica metrics endpoints instead of those the registry records

exit: 0 listed, 2 bad arguments, 3 a replica or daemon endpoint unreachable, a scrape failed

${GLOBAL_HELP}`;

async function run({ values }: Parsed, io: Io): Promise<number> {
  const windowMs = parseDuration('--window', str(values, 'window') ?? '30s', { minMs: 500, maxMs: 3_600_000 });
  const daemonList = str(values, 'daemon-metrics');
  const daemonAddresses = daemonList === undefined ? [] : parseAddressList('--daemon-metrics', daemonList);
  const metricsList = str(values, 'metrics');
  const override = metricsList === undefined ? undefined : parseAddressList('--metrics', metricsList);

  const cluster = await withTier(str(values, 'target'), ({ db }) => db.getClusterStatus());
  const endpoints = replicaEndpoints(cluster.replicas, override);
  const daemonScrapes = await Promise.all(daemonAddresses.map((address) => scrape({ id: `daemon endpoint`, address })));
  const windows = await scrapeTwice(endpoints, windowMs, () =>
    io.note(`scraped ${endpoints.length} replica endpoint(s); again in ${formatDurationMs(windowMs)}`),
  );
  const warnings = windows.filter((w) => w.restarted).map((w) => `${w.endpoint.id} restarted between the scrapes: its counts start from its restart`);
  const tierTasks = tierTaskRows(windows);
  const daemonTasks = daemonAddresses.length > 0 ? daemonTaskRows(daemonScrapes.map((s) => s.samples), windows) : undefined;

  if (flag(values, 'json')) {
    const report = {
      windowMs,
      measuredSeconds: windows.map((w) => w.seconds),
      endpoints: windows.map((w) => ({ id: w.endpoint.id, address: w.endpoint.address, seconds: w.seconds, restarted: w.restarted })),
      daemonEndpoints: daemonAddresses,
      tierTasks,
      daemonTasks: daemonTasks ?? null,
      warnings,
    };
    io.out(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    const mean = windows.reduce((a, w) => a + w.seconds, 0) / windows.length;
    let text = `${endpoints.length} replica endpoint(s) over ${mean.toFixed(2)} s\n\ntier tasks (per replica)\n${tierTaskTable(tierTasks)}`;
    text += daemonTasks
      ? `\ndaemon tasks (${daemonAddresses.length} daemon endpoint(s))\n${daemonTaskTable(daemonTasks)}`
      : '\ndaemon tasks: pass --daemon-metrics host:port,... (sf-daemon --metrics-port) to list them\n';
    io.out(text);
  }
  for (const w of warnings) io.note(`warning: ${w}`);
  return 0;
}

export const auditCommand: Command = {
  name: 'audit',
  summary: 'declared periodic tasks against measured rates, and what each call costs',
  help: HELP,
  options: { window: { type: 'string' }, 'daemon-metrics': { type: 'string' }, metrics: { type: 'string' } },
  run,
};
