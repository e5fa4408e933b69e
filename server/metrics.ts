// Every metric of the tier, made from its catalogue (metric-catalog.ts, SERVER_METRICS).
// One Metrics instance per running tier (tests may run several in one process), each with
// its own registry.
import { Registry, collectDefaultMetrics } from 'prom-client';
import type { Counter, Gauge, Histogram } from 'prom-client';
import { makeCounter, makeGauge, makeHistogram } from '@sfdb/proto/runtime/metrics';
import { TalliedCounter } from '@sfdb/proto/runtime/tally';
import type { Tally } from '@sfdb/proto/runtime/tally';
import { SERVER_METRICS } from './metric-catalog.js';

/** Where the tier's own MariaDB work comes from; a fixed set, so heartbeat, recovery and
 * migration queries are told apart from RPC work (admin: the admin view's reads, only
 * while one of its pages is open). */
export const QUERY_SOURCES = ['rpc', 'changefeed', 'registry', 'maintenance', 'migration', 'admin'] as const;
export type QuerySource = (typeof QUERY_SOURCES)[number];

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
