// Every metric of the tier, declared in one catalogue (SERVER_METRICS) and made from it.
// Rules and dashboards use only names declared here (test/unit/metric-catalog.test.ts).
// One Metrics instance per running tier (tests may run several in one process), each with
// its own registry.
import { Registry, collectDefaultMetrics } from 'prom-client';
import type { Counter, Gauge, Histogram } from 'prom-client';
import { makeCounter, makeGauge, makeHistogram, metricNames } from '@sfdb/proto/runtime/metrics';
import type { MetricSpec } from '@sfdb/proto/runtime/metrics';
import { TalliedCounter } from '@sfdb/proto/runtime/tally';
import type { Tally } from '@sfdb/proto/runtime/tally';

/** Where the tier's own MariaDB work comes from; a fixed set, so heartbeat, recovery and
 * migration queries are told apart from RPC work (admin: the admin view's reads, only
 * while one of its pages is open). */
export const QUERY_SOURCES = ['rpc', 'changefeed', 'registry', 'maintenance', 'migration', 'admin'] as const;
export type QuerySource = (typeof QUERY_SOURCES)[number];

const counter = <L extends string>(name: string, help: string, labels: readonly L[] = []): MetricSpec<L> => ({ name, kind: 'counter', help, labels });
const gauge = <L extends string>(name: string, help: string, labels: readonly L[] = []): MetricSpec<L> => ({ name, kind: 'gauge', help, labels });

export const SERVER_METRICS = {
  requests: counter('database_requests_total', 'RPCs received, by operation and calling daemon (server/caller-names.ts: its name, other past the cap, unknown for none).', [
    'operation',
    'caller_daemon',
  ]),
  requestDuration: {
    name: 'database_request_duration_seconds',
    kind: 'histogram',
    help: 'RPC handling time in seconds, by operation.',
    labels: ['operation'],
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    exemplars: true, // a traced call's trace id (observeRequest)
  } satisfies MetricSpec<'operation'>,
  requestErrors: counter('database_request_errors_total', 'RPCs that ended with a non-OK status, by operation and status code name.', ['operation', 'code']),
  inFlight: gauge('database_requests_in_flight', 'RPCs being handled now.'),
  grpcConnections: gauge('database_grpc_connections', 'HTTP/2 connections open on the gRPC port now.'),
  grpcConnectionsClosed: counter(
    'database_grpc_connections_closed_total',
    "Client connections this replica closed itself, by reason: stalled (Node's HTTP/2 layer gave up on the connection, e.g. a header field over 64 KiB, and it answered no ping).",
    ['reason'],
  ),
  grpcRefused: counter(
    'database_grpc_refused_total',
    'Calls (or their answers) refused RESOURCE_EXHAUSTED for what their connection holds, by reason: connection_backlog (its unread answers are at SFDB_GRPC_MAX_CONNECTION_BACKLOG_BYTES), replica_backlog (it holds unread answers and all connections together are at SFDB_GRPC_MAX_REPLICA_BACKLOG_BYTES).',
    ['reason'],
  ),
  grpcAnswerBacklog: gauge('database_grpc_answer_backlog_bytes', 'Answer bytes written for clients and not yet sent (their flow-control windows), all connections together.'),
  queries: counter('database_queries_total', "The tier's own MariaDB statements, by source.", ['source']),
  querySeconds: counter('database_query_seconds_total', "Seconds spent in the tier's own MariaDB statements, by source.", ['source']),
  requestQuerySeconds: counter(
    'database_request_query_seconds_total',
    "MariaDB seconds (a statement sent to its result) caused by calls, by operation and calling daemon; the tier's own statements under caller_daemon sf-database and operation = their query source. A group-commit batch's or a shared read's seconds are split equally among the calls it answered: the sum over all pairs is database_query_seconds_total's.",
    ['operation', 'caller_daemon'],
  ),
  requestPoolWait: counter(
    'database_request_pool_wait_seconds_total',
    "Seconds calls' statements (and transactions) waited for a MariaDB pool connection, by operation and calling daemon (split as database_request_query_seconds_total is).",
    ['operation', 'caller_daemon'],
  ),
  slowStatements: counter(
    'database_slow_statements_total',
    'Statements that took longer than SFDB_SLOW_STATEMENT_MS, by operation and calling daemon (a shared statement under its first call); each is logged once.',
    ['operation', 'caller_daemon'],
  ),
  replicaInfo: gauge('database_replica_info', 'Always 1; labels name this replica.', ['replica_id']),
  periodicTasks: gauge(
    'database_periodic_task_interval_seconds',
    'Every periodic database task this replica runs on its own: its interval, source and duty.',
    ['task', 'source', 'duty'],
  ),
  callerDaemonsAdmitted: gauge('database_caller_daemons_admitted', 'caller_daemon names this replica admitted beyond SFDB_CALLER_DAEMONS (at most SFDB_CALLER_DAEMONS_MAX).'),
  rateLimited: counter('database_rate_limited_total', 'Calls refused by a per-caller rate limit before their handler ran, by limit (node, daemon) and calling daemon.', [
    'limit',
    'caller_daemon',
  ]),
  permissionDenied: counter(
    'database_permission_denied_total',
    "Calls refused because the client certificate does not allow them (mTLS), by reason: no_identity, node_mismatch, replica_only, operator_only.",
    ['reason'],
  ),
  statementsStopped: counter(
    'database_statements_stopped_total',
    "Statements stopped (KILL QUERY) because their call's deadline passed while they ran.",
  ),
  statementsAbandoned: counter(
    'database_statements_abandoned_total',
    "Statements given up with their connection (a TCP reset) because they still ran 1 s after their call's deadline: MariaDB did not answer the KILL (a cut network, a stopped server); whether they ran is unknown.",
  ),
  coalescedReads: counter('database_coalesced_reads_total', 'Reads that shared an identical read in flight instead of running their own statement.'),
  poolConnections: gauge('database_pool_connections', 'MariaDB connections of this replica, by state: busy (running a statement or transaction), idle.', ['state']),
  poolLimit: gauge('database_pool_connection_limit', 'The most MariaDB connections this replica opens (SFDB_POOL_SIZE).'),
  poolQueued: gauge('database_pool_queued', 'Statements waiting for a free MariaDB connection.'),
  clusterReplicas: gauge('database_cluster_replicas_live', 'Live tier replicas in the registry, as this replica last read them.'),
  clusterNodes: gauge('database_cluster_nodes', "Registered nodes by heartbeat: live or stale, as this replica last read them (the load model's node count).", [
    'state',
  ]),
  clusterInstances: gauge('database_cluster_instances', "Standing instances (not DELETED), as this replica last read them (the load model's instance count)."),
  feedWaiters: gauge('database_changefeed_waiters', 'WaitForChanges long-polls held now.'),
  feedWaiterLimit: gauge('database_changefeed_waiter_limit', 'The most long-polls this replica holds before refusing (SFDB_CHANGEFEED_MAX_WAITERS).'),
  feedWaits: counter(
    'database_changefeed_waits_total',
    'WaitForChanges answered, by outcome: changes, timeout, resync, drain, cancelled, refused (waiter cap).',
    ['outcome'],
  ),
  feedChanges: counter('database_changefeed_changes_total', 'Change rows that reached this replica, by how: commit (its own), tail (read from MariaDB).', [
    'via',
  ]),
  feedGapsSkipped: counter(
    'database_changefeed_gaps_skipped_total',
    'Sequence gaps given up: not closed and not shown held by an open transaction within the gap timeout, or beyond the window.',
  ),
  feedGapsClosed: counter(
    'database_changefeed_gaps_closed_total',
    'Sequence gaps this replica closed with a tombstone row: seqs no change will carry (a rolled-back transaction; on Galera, another node\'s unused seqs).',
  ),
  feedGapsHeld: gauge('database_changefeed_gaps_held', 'Open sequence gaps a transaction still open on this replica\'s MariaDB node was shown to hold.'),
  feedPokes: counter('database_changefeed_pokes_total', 'Peer pokes after commits, by direction (sent, received) and outcome (ok, error, refused).', [
    'direction',
    'outcome',
  ]),
  peersKnown: gauge(
    'database_peers_known',
    'Live registered peers this replica knows of (poked after its commits, probed): read from the registry at start, when a peer announces itself or an unknown one pokes, and every SFDB_REPLICA_LIVE_MS.',
  ),
  peerAnnouncements: counter(
    'database_peer_announcements_total',
    'Announcements of a replica to its live peers once registered (an empty PokeChanges), by direction (sent, received) and outcome: sent ok, error (an attempt failed), given_up (no more attempts); received ok, refused (not a live replica), error (the registry could not be read).',
    ['direction', 'outcome'],
  ),
  peerProbes: counter('database_peer_probes_total', 'Health checks this replica sent its peers (every SFDB_PEER_PROBE_MS), by outcome: answered, no_answer.', ['outcome']),
  peersUnresponsive: gauge(
    'database_peers_unresponsive',
    'Live registered peers whose last answer to a probe is older than SFDB_PEER_UNRESPONSIVE_MS: their processes are told to move (WatchReplicas).',
  ),
  replicaWatchers: gauge('database_replica_watchers', 'WatchReplicas calls held now: one per client process, on a replica other than its long-poll\'s.'),
  feedInterestKept: counter(
    'database_changefeed_interest_kept_total',
    "Held long-polls a change on one of their topics did not wake: their interest summary (what the caller's cache holds) does not have the changed id, or the change is a daemon's report on a topic they keep quiet.",
  ),
  groupCommitCalls: {
    name: 'database_group_commit_batch_calls',
    kind: 'histogram',
    help: 'Calls answered by one group-commit batch, by kind (heartbeat, daemon_state, node_attributes, object_attributes); a batch of one runs as a single call would.',
    labels: ['kind'],
    buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512],
  } satisfies MetricSpec<'kind'>,
  groupCommitWait: {
    name: 'database_group_commit_wait_seconds',
    kind: 'histogram',
    help: "How long a group-commit batch's first call waited before the batch's statement started, by kind (the window, or less when the batch filled).",
    labels: ['kind'],
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2],
  } satisfies MetricSpec<'kind'>,
  groupCommitAlone: counter(
    'database_group_commit_alone_total',
    "Calls a group-commit batch could not answer and ran alone, by kind: a missing target or an object near its bound (the exact path answers), or a batch statement that failed for one call's sake.",
    ['kind'],
  ),
  leaseExpiryLooks: counter(
    'database_lease_expiry_looks_total',
    'Reads of the held leases by this replica, to announce the ones that ended unrenewed (task lease_expiry), by outcome (ok, error).',
    ['outcome'],
  ),
  leaseEndsAnnounced: counter(
    'database_lease_ends_announced_total',
    'Leases this replica found ended without a renewal or release, and announced on lease/<name> so their standbys ask.',
  ),
  retiredCountersFolded: counter(
    'database_retired_counters_folded_total',
    "Retired counters (a deleted id's last version or claim epoch) folded into the counter floor by PruneChanges, once older than the retired-counter retention.",
  ),
  feedWindow: gauge('database_changefeed_window_changes', "Change rows held in this replica's window."),
  feedHighSeq: gauge('database_changefeed_high_seq', 'The highest change sequence this replica has seen.'),
} as const;

/** `{ key: name }` of SERVER_METRICS. */
export const METRIC_NAMES = metricNames(SERVER_METRICS);

/** What the pool gauges ask of the pool when scraped. */
export interface PoolOccupancy {
  busy: number;
  idle: number;
  queued: number;
}

/** The live cluster size this replica last read (the load model's inputs). */
export interface ClusterSize {
  replicasLive: number;
  nodesLive: number;
  nodesStale: number;
  instances: number;
}

/** Where a statement owner's seconds go (server/db/owner.ts): a (operation, caller_daemon) pair's counters. */
export interface CostSink {
  /** A statement's seconds in MariaDB and its wait for a pool connection. */
  charge(seconds: number, waitSeconds: number): void;
  /** A statement over the slow-statement threshold. */
  countSlow(): void;
}

/** W3C trace-context ids, trace/span: 32 and 16 lowercase hex digits (63 exemplar characters; prom-client refuses over 128). */
const TRACE_IDS = /^[0-9a-f]{32}\/[0-9a-f]{16}$/;

/** How a WaitForChanges ended. */
export const WAIT_OUTCOMES = ['changes', 'timeout', 'resync', 'drain', 'cancelled', 'refused'] as const;
export type WaitOutcome = (typeof WAIT_OUTCOMES)[number];

export class Metrics {
  readonly registry = new Registry();
  private readonly m = SERVER_METRICS;
  // The counters every call adds to are tallied (proto/runtime/tally.ts): plain numbers
  // until a scrape reads them.
  private readonly requests = new TalliedCounter(this.m.requests, this.registry);
  // Its exemplars' labels are not its own (prom-client's types say they are).
  private readonly duration: Histogram<string> = makeHistogram(this.m.requestDuration, this.registry);
  private readonly errors = makeCounter(this.m.requestErrors, this.registry);
  private callsInFlight = 0;
  /** RPCs being handled now: callStarted() and callEnded() move it, a read (scrape) sets it. */
  readonly inFlight: Gauge = makeGauge(this.m.inFlight, this.registry, () => this.inFlight.set(this.callsInFlight));
  private connections: (() => number) | undefined;
  private readonly grpcConnections = makeGauge(this.m.grpcConnections, this.registry, () => this.sampleConnections());
  private readonly grpcConnectionsClosed = makeCounter(this.m.grpcConnectionsClosed, this.registry);
  private readonly grpcRefused = makeCounter(this.m.grpcRefused, this.registry);
  private answerBacklog: (() => number) | undefined;
  private readonly grpcAnswerBacklog = makeGauge(this.m.grpcAnswerBacklog, this.registry, () => {
    if (this.answerBacklog) this.grpcAnswerBacklog.set(this.answerBacklog());
  });
  private readonly queries = new TalliedCounter(this.m.queries, this.registry);
  private readonly querySeconds = new TalliedCounter(this.m.querySeconds, this.registry);
  private readonly requestQuerySeconds = new TalliedCounter(this.m.requestQuerySeconds, this.registry);
  private readonly requestPoolWait = new TalliedCounter(this.m.requestPoolWait, this.registry);
  private readonly slowStatements = makeCounter(this.m.slowStatements, this.registry);
  private readonly periodicTasks = makeGauge(this.m.periodicTasks, this.registry);
  readonly coalescedReads = makeCounter(this.m.coalescedReads, this.registry);
  readonly statementsStopped = makeCounter(this.m.statementsStopped, this.registry);
  readonly statementsAbandoned = makeCounter(this.m.statementsAbandoned, this.registry);
  readonly callerDaemonsAdmitted = makeGauge(this.m.callerDaemonsAdmitted, this.registry);
  private readonly rateLimited = makeCounter(this.m.rateLimited, this.registry);
  private readonly permissionDenied = makeCounter(this.m.permissionDenied, this.registry);
  private pool: (() => PoolOccupancy) | undefined;
  private readonly poolConnections = makeGauge(this.m.poolConnections, this.registry, () => this.samplePool());
  private readonly poolQueued = makeGauge(this.m.poolQueued, this.registry);
  readonly poolLimit = makeGauge(this.m.poolLimit, this.registry);
  private clusterScrape: (() => Promise<void>) | undefined;
  // prom-client collects the metrics of a scrape concurrently: each cluster gauge waits
  // for the same reading (the sampler runs one at a time).
  private readonly clusterReplicas = makeGauge(this.m.clusterReplicas, this.registry, () => this.clusterScrape?.());
  private readonly clusterNodes = makeGauge(this.m.clusterNodes, this.registry, () => this.clusterScrape?.());
  private readonly clusterInstances = makeGauge(this.m.clusterInstances, this.registry, () => this.clusterScrape?.());
  readonly feedWaiters = makeGauge(this.m.feedWaiters, this.registry);
  readonly feedWaiterLimit = makeGauge(this.m.feedWaiterLimit, this.registry);
  private readonly feedWaits = makeCounter(this.m.feedWaits, this.registry);
  /** Change rows that reached this replica's window, by how: its own commit, a tail read. */
  readonly feedChanges = makeCounter(this.m.feedChanges, this.registry);
  readonly feedGapsSkipped = makeCounter(this.m.feedGapsSkipped, this.registry);
  readonly feedGapsClosed = makeCounter(this.m.feedGapsClosed, this.registry);
  readonly feedGapsHeld = makeGauge(this.m.feedGapsHeld, this.registry);
  /** Pokes: sent to a peer, or received from one; by outcome. */
  readonly feedPokes = makeCounter(this.m.feedPokes, this.registry);
  /** Held long-polls a change did not wake: their interest summary does not hold its id. */
  readonly feedInterestKept = makeCounter(this.m.feedInterestKept, this.registry);
  readonly feedWindow = makeGauge(this.m.feedWindow, this.registry);
  readonly peersKnown = makeGauge(this.m.peersKnown, this.registry);
  /** Announcements to and from peers (changefeed/peers.ts), by direction and outcome. */
  readonly peerAnnouncements = makeCounter(this.m.peerAnnouncements, this.registry);
  /** Health checks of the peers (changefeed/peer-probe.ts), by outcome. */
  readonly peerProbes = makeCounter(this.m.peerProbes, this.registry);
  readonly peersUnresponsive = makeGauge(this.m.peersUnresponsive, this.registry);
  readonly replicaWatchers = makeGauge(this.m.replicaWatchers, this.registry);
  private readonly groupCommitCalls = makeHistogram(this.m.groupCommitCalls, this.registry);
  private readonly groupCommitWait = makeHistogram(this.m.groupCommitWait, this.registry);
  private readonly groupCommitAlone = makeCounter(this.m.groupCommitAlone, this.registry);
  readonly feedHighSeq = makeGauge(this.m.feedHighSeq, this.registry);
  readonly leaseExpiryLooks = makeCounter(this.m.leaseExpiryLooks, this.registry);
  readonly leaseEndsAnnounced = makeCounter(this.m.leaseEndsAnnounced, this.registry);
  readonly retiredCountersFolded = makeCounter(this.m.retiredCountersFolded, this.registry);
  // prom-client hashes label values on every labels() call; the hot path keeps children.
  private readonly requestChildren = new Map<string, Map<string, Tally>>();
  private readonly durationChildren = new Map<string, Histogram.Internal<string>>();
  private readonly errorChildren = new Map<string, Map<string, Counter.Internal>>();
  private readonly queryChildren = new Map<QuerySource, { count: Tally; seconds: Tally }>();
  private readonly requestTally = (operation: string, callerDaemon: string): Tally => this.requests.tally(operation, callerDaemon);
  private readonly errorChild = (operation: string, code: string): Counter.Internal => this.errors.labels(operation, code);

  constructor(replicaId: string) {
    makeGauge(this.m.replicaInfo, this.registry).set({ replica_id: replicaId }, 1);
    // Series from the start, at 0 (labels() alone exports nothing): a rate() has them to read.
    for (const outcome of WAIT_OUTCOMES) this.feedWaits.labels(outcome).inc(0);
    for (const outcome of ['answered', 'no_answer']) this.peerProbes.labels(outcome).inc(0);
    this.peersUnresponsive.set(0);
    this.peersKnown.set(0);
    for (const outcome of ['ok', 'error', 'given_up']) this.peerAnnouncements.labels('sent', outcome).inc(0);
    for (const outcome of ['ok', 'refused', 'error']) this.peerAnnouncements.labels('received', outcome).inc(0);
    this.replicaWatchers.set(0);
    // From the start, not from the first tail: a quiet replica reports a change rate of 0.
    for (const via of ['commit', 'tail']) this.feedChanges.labels(via).inc(0);
    this.grpcConnectionsClosed.labels('stalled').inc(0);
    for (const outcome of ['ok', 'error']) this.leaseExpiryLooks.labels(outcome).inc(0);
    this.leaseEndsAnnounced.inc(0);
    this.retiredCountersFolded.inc(0);
    this.callerDaemonsAdmitted.set(0);
    for (const source of QUERY_SOURCES) {
      this.queryChildren.set(source, {
        count: this.queries.tally(source),
        seconds: this.querySeconds.tally(source),
      });
    }
    collectDefaultMetrics({ register: this.registry });
  }

  /** The pool the connection gauges read on each scrape. */
  trackPool(occupancy: () => PoolOccupancy): void {
    this.pool = occupancy;
  }

  private samplePool(): void {
    if (!this.pool) return;
    const { busy, idle, queued } = this.pool();
    this.poolConnections.set({ state: 'busy' }, busy);
    this.poolConnections.set({ state: 'idle' }, idle);
    this.poolQueued.set(queued);
  }

  /** The open gRPC connections the connection gauge reads on each scrape. */
  trackConnections(count: () => number): void {
    this.connections = count;
  }

  private sampleConnections(): void {
    if (this.connections) this.grpcConnections.set(this.connections());
  }

  /** The unsent answer bytes the backlog gauge reads on each scrape. */
  trackAnswerBacklog(bytes: () => number): void {
    this.answerBacklog = bytes;
  }

  countGrpcRefused(reason: 'connection_backlog' | 'replica_backlog'): void {
    this.grpcRefused.labels(reason).inc();
  }

  countConnectionClosed(reason: 'stalled'): void {
    this.grpcConnectionsClosed.labels(reason).inc();
  }

  /** What the cluster gauges run before they are read (ClusterSizeSampler.onScrape). */
  onClusterScrape(hook: () => Promise<void>): void {
    this.clusterScrape = hook;
  }

  setClusterSize(size: ClusterSize): void {
    this.clusterReplicas.set(size.replicasLive);
    this.clusterNodes.set({ state: 'live' }, size.nodesLive);
    this.clusterNodes.set({ state: 'stale' }, size.nodesStale);
    this.clusterInstances.set(size.instances);
  }

  /**
   * Declares a periodic database task, so load tools can compare declared against
   * measured (database_queries_total{source}).
   */
  declarePeriodicTask(task: string, source: QuerySource, intervalMs: number, duty: string): void {
    this.periodicTasks.set({ task, source, duty }, intervalMs / 1000);
  }

  countRateLimited(limit: 'node' | 'daemon', callerDaemon: string): void {
    this.rateLimited.labels(limit, callerDaemon).inc();
  }

  countPermissionDenied(reason: string): void {
    this.permissionDenied.labels(reason).inc();
  }

  /** A group-commit batch of `calls` started after its first call waited `waitSeconds`. */
  observeBatch(kind: string, calls: number, waitSeconds: number): void {
    this.groupCommitCalls.labels(kind).observe(calls);
    this.groupCommitWait.labels(kind).observe(waitSeconds);
  }

  countAlone(kind: string, calls: number): void {
    if (calls > 0) this.groupCommitAlone.labels(kind).inc(calls);
  }

  countWait(outcome: WaitOutcome): void {
    this.feedWaits.labels(outcome).inc();
  }

  countRequest(operation: string, callerDaemon: string): void {
    childOf(this.requestChildren, this.requestTally, operation, callerDaemon).inc();
  }

  /** A call began (database_requests_in_flight). */
  callStarted(): void {
    this.callsInFlight += 1;
  }

  /** A call ended: once per callStarted(). */
  callEnded(): void {
    this.callsInFlight -= 1;
  }

  /**
   * A call of `operation` ended after `seconds`, with status `code` (undefined: OK). `trace`,
   * the span of a sampled call (an OpenTelemetry SpanContext is one): its bucket keeps the
   * trace and span ids as its exemplar (`trace_id`, `span_id`) until the next traced call in
   * that bucket; ids not in W3C form are left out. Without it the call costs what it always
   * did (the cached child, no exemplar).
   */
  observeRequest(operation: string, seconds: number, code: string | undefined, trace?: { readonly traceId: string; readonly spanId: string }): void {
    if (trace !== undefined) {
      const ids = TRACE_IDS.test(`${trace.traceId}/${trace.spanId}`) ? { trace_id: trace.traceId, span_id: trace.spanId } : {};
      this.duration.observe({ labels: { operation }, value: seconds, exemplarLabels: ids });
    } else {
      let child = this.durationChildren.get(operation);
      if (!child) {
        child = this.duration.labels(operation);
        this.durationChildren.set(operation, child);
      }
      child.observe(seconds);
    }
    // Every cancelled stream of a rapid reset ends here: a child per pair, not labels() per call.
    if (code !== undefined) childOf(this.errorChildren, this.errorChild, operation, code).inc();
  }

  /**
   * The counters of a (operation, caller_daemon) pair's database time: its children taken
   * once, each statement charged through them. Kept by its caller (Database.pairOwner).
   */
  costOf(operation: string, callerDaemon: string): CostSink {
    const seconds = this.requestQuerySeconds.tally(operation, callerDaemon);
    const wait = this.requestPoolWait.tally(operation, callerDaemon);
    const slow = this.slowStatements;
    return {
      charge(s, w) {
        seconds.inc(s);
        if (w > 0) wait.inc(w);
      },
      countSlow: () => slow.labels(operation, callerDaemon).inc(),
    };
  }

  observeQuery(source: QuerySource, seconds: number): void {
    const child = this.queryChildren.get(source);
    if (!child) return;
    child.count.inc();
    child.seconds.inc(seconds);
  }
}

/**
 * The child of `counter` for labels (`a`, `b`), kept in `cache`: two map lookups, no key
 * string or closure made per call (the request counters run on every call).
 */
function childOf<C>(cache: Map<string, Map<string, C>>, make: (a: string, b: string) => C, a: string, b: string): C {
  let byB = cache.get(a);
  if (!byB) {
    byB = new Map();
    cache.set(a, byB);
  }
  let child = byB.get(b);
  if (!child) {
    child = make(a, b);
    byB.set(b, child);
  }
  return child;
}
