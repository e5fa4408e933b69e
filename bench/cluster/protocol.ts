// The contract between the cluster benchmark's orchestrator (bench/cluster/main.ts) and
// its simulator process (bench/cluster/sim/main.ts). The simulator runs the simulated
// daemons of every node — real Daemon classes, real clients, each simulated daemon
// process with its own client (channel, caller identity, cache) — and reports what they
// notice; the orchestrator injects the events and measures.

export type Mode = 'naive' | 'anchor' | 'feed';

/** The seven daemon types of every node. */
export const DAEMON_TYPES = ['queues', 'net', 'transfers', 'sidechannel', 'resources', 'cleaner', 'cluster'] as const;
export type DaemonType = (typeof DAEMON_TYPES)[number];

/** The queue each queue-working daemon drains (Enqueue with queue = this, node = its node). */
export const WORK_QUEUES: Record<'queues' | 'net', string> = { queues: 'instance-ops', net: 'net-ops' };

/** Seeded cluster the simulator works on (written by the orchestrator as JSON; path in argv[2]). */
export interface SimConfig {
  mode: Mode;
  /** Tier replicas, `ip:port`. */
  targets: string[];
  nodes: { uuid: string; fqdn: string }[];
  /** Standing instances, placed on nodes, each with one interface on a network. */
  instances: { uuid: string; nodeUuid: string; networkUuid: string; interfaceUuid: string }[];
  networks: { uuid: string; ipamUuid: string }[];
  /** Duty periods in ms (defaults: docs/workload.md); the CI-sized run shortens none of the bounds. */
  periods?: Partial<Record<PeriodDuty, number>>;
  /**
   * Each simulated process of the i-th node talks to targets[i mod targets] only (else to
   * every target, round robin), so the benchmark can tell a write and its waiter on the
   * same replica from a write and a waiter on different replicas.
   */
  pinned?: boolean;
  /**
   * Every simulated process also hears `cluster-config` (feed mode) and reports `woken` for
   * each change of it: the wake-everyone measurement (`--wake-all`). Absent: it does not.
   */
  wakeAll?: boolean;
  /** Pinned and sharded (sim-group.ts): the target of each node, in `nodes` order (a shard's index is not the node's). */
  pinnedTargets?: string[];
  /** Churn the simulator drives itself from ready to stop (docs/workload.md "Churn"); absent: the quiet cluster. */
  churn?: ChurnConfig;
  /** A defect planted on purpose, for the load check's positive controls (PLANTS); absent: none. */
  plant?: Plant;
}

/**
 * Defects the load check must catch, planted in every node's sidechannel:
 *   per-node-poll  reads its node's attributes (GetObjectAttributes NODE) every second,
 *                  a fixed-rate poll per node that nothing declares;
 *   wake-everyone  subscribes to the instances of every node, not only its own, and
 *                  re-reads all its instances whenever any instance in the cluster changes:
 *                  load ∝ nodes × churn.
 */
export const PLANTS = ['per-node-poll', 'wake-everyone'] as const;
export type Plant = (typeof PLANTS)[number];

export interface ChurnConfig {
  /** Instance lifecycles started per second, cluster-wide. */
  instancesPerS: number;
  /** Static-object updates per second (a blob's, a node's, alternating), cluster-wide. */
  staticPerS: number;
  /** A churned instance's lifetime from creating to deleted (ms). */
  lifetimeMs: number;
}

/** Events the orchestrator injects, each noticed by one simulated daemon. */
export type NoticeDuty =
  /** SetNodeDaemonState(node, daemon, STOPPING): the daemon notices, exits, is restarted. id = `${node}/${daemon}` */
  | 'operator-stop'
  /** Enqueue for a node's queues or net daemon: the handler starts. id = work item id */
  | 'work-item'
  /** CreateBlobTransfer for a node: the transfers daemon starts it. id = transfer id */
  | 'transfer'
  /** SetObjectState of an instance: the sidechannel daemon of its node sees the new state. id = `${instance}:${state}` */
  | 'instance-state'
  /** Churn: a churned instance's state move (CREATED, DELETING, DELETED); its node's sidechannel sees it. id = `${instance}:${state}` */
  | 'churn-state'
  /** Churn: a static update of an object a process held; that process drops it. id = `${TYPE}:${uuid}#${update}@${process}` */
  | 'static-evict';

/** Duties done on a period. */
export type PeriodDuty =
  | 'node-heartbeat' // every node, 10 s
  | 'resources-node' // resources: node metrics, 10 s
  | 'resources-instance' // resources: each local instance's stats, 60 s
  | 'cleaner' // cleaner: this node's terminal instances (keyset pages), 60 s
  | 'maintenance'; // elected cluster: requeue, registry sweep, IPAM reconcile, 30 s

export const DEFAULT_PERIODS: Record<PeriodDuty, number> = {
  'node-heartbeat': 10_000,
  'resources-node': 10_000,
  'resources-instance': 60_000,
  cleaner: 60_000,
  maintenance: 30_000,
};

export const NOTICE_BOUND_MS = 2000;
/** A process holding an updated static object has dropped it within this long of the commit (p99). */
export const EVICT_BOUND_MS = 100;

/** Lines the simulator prints on stdout, one JSON object each. */
export type SimEvent =
  | { event: 'ready'; at: number; daemons: number }
  /** With `wakeAll`: a simulated process heard a cluster-config change (id = the key). */
  | { event: 'woken'; node: string; daemon: DaemonType; id: string; at: number }
  | { event: 'noticed'; duty: NoticeDuty; node: string; daemon: DaemonType; id: string; at: number }
  /** The simulator's own churn: a write whose notice is due (at: just before the RPC was sent). */
  | { event: 'injected'; duty: NoticeDuty; node: string; daemon: DaemonType; id: string; at: number; error?: string }
  /** A duty done for its period; the cleaner's says how many terminal instances its node has. */
  | { event: 'period'; duty: PeriodDuty; node: string; at: number; found?: number }
  /**
   * Every CPU_REPORT_MS: this process's cumulative CPU, and `stallMs`, the longest its event loop was
   * held since the last one (the clients of every simulated process share that one thread:
   * a stall delays them all, a gap no real node would have).
   */
  | { event: 'cpu'; at: number; userMs: number; systemMs: number; stallMs?: number }
  /** At the stop: the static-object caches of every simulated process, summed (CacheFigures). */
  | ({ event: 'cache'; at: number } & CacheFigures)
  | { event: 'stopped'; at: number };

/**
 * The static-object cache reads of the simulated processes from their start to the stop
 * (issue 38): the first read of each object in each process apart, and the later ones
 * as hits and misses (a later read that joined a load in flight counts as a miss); the
 * evictions and the clears by reason, as client/metrics.ts counts them.
 */
export interface CacheFigures {
  firstReads: number;
  laterHits: number;
  laterMisses: number;
  evictions: Record<string, number>;
  clears: Record<string, number>;
}

/** Where a simulated daemon reports a SimEvent (the simulator prints it). */
export type Emit = (event: SimEvent) => void;

/** How often the simulator reports its CPU and its event loop's longest stall (`cpu` events). */
export const CPU_REPORT_MS = 5000;
