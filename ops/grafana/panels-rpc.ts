// The RPC side of the dashboard: cluster size, who calls what and how often, the load
// budget against what is measured, latency and errors. Budget rows read the recording
// rules of ops/prometheus/rules.ts by the names it records them under.
import * as common from '@grafana/grafana-foundation-sdk/common';
import * as table from '@grafana/grafana-foundation-sdk/table';
import { ANSWER_CODES, RECORDED, SFDB_JOB } from '../prometheus/rules.js';
import { costPanels } from './panels-cost.js';
import { BY_CALLER, bars, onReplicas, rate, selector, singleStat, thresholds, timeSeries, withBasics } from './panels.js';
import type { PanelBuilder, Section } from './panels.js';

const REQUESTS = onReplicas('database_requests_total', BY_CALLER);

/** Cluster gauges: every replica reports the same reading, so the panels take the max. */
function clusterStat(title: string, description: string, expr: string, colours = thresholds([0, 'blue'])): PanelBuilder {
  return singleStat({ title, description, queries: [{ expr, legend: title }], unit: 'short', width: 4, height: 4 }, colours);
}

export function clusterSection(): Section {
  const missing = thresholds([0, 'red'], [1, 'green']);
  return {
    title: 'Cluster',
    panels: [
      clusterStat(
        'Live replicas',
        'Tier replicas with a fresh heartbeat in the registry, as the replicas last read it. Fewer than you run: a replica lost its lease or cannot reach MariaDB.',
        'max(database_cluster_replicas_live)',
        missing,
      ),
      clusterStat(
        'Scraped replicas',
        `Targets of the ${SFDB_JOB} scrape job that Prometheus reached at the last scrape. Fewer than the live replicas: Prometheus misses a replica (discovery or network), so every per-replica panel undercounts.`,
        `count(up{job="${SFDB_JOB}"} == 1) or vector(0)`,
        missing,
      ),
      clusterStat(
        'Live nodes',
        "Registered nodes with a fresh heartbeat: the node count of the load model, which sets each pair's budget.",
        'max(database_cluster_nodes{state="live"})',
      ),
      clusterStat(
        'Stale nodes',
        'Registered nodes whose heartbeat is late. Above zero: a node daemon stopped or lost its way to the tier; its load is missing from every rate below.',
        'max(database_cluster_nodes{state="stale"})',
        thresholds([0, 'green'], [1, 'orange']),
      ),
      clusterStat(
        'Standing instances',
        'Instances not deleted: the instance count of the load model. A jump moves the per-instance part of the budget with it.',
        'max(database_cluster_instances)',
      ),
      singleStat(
        {
          title: 'RPC rate',
          description: 'Calls per second the chosen replicas receive from the chosen callers, all operations. The sum of the "by caller daemon" panel.',
          queries: [{ expr: `sum(${rate(REQUESTS)})`, legend: 'calls/s' }],
          unit: 'reqps',
          width: 4,
          height: 4,
        },
        thresholds([0, 'blue']),
      ),
    ],
  };
}

export function trafficSection(): Section {
  return {
    title: 'RPC traffic',
    panels: [
      timeSeries(
        {
          title: 'RPC rate by caller daemon',
          description:
            'Calls per second by the daemon that made them (its x-sfdb-caller-daemon; "unknown" when not on the allow-list). A step in one caller after a deploy is that daemon\'s change; a growing "unknown" is a client without a caller name.',
          queries: [{ expr: `sum by (caller_daemon) (${rate(REQUESTS)})`, legend: '{{caller_daemon}}' }],
          unit: 'reqps',
          width: 12,
        },
        { stacked: true },
      ),
      timeSeries(
        {
          title: 'RPC rate by operation',
          description: 'Calls per second by RPC. Reads of static objects should stay flat as the cache absorbs them; a rising write or poll rate points at a loop.',
          queries: [{ expr: `sum by (operation) (${rate(REQUESTS)})`, legend: '{{operation}}' }],
          unit: 'reqps',
          width: 12,
        },
        { stacked: true },
      ),
      bars({
        title: 'Top 10 (operation, caller daemon) pairs',
        description:
          'The ten busiest pairs now. These are the pairs the load budget is written in: compare with the "Load budget" row, and look for a pair that is busy but has no budget.',
        queries: [
          { expr: `sort_desc(topk(10, sum by (operation, caller_daemon) (${rate(REQUESTS)})))`, legend: '{{caller_daemon}} · {{operation}}' },
        ],
        unit: 'reqps',
        width: 12,
        height: 10,
      }),
      timeSeries({
        title: 'RPC rate by replica',
        description: 'Calls per second each replica receives. Daemons spread over the replicas they know; one replica far above the rest means callers do not see the others.',
        queries: [{ expr: `sum by (instance) (${rate(REQUESTS)})`, legend: '{{instance}}' }],
        unit: 'reqps',
        width: 6,
        height: 10,
      }),
      timeSeries({
        title: 'In-flight calls by replica',
        description:
          'RPCs being handled now, long-polls included (see the change feed waiters). A climb without a matching rate rise means calls are getting slower: check the pool and MariaDB panels.',
        queries: [{ expr: `sum by (instance) (${onReplicas('database_requests_in_flight')})`, legend: '{{instance}}' }],
        unit: 'short',
        width: 6,
        height: 10,
      }),
    ],
  };
}

const RATIO_COLUMN = 'measured / ceiling';
/** At this share of its ceiling a pair is worth a look; at 1 the alert's condition holds. */
const RATIO_COLOURS = thresholds([0, 'green'], [0.8, 'orange'], [1, 'red']);

/** The pair rate over its ceiling; pairs without a budget have no ceiling and drop out. */
function ratioExpr(): string {
  return `${selector(RECORDED.pairRate, BY_CALLER)} / on (operation, caller_daemon) ${selector(RECORDED.ceiling, BY_CALLER)}`;
}

/**
 * A recorded series per pair, without its name: each rule has one series per pair, so the
 * sum changes no value, but a table's rows only join on labels all three queries share.
 */
const perPair = (recorded: string): string => `sum by (operation, caller_daemon) (${selector(recorded, BY_CALLER)})`;

function budgetTable(): PanelBuilder {
  const text = {
    title: 'Measured vs budgeted rate per pair',
    description:
      'Per (operation, caller daemon): the measured rate (5m, all replicas: the recording rule ignores the replica filter), the rate the committed load budget expects for this cluster size, its ceiling, and measured / ceiling. Sorted by that share: red rows are over the ceiling (SfdbPairOverCeiling). A row with a measured rate and no budget is a pair the budget does not cover.',
    queries: [
      { expr: perPair(RECORDED.pairRate), legend: 'measured' },
      { expr: perPair(RECORDED.expected), legend: 'expected' },
      { expr: perPair(RECORDED.ceiling), legend: 'ceiling' },
      { expr: ratioExpr(), legend: RATIO_COLUMN },
    ],
    unit: 'reqps',
    width: 14,
    height: 12,
  };
  // Each table query comes back as its own frame with a "Value #<refId>" column: merge
  // joins them on the pair's labels, organize names the columns.
  return withBasics(new table.PanelBuilder(), text, 'table')
    .withTransformation({ id: 'merge', options: {} })
    .withTransformation({
      id: 'organize',
      options: {
        excludeByName: { Time: true },
        indexByName: { caller_daemon: 0, operation: 1, 'Value #A': 2, 'Value #B': 3, 'Value #C': 4, 'Value #D': 5 },
        renameByName: { caller_daemon: 'caller daemon', 'Value #A': 'measured', 'Value #B': 'expected', 'Value #C': 'ceiling', 'Value #D': RATIO_COLUMN },
      },
    })
    .sortBy([new common.TableSortByFieldStateBuilder().displayName(RATIO_COLUMN).desc(true)])
    .filterable(true)
    .decimals(3)
    .overrideByName(RATIO_COLUMN, [
      { id: 'unit', value: 'percentunit' },
      { id: 'decimals', value: 0 },
      { id: 'thresholds', value: RATIO_COLOURS.build() },
      { id: 'custom.cellOptions', value: { type: common.TableCellDisplayMode.ColorBackground } },
    ]);
}

export function budgetSection(): Section {
  return {
    title: 'Load budget',
    panels: [
      budgetTable(),
      timeSeries(
        {
          title: 'Measured / ceiling per pair',
          description:
            'Each budgeted pair\'s 5m rate as a share of its ceiling, over time. Above the red line (1) a pair is over budget; a pair that sits just under it after a change has lost its headroom.',
          queries: [{ expr: ratioExpr(), legend: '{{caller_daemon}} · {{operation}}' }],
          unit: 'percentunit',
          width: 10,
          height: 12,
        },
        { thresholds: RATIO_COLOURS },
      ),
      ...costPanels(),
    ],
  };
}

const latencyQuery = (quantile: number): string =>
  `histogram_quantile(${quantile}, sum by (le, operation) (${rate(onReplicas('database_request_duration_seconds_bucket'))}))`;

export function latencySection(): Section {
  return {
    title: 'Latency and errors',
    panels: [
      timeSeries({
        title: 'Latency by operation (p50, p99)',
        description:
          "Handling time of each RPC on the replica, median and 99th percentile. WaitForChanges is a long-poll: its time is the wait, not work. A p99 that rises for every operation at once points at MariaDB or the pool, one operation alone at its query. With tracing on, the points are exemplars: one traced call's time and trace id per bucket and scrape (the p99 query asks for them); a trace link on them is the Prometheus data source's exemplar setting (docs/metrics.md, 'Exemplars').",
        queries: [
          { expr: latencyQuery(0.5), legend: '{{operation}} p50' },
          // One query asks for the exemplars: the p50 query would draw the same points again.
          { expr: latencyQuery(0.99), legend: '{{operation}} p99', exemplar: true },
        ],
        unit: 's',
        width: 12,
      }),
      timeSeries(
        {
          title: 'Errors by code',
          description: `RPCs that ended with a non-OK status, per second, by gRPC code. ${ANSWER_CODES.join(', ')} are the protocol's answers, not faults (the error alert ignores them); UNAVAILABLE and INTERNAL are faults: see the replicas' logs.`,
          queries: [{ expr: `sum by (code) (${rate(onReplicas('database_request_errors_total'))})`, legend: '{{code}}' }],
          unit: 'reqps',
          width: 12,
        },
        { stacked: true },
      ),
      timeSeries(
        {
          title: 'Calls refused by rate limits',
          description:
            'Calls refused before their handler ran because a caller node, or one daemon of a node, was over its rate (SFDB_RATE_LIMIT_*), by limit and caller. Zero on a healthy cluster; a steady line names a runaway daemon, which the client slows down by its pushbacks.',
          queries: [{ expr: `sum by (limit, caller_daemon) (${rate(onReplicas('database_rate_limited_total'))})`, legend: '{{caller_daemon}} ({{limit}})' }],
          unit: 'reqps',
          width: 12,
        },
        { stacked: true },
      ),
      timeSeries({
        title: 'gRPC connections, and those closed as stalled',
        description:
          "Client connections open on each replica, and the connections per second the replica closed itself because Node's HTTP/2 layer had given up on them: a client sent a header field too large to decode. Zero on a healthy cluster; a steady rate is a misbehaving client (its address is in the replica's log).",
        queries: [
          { expr: `sum by (instance) (${onReplicas('database_grpc_connections')})`, legend: '{{instance}} open' },
          { expr: `sum by (instance) (${rate(onReplicas('database_grpc_connections_closed_total'))})`, legend: '{{instance}} closed as stalled /s' },
        ],
        unit: 'short',
        width: 12,
      }),
    ],
  };
}
