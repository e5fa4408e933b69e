// Every metric of the tier, defined in one place. Rules and dashboards use only names
// defined here. One Metrics instance per running tier (tests may run several in one
// process), each with its own registry.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Where the tier's own MariaDB work comes from; a fixed set, so heartbeat, recovery and
 * migration queries are told apart from RPC work. */
export const QUERY_SOURCES = ['rpc', 'changefeed', 'registry', 'maintenance', 'migration'] as const;
export type QuerySource = (typeof QUERY_SOURCES)[number];

export const METRIC_NAMES = {
  requests: 'database_requests_total',
  requestDuration: 'database_request_duration_seconds',
  requestErrors: 'database_request_errors_total',
  inFlight: 'database_requests_in_flight',
  queries: 'database_queries_total',
  querySeconds: 'database_query_seconds_total',
  replicaInfo: 'database_replica_info',
  periodicTasks: 'database_periodic_task_interval_seconds',
  coalescedReads: 'database_coalesced_reads_total',
  feedWaiters: 'database_changefeed_waiters',
  feedWaits: 'database_changefeed_waits_total',
  feedChanges: 'database_changefeed_changes_total',
  feedGapsSkipped: 'database_changefeed_gaps_skipped_total',
  feedPokes: 'database_changefeed_pokes_total',
  feedWindow: 'database_changefeed_window_changes',
  feedHighSeq: 'database_changefeed_high_seq',
} as const;

/** How a WaitForChanges ended. */
export const WAIT_OUTCOMES = ['changes', 'timeout', 'resync', 'drain', 'cancelled', 'refused'] as const;
export type WaitOutcome = (typeof WAIT_OUTCOMES)[number];

export class Metrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'operation' | 'caller_daemon'>;
  private readonly duration: Histogram<'operation'>;
  private readonly errors: Counter<'operation' | 'code'>;
  readonly inFlight: Gauge;
  private readonly queries: Counter<'source'>;
  private readonly periodicTasks: Gauge<'task' | 'source' | 'duty'>;
  private readonly querySeconds: Counter<'source'>;
  readonly coalescedReads: Counter;
  readonly feedWaiters: Gauge;
  private readonly feedWaits: Counter<'outcome'>;
  /** Change rows that reached this replica's window, by how: its own commit, a tail read. */
  readonly feedChanges: Counter<'via'>;
  readonly feedGapsSkipped: Counter;
  /** Pokes: sent to a peer, or received from one; by outcome. */
  readonly feedPokes: Counter<'direction' | 'outcome'>;
  readonly feedWindow: Gauge;
  readonly feedHighSeq: Gauge;
  // prom-client hashes label values on every labels() call; the hot path keeps children.
  private readonly requestChildren = new Map<string, Counter.Internal>();
  private readonly durationChildren = new Map<string, Histogram.Internal<'operation'>>();
  private readonly queryChildren = new Map<QuerySource, { count: Counter.Internal; seconds: Counter.Internal }>();

  constructor(replicaId: string) {
    const registers = [this.registry];
    this.requests = new Counter({
      name: METRIC_NAMES.requests,
      help: 'RPCs received, by operation and calling daemon (unknown when not on the allow-list).',
      labelNames: ['operation', 'caller_daemon'],
      registers,
    });
    this.duration = new Histogram({
      name: METRIC_NAMES.requestDuration,
      help: 'RPC handling time in seconds, by operation.',
      labelNames: ['operation'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    this.errors = new Counter({
      name: METRIC_NAMES.requestErrors,
      help: 'RPCs that ended with a non-OK status, by operation and status code name.',
      labelNames: ['operation', 'code'],
      registers,
    });
    this.inFlight = new Gauge({
      name: METRIC_NAMES.inFlight,
      help: 'RPCs being handled now.',
      registers,
    });
    this.queries = new Counter({
      name: METRIC_NAMES.queries,
      help: "The tier's own MariaDB statements, by source.",
      labelNames: ['source'],
      registers,
    });
    this.querySeconds = new Counter({
      name: METRIC_NAMES.querySeconds,
      help: "Seconds spent in the tier's own MariaDB statements, by source.",
      labelNames: ['source'],
      registers,
    });
    new Gauge({
      name: METRIC_NAMES.replicaInfo,
      help: 'Always 1; labels name this replica.',
      labelNames: ['replica_id'],
      registers,
    }).set({ replica_id: replicaId }, 1);
    this.periodicTasks = new Gauge({
      name: METRIC_NAMES.periodicTasks,
      help: 'Every periodic database task this replica runs on its own: its interval, source and duty.',
      labelNames: ['task', 'source', 'duty'],
      registers,
    });
    this.coalescedReads = new Counter({
      name: METRIC_NAMES.coalescedReads,
      help: 'Reads that shared an identical read in flight instead of running their own statement.',
      registers,
    });
    this.feedWaiters = new Gauge({ name: METRIC_NAMES.feedWaiters, help: 'WaitForChanges long-polls held now.', registers });
    this.feedWaits = new Counter({
      name: METRIC_NAMES.feedWaits,
      help: 'WaitForChanges answered, by outcome: changes, timeout, resync, drain, cancelled, refused (waiter cap).',
      labelNames: ['outcome'],
      registers,
    });
    this.feedChanges = new Counter({
      name: METRIC_NAMES.feedChanges,
      help: 'Change rows that reached this replica, by how: commit (its own), tail (read from MariaDB).',
      labelNames: ['via'],
      registers,
    });
    this.feedGapsSkipped = new Counter({
      name: METRIC_NAMES.feedGapsSkipped,
      help: 'Sequence gaps given up after the gap timeout (a transaction rolled back, or held open too long).',
      registers,
    });
    this.feedPokes = new Counter({
      name: METRIC_NAMES.feedPokes,
      help: 'Peer pokes after commits, by direction (sent, received) and outcome (ok, error, refused).',
      labelNames: ['direction', 'outcome'],
      registers,
    });
    this.feedWindow = new Gauge({ name: METRIC_NAMES.feedWindow, help: 'Change rows held in this replica\'s window.', registers });
    this.feedHighSeq = new Gauge({ name: METRIC_NAMES.feedHighSeq, help: 'The highest change sequence this replica has seen.', registers });
    for (const outcome of WAIT_OUTCOMES) this.feedWaits.labels(outcome);
    for (const source of QUERY_SOURCES) {
      this.queryChildren.set(source, {
        count: this.queries.labels(source),
        seconds: this.querySeconds.labels(source),
      });
    }
    collectDefaultMetrics({ register: this.registry });
  }

  /**
   * Declares a periodic database task, so load tools can compare declared against
   * measured (database_queries_total{source}).
   */
  declarePeriodicTask(task: string, source: QuerySource, intervalMs: number, duty: string): void {
    this.periodicTasks.set({ task, source, duty }, intervalMs / 1000);
  }

  countWait(outcome: WaitOutcome): void {
    this.feedWaits.labels(outcome).inc();
  }

  countRequest(operation: string, callerDaemon: string): void {
    const key = `${operation}\u0000${callerDaemon}`;
    let child = this.requestChildren.get(key);
    if (!child) {
      child = this.requests.labels(operation, callerDaemon);
      this.requestChildren.set(key, child);
    }
    child.inc();
  }

  observeRequest(operation: string, seconds: number, code: string | undefined): void {
    let child = this.durationChildren.get(operation);
    if (!child) {
      child = this.duration.labels(operation);
      this.durationChildren.set(operation, child);
    }
    child.observe(seconds);
    if (code !== undefined) this.errors.labels(operation, code).inc();
  }

  observeQuery(source: QuerySource, seconds: number): void {
    const child = this.queryChildren.get(source);
    if (!child) return;
    child.count.inc();
    child.seconds.inc(seconds);
  }
}
