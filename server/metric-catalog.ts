// Every metric of the tier, declared in one catalogue (SERVER_METRICS); Metrics
// (metrics.ts) makes them from it. Rules and dashboards use only names declared here
// (test/unit/metric-catalog.test.ts).
import { metricNames } from '@sfdb/proto/runtime/metrics';
import type { MetricSpec } from '@sfdb/proto/runtime/metrics';

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
