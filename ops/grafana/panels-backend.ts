// The work behind the RPCs: the tier's MariaDB statements and connection pool, the change
// feed from both ends (the replicas' long-polls, the daemons' change waiters), the daemons'
// object cache and their own loops. Client and daemon metrics come from the daemon
// processes (scrape job sf-daemon), so the replica filter does not apply to them.
import { POOL_BUSY_SHARE, WAITER_SHARE } from '../prometheus/rules.js';
import { BY_DAEMON, limitLine, onReplicas, rate, selector, thresholds, timeSeries } from './panels.js';
import type { Section } from './panels.js';

/** `sum by (labels) (rate(series))`, or `sum(rate(series))` without labels. */
function summedRate(series: string, ...labels: string[]): string {
  return labels.length === 0 ? `sum(${rate(series)})` : `sum by (${labels.join(', ')}) (${rate(series)})`;
}

const perReplica = (metric: string, ...matchers: string[]): string => `sum by (instance) (${onReplicas(metric, ...matchers)})`;

export function mariadbSection(): Section {
  return {
    title: 'MariaDB and connection pool',
    panels: [
      timeSeries({
        title: 'MariaDB statements by source',
        description:
          "Statements per second the tier runs, by why: rpc (handlers), changefeed (tailing the change log), registry (heartbeats, cluster size), maintenance, migration, admin (the admin view, only while a page is open). Only rpc should follow the RPC rate; a rise elsewhere is the tier's own work. Coalesced reads shared a statement already running instead of running their own.",
        queries: [
          { expr: summedRate(onReplicas('database_queries_total'), 'source'), legend: '{{source}}' },
          { expr: summedRate(onReplicas('database_coalesced_reads_total')), legend: 'reads coalesced (no statement)' },
        ],
        unit: 'ops',
        width: 12,
      }),
      timeSeries(
        {
          title: 'MariaDB time by source',
          description:
            'Seconds spent in statements per second, by source: the average number of connections kept busy. Near the pool size it is the pool, not MariaDB, that limits; a source whose time grows faster than its statements has slower queries.',
          queries: [{ expr: summedRate(onReplicas('database_query_seconds_total'), 'source'), legend: '{{source}}' }],
          unit: 'short',
          width: 12,
        },
        { stacked: true },
      ).axisLabel('busy connections (s/s)'),
      timeSeries(
        {
          title: 'Pool: busy connections / limit',
          description: `MariaDB connections running a statement or transaction, as a share of each replica's limit (SFDB_POOL_SIZE). The dashed line is the SfdbPoolSaturated alert (${POOL_BUSY_SHARE * 100} %): above it for minutes, look for long transactions or raise the pool.`,
          queries: [
            {
              expr: `${perReplica('database_pool_connections', 'state="busy"')} / ${perReplica('database_pool_connection_limit')}`,
              legend: '{{instance}}',
            },
          ],
          unit: 'percentunit',
          width: 12,
        },
        { thresholds: thresholds([0, 'green'], [POOL_BUSY_SHARE, 'red']) },
      ).max(1),
      timeSeries({
        title: 'Pool: statements waiting for a connection',
        description: 'Statements queued for a free connection on each replica. Should be 0; any steady queue adds its wait to every RPC of that replica (see latency).',
        queries: [{ expr: perReplica('database_pool_queued'), legend: '{{instance}}' }],
        unit: 'short',
        width: 12,
      }),
    ],
  };
}

const WAITER_LIMIT = 'limit (per replica)';

/** The replicas' side: long-polls held and answered, and how changes reach their windows. */
function feedServerPanels(): Section['panels'] {
  return [
    limitLine(
      timeSeries({
        title: 'Long-poll waiters',
        description: `WaitForChanges long-polls held now, per replica and in all, against the per-replica cap (SFDB_CHANGEFEED_MAX_WAITERS, dashed). At the cap a replica refuses new ones and daemons fall back to polling; the SfdbWaiterCapNear alert fires at ${WAITER_SHARE * 100} % of it.`,
        queries: [
          { expr: perReplica('database_changefeed_waiters'), legend: '{{instance}}' },
          { expr: `sum(${onReplicas('database_changefeed_waiters')})`, legend: 'all replicas' },
          { expr: `max(${onReplicas('database_changefeed_waiter_limit')})`, legend: WAITER_LIMIT },
        ],
        unit: 'short',
        width: 8,
      }),
      WAITER_LIMIT,
    ),
    timeSeries(
      {
        title: 'Long-polls answered by outcome',
        description:
          'WaitForChanges answers per second: changes (a wake-up), timeout (nothing happened: the normal quiet answer), resync (the caller was behind the window), drain (replica stopping), cancelled, refused (waiter cap). Refused or resync above a trickle means daemons are polling instead.',
        queries: [{ expr: summedRate(onReplicas('database_changefeed_waits_total'), 'outcome'), legend: '{{outcome}}' }],
        unit: 'reqps',
        width: 8,
      },
      { stacked: true },
    ),
    timeSeries({
      title: 'Change rows, gaps and pokes',
      description:
        "Change rows reaching the replicas' windows per second, by how (commit: written here; tail: read from MariaDB), sequence gaps closed (tombstones: seqs no change will carry) and given up, and peer pokes after commits by direction and outcome. Poke errors make peers wait for their tail read; skipped gaps mean closing could not reach the database.",
      queries: [
        { expr: summedRate(onReplicas('database_changefeed_changes_total'), 'via'), legend: 'changes via {{via}}' },
        { expr: summedRate(onReplicas('database_changefeed_gaps_closed_total')), legend: 'gaps closed' },
        { expr: summedRate(onReplicas('database_changefeed_gaps_skipped_total')), legend: 'gaps skipped' },
        { expr: summedRate(onReplicas('database_changefeed_pokes_total'), 'direction', 'outcome'), legend: 'pokes {{direction}} {{outcome}}' },
      ],
      unit: 'cps',
      width: 8,
    }),
  ];
}

/** The daemons' side: what their change waiters get and when they give up on the feed. */
function feedClientPanels(): Section['panels'] {
  return [
    timeSeries({
      title: 'Daemon change waiters: answers',
      description:
        'Across all daemon processes, per second: long-polls answered, wake-ups (answers that carried changes), fallbacks to polling and resyncs. Fallbacks above zero mean the feed failed a waiter; expect the RPC rate of polling callers to rise with them.',
      queries: [
        { expr: summedRate('database_client_feed_waits_total'), legend: 'answered' },
        { expr: summedRate('database_client_feed_wakeups_total'), legend: 'wake-ups' },
        { expr: summedRate('database_client_feed_fallbacks_total'), legend: 'fallbacks' },
        { expr: summedRate('database_client_feed_resyncs_total'), legend: 'resyncs' },
      ],
      unit: 'reqps',
      width: 8,
    }),
    timeSeries(
      {
        title: 'Daemon change waiters by mode',
        description: 'Change waiters in all daemon processes by mode: starting (no answer yet), feed, fallback (polling instead). All should be on feed; a waiter in fallback polls, at the higher rates of the anchor-mode budget.',
        queries: [{ expr: `sum by (mode) (${selector('database_client_feed_mode')})`, legend: '{{mode}}' }],
        unit: 'short',
        width: 8,
      },
      { stacked: true },
    ),
    timeSeries(
      {
        title: 'Daemon feed errors by code',
        description: 'WaitForChanges calls that failed in the daemons, per second, by gRPC code (their own cancellations excluded). UNAVAILABLE follows a replica going away; RESOURCE_EXHAUSTED is a replica at its waiter cap.',
        queries: [{ expr: summedRate('database_client_feed_errors_total', 'code'), legend: '{{code}}' }],
        unit: 'reqps',
        width: 8,
      },
      { stacked: true },
    ),
  ];
}

export function feedSection(): Section {
  return { title: 'Change feed (long-poll)', panels: [...feedServerPanels(), ...feedClientPanels()] };
}

const cacheRate = (metric: string): string => summedRate(metric, 'object_type');

export function cacheSection(): Section {
  const hits = cacheRate('database_client_cache_hits_total');
  return {
    title: 'Daemon object cache',
    panels: [
      timeSeries({
        title: 'Cache hit ratio by object type',
        description:
          "Share of the daemons' static-object reads the cache answered, by object type. Low for a type whose objects rarely change means its TTL is too short or its entries are evicted for room (see evictions).",
        queries: [{ expr: `${hits} / (${hits} + ${cacheRate('database_client_cache_misses_total')})`, legend: '{{object_type}}' }],
        unit: 'percentunit',
        width: 6,
      }).max(1),
      timeSeries(
        {
          title: 'Cache entries by tier',
          description: 'Live entries in all daemon caches by TTL tier (immutable, upgradeable). A steady climb is more objects, not a leak: entries past their TTL are dropped before each scrape.',
          queries: [{ expr: `sum by (tier) (${selector('database_client_cache_entries')})`, legend: '{{tier}}' }],
          unit: 'short',
          width: 6,
        },
        { stacked: true },
      ),
      timeSeries(
        {
          title: 'Cache evictions by reason',
          description:
            'Entries dropped per second: expired (TTL), capacity (room needed: the cache is too small), write (this process changed the object), invalidation (the change feed reported another writer). Capacity above a trickle lowers the hit ratio.',
          queries: [{ expr: summedRate('database_client_cache_evictions_total', 'reason'), legend: '{{reason}}' }],
          unit: 'cps',
          width: 6,
        },
        { stacked: true },
      ),
      timeSeries({
        title: 'Cache reads coalesced by object type',
        description: 'Reads per second that joined a load of the same object already in flight instead of making their own RPC: the calls a burst of identical misses did not cost.',
        queries: [{ expr: cacheRate('database_client_cache_coalesced_total'), legend: '{{object_type}}' }],
        unit: 'cps',
        width: 6,
      }),
    ],
  };
}

const daemonRate = (metric: string, ...labels: string[]): string => summedRate(selector(metric, BY_DAEMON), ...labels);

export function daemonSection(): Section {
  return {
    title: 'Daemons',
    panels: [
      timeSeries(
        {
          title: 'Daemon loop errors',
          description: 'Errors a daemon loop counted and survived, per second, by daemon and error name. A loop keeps going after one; a steady rate means it is retrying something that keeps failing (its log says what).',
          queries: [{ expr: daemonRate('database_daemon_loop_errors_total', 'daemon', 'error'), legend: '{{daemon}} {{error}}' }],
          unit: 'cps',
          width: 12,
        },
        { stacked: true },
      ),
      timeSeries(
        {
          title: 'Queue jobs by outcome',
          description: 'Work items the queues daemons handled per second, by queue and outcome: succeeded, released (failed, to be retried), failed (out of attempts), fenced (the claim moved on). Released or failed growing on one queue is that job type breaking; fenced means jobs outlive their lease.',
          queries: [{ expr: daemonRate('database_daemon_jobs_total', 'queue', 'outcome'), legend: '{{queue}} {{outcome}}' }],
          unit: 'cps',
          width: 12,
        },
        { stacked: true },
      ),
      timeSeries({
        title: 'Daemon loop steps',
        description: "Steps per second of each daemon's main loop. A loop that stops stepping is stuck; one that steps much faster than its interval is spinning, and its RPC rate rises with it.",
        queries: [{ expr: daemonRate('database_daemon_loop_steps_total', 'daemon'), legend: '{{daemon}}' }],
        unit: 'cps',
        width: 12,
      }),
      timeSeries(
        {
          title: 'Daemon-state polls by outcome',
          description: 'Reads of the operator stop flag per second, by daemon and outcome (ok, unavailable, error). Anything but ok means a daemon cannot learn it was asked to stop.',
          queries: [{ expr: daemonRate('database_daemon_state_polls_total', 'daemon', 'outcome'), legend: '{{daemon}} {{outcome}}' }],
          unit: 'reqps',
          width: 12,
        },
        { stacked: true },
      ),
      timeSeries({
        title: 'Daemons held stopped by an operator',
        description:
          'Daemon processes that started while an operator stop held them (sf-ctl stop-daemon), by daemon: they stay up and idle, doing no work, until sf-ctl start-daemon. 0 when none is held. Each one is a deliberate stop; one nobody remembers is work not being done on that node (sf-ctl status shows which: STOPPED (held)).',
        queries: [{ expr: `sum by (daemon) (${selector('database_daemon_operator_hold', BY_DAEMON)})`, legend: '{{daemon}}' }],
        unit: 'short',
        width: 12,
      }),
    ],
  };
}
