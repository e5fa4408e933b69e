// The load row's time panels: what each caller costs MariaDB, not only how often it calls.
// The tier charges every statement's time (sent → result) to the (operation, caller_daemon)
// of the call that caused it — a group-commit batch or a shared read split equally among
// the calls it answered — and its own work (change feed, registry, maintenance, admin,
// migration) to caller sf-database, by source; and each call's wait for a pool connection
// likewise. These panels read those two counters beside the call counter.
import { BY_CALLER, bars, onReplicas, rate, timeSeries } from './panels.js';
import type { PanelBuilder } from './panels.js';

const SECONDS = onReplicas('database_request_query_seconds_total', BY_CALLER);
const POOL_WAIT = onReplicas('database_request_pool_wait_seconds_total', BY_CALLER);
const REQUESTS = onReplicas('database_requests_total', BY_CALLER);

const summed = (by: string, series: string): string => `sum by (${by}) (${rate(series)})`;

/** MariaDB seconds/s by caller, the top pairs by them, seconds per call by operation, pool wait by caller. */
export function costPanels(): PanelBuilder[] {
  return [
    timeSeries(
      {
        title: 'MariaDB seconds per second by caller daemon',
        description:
          'MariaDB time the calls of each daemon caused, per second (statement sent to result; a group-commit batch or shared read split equally among the calls it answered): the connections each caller keeps busy. sf-database is the tier\'s own work (change feed, registry, maintenance). A caller whose seconds rise while its calls stay flat has slower statements: see the top pairs beside it, then that pair\'s slow-statement log lines.',
        queries: [{ expr: summed('caller_daemon', SECONDS), legend: '{{caller_daemon}}' }],
        unit: 'short',
        width: 12,
      },
      { stacked: true },
    ).axisLabel('busy connections (s/s)'),
    bars({
      title: 'Top 10 (operation, caller daemon) pairs by MariaDB seconds',
      description:
        'The ten pairs that cost MariaDB the most time now, in seconds per second: where to look first when the database is busy. Compare with the top pairs by calls (RPC traffic row): a pair high here and low there has expensive statements, not many calls. `sf-ctl load` and the admin Load page list the same pairs with their share.',
      queries: [{ expr: `sort_desc(topk(10, ${summed('operation, caller_daemon', SECONDS)}))`, legend: '{{caller_daemon}} · {{operation}}' }],
      unit: 'short',
      width: 12,
      height: 10,
    }),
    timeSeries({
      title: 'MariaDB seconds per call by operation',
      description:
        'MariaDB time per call of each RPC (its statements\' seconds over its calls), all callers together. A step up after a deploy or as the data grows is a statement that got slower (a lost index, a scan that grows, a lock); operations that run no statement (long-polls, reads answered without one) have no line.',
      queries: [{ expr: `${summed('operation', SECONDS)} / ${summed('operation', REQUESTS)}`, legend: '{{operation}}' }],
      unit: 's',
      width: 12,
      height: 10,
    }),
    timeSeries(
      {
        title: 'Pool wait per second by caller daemon',
        description:
          'Seconds per second the statements of each caller\'s calls waited for a free pool connection. Should be near 0; a rise for every caller is a saturated pool (see the pool panels), for one caller a burst of its own calls.',
        queries: [{ expr: summed('caller_daemon', POOL_WAIT), legend: '{{caller_daemon}}' }],
        unit: 'short',
        width: 12,
      },
      { stacked: true },
    ).axisLabel('waiting statements (s/s)'),
  ];
}
