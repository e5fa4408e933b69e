// `sf-ctl load`: every live replica's /metrics scraped twice a window apart, call rates,
// MariaDB seconds and pool waits per (operation, caller_daemon) summed over replicas, the
// costliest pair first, judged against the load budget for the live cluster size.
import { readFileSync } from 'node:fs';
import { churnAbove, statusText } from '@sfdb/proto/runtime/budget';
import type { LoadBudget, Shape } from '@sfdb/proto/runtime/budget';
import { EXIT, GLOBAL_HELP, UsageError, flag, formatDurationMs, parseAddressList, parseDuration, str } from './cli.js';
import type { Command, Io, Parsed } from './cli.js';
import { withTier } from './connect.js';
import { formatRate } from './format.js';
import { budgetCallers, changeRateOf, costLine, instancesFrom, judgeLoad, loadExitCode, loadTable, measurePairs, parseBudget } from './load-report.js';
import type { LoadRow } from './load-report.js';
import { budgetPath } from './paths.js';
import { replicaEndpoints, scrapeTwice } from './scrape.js';

const HELP = `usage: sf-ctl load [--window 60s] [--budget feed|anchor|<path>] [--metrics host:port,...] [--json]

Scrapes /metrics of every live replica twice, --window apart, and prints for each
(operation, caller_daemon) pair, summed over the replicas: its call rate against the load
budget for the live cluster size, the MariaDB time its calls caused and its wait for pool
connections. Columns: operation, caller, rate/s, expected, ceiling (calls/s); db s/s
(MariaDB seconds per second: statement sent to result, a group-commit batch's or a shared
read's time split equally among the calls it answered), db share (of every pair's db s/s,
the tier's own included), db s ceiling (the budget's seconds ceiling, where the pair has
one); pool wait s/s (seconds per second its statements waited for a connection); status.
The tier's own statements (change feed, registry, maintenance, admin, migration) are the
pairs of caller sf-database, operation = their source, with no calls.

Sorted so the top cost is first: by db s/s, highest first, then by rate/s (pairs that ran
no statement, e.g. long-polls, and every pair when no replica reports MariaDB seconds).

  --window D       time between the two scrapes (default 60s, the longest period of the
                   shipped daemons: a shorter window sees their bursts; 500ms..1h). Rates use each
                   replica's measured elapsed time, not D.
  --budget B       feed (default: ops/load-budget.json), anchor (ops/load-budget.anchor.json),
                   or the path of a budget JSON file
  --metrics LIST   scrape these host:port endpoints instead of the metrics addresses the
                   replicas recorded in the registry (GetClusterStatus)

Cluster size: nodes = live nodes (GetClusterStatus); instances = the largest
database_cluster_instances gauge over the replicas. A replica without that gauge (an older
one) leaves instances unknown: 0 is used and a warning is printed.
Churn: the cluster's change rate over the window, from the tier's own feed counter
(database_changefeed_changes_total{via="commit"}, summed over the replicas), less the
budget's quiet change rate for this size (its changeRate), at least 0; each pair's churn
terms add perChurn·churn + perNodeChurn·nodes·churn. A budget without a change-rate model,
or replicas without the counter, judge the cluster as quiet (churn 0).

status: ok (within its ceilings), OVER calls (rate/s above its ceiling), OVER db s (db s/s
above its seconds ceiling), OVER calls+db s (both), unbudgeted (a pair of a daemon the budget
covers that the budget does not list, at a steady rate), rare (such a pair below the steady
rate), - (a caller the budget does not cover, e.g. sf-ctl, bench or sf-database: not judged).
Seconds ceilings: max(expected db s/s × factor, expected + secondsFloor), the call ceilings'
rule with a floor in seconds/s (the budget's ceiling.secondsFloor).
A replica that restarted between the scrapes counts from zero (never a negative rate).

exit: 0 all within budget, 1 a pair OVER or unbudgeted, 2 bad arguments,
      3 a replica unreachable, a scrape failed, or a replica gone between scrapes

${GLOBAL_HELP}`;

function readBudget(spec: string, path: string): LoadBudget {
  try {
    return parseBudget(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new UsageError(`--budget: cannot use ${spec === path ? path : `${spec} (${path})`}: ${(err as Error).message}; expected feed, anchor or a budget JSON path`);
  }
}

async function run({ values }: Parsed, io: Io): Promise<number> {
  const windowMs = parseDuration('--window', str(values, 'window') ?? '60s', { minMs: 500, maxMs: 3_600_000 });
  const budgetSpec = str(values, 'budget') ?? 'feed';
  const path = budgetPath(budgetSpec);
  const budget = readBudget(budgetSpec, path);
  const metricsOverride = str(values, 'metrics');
  const override = metricsOverride === undefined ? undefined : parseAddressList('--metrics', metricsOverride);
  const json = flag(values, 'json');

  const cluster = await withTier(str(values, 'target'), ({ db }) => db.getClusterStatus());
  const nodesLive = cluster.nodes.filter((n) => n.live).length;
  const endpoints = replicaEndpoints(cluster.replicas, override);

  const pairs = await scrapeTwice(endpoints, windowMs, () =>
    io.note(`scraped ${endpoints.length} endpoint${endpoints.length === 1 ? '' : 's'}; again in ${formatDurationMs(windowMs)}`),
  );
  const warnings: string[] = [];
  for (const p of pairs) if (p.restarted) warnings.push(`${p.endpoint.id} restarted between the scrapes: its counts start from its restart`);
  const instances = instancesFrom(pairs.map((p) => p.after));
  if (instances === undefined) warnings.push('instances unknown (no replica reports database_cluster_instances): using 0');
  const quiet: Shape = { nodes: nodesLive, instances: instances ?? 0 };
  const changes = changeRateOf(pairs);
  if (changes === undefined && budget.changeRate) warnings.push('change rate unknown (no replica reports database_changefeed_changes_total): churn taken as 0');
  const shape: Shape = { ...quiet, churn: churnAbove(budget, quiet, changes ?? 0) };
  const rows = judgeLoad(budget, measurePairs(pairs), shape);
  const code = loadExitCode(rows);
  const seconds = pairs.map((p) => p.seconds);

  if (json) {
    io.out(
      `${JSON.stringify(
        {
          windowMs,
          measuredSeconds: seconds,
          budget: path,
          shape: { nodes: shape.nodes, instances: instances ?? null, churn: shape.churn ?? 0 },
          changesPerSecond: changes ?? null,
          endpoints: pairs.map((p) => ({ id: p.endpoint.id, address: p.endpoint.address, seconds: p.seconds, restarted: p.restarted })),
          callers: [...budgetCallers(budget)].sort(),
          pairs: rows,
          warnings,
          exitCode: code,
        },
        null,
        2,
      )}\n`,
    );
  } else {
    const mean = seconds.reduce((a, b) => a + b, 0) / seconds.length;
    io.out(
      `${endpoints.length} endpoint(s) over ${mean.toFixed(2)} s; ${shape.nodes} live node(s), ${instances ?? 'unknown'} instance(s); ` +
        `changes ${changes === undefined ? 'unknown' : `${formatRate(changes)}/s`} (churn ${formatRate(shape.churn ?? 0)}/s); budget ${path}\n` +
        `${costLine(rows)}\n\n` +
        loadTable(rows),
    );
    const bad = rows.filter((r) => r.status === 'OVER' || r.status === 'unbudgeted');
    if (bad.length > 0) {
      const what = (r: LoadRow): string => `${formatRate(r.rate)}/s${r.over.includes('seconds') ? `, ${formatRate(r.seconds)} db s/s` : ''} (${statusText(r)})`;
      io.out(`\n${bad.length} pair(s) outside the budget: ${bad.map((r) => `${r.operation}/${r.caller_daemon} ${what(r)}`).join(', ')}\n`);
    }
  }
  for (const w of warnings) io.note(`warning: ${w}`);
  return code === EXIT.ok ? EXIT.ok : EXIT.failed;
}

export const loadCommand: Command = {
  name: 'load',
  summary: 'calls/s and MariaDB seconds/s per (operation, caller) over a window, against the load budget',
  help: HELP,
  options: { window: { type: 'string' }, budget: { type: 'string' }, metrics: { type: 'string' } },
  run,
};
