// The typed client of sf-database. One client is one channel stack with one caller
// identity: a daemon process uses `defaultClient()`; a simulator may make many.
//
//   const db = createClient({ callerDaemon: 'queues', callerNode: nodeUuid });
//   const node = await db.getNode(uuid);   // Node | undefined; an outage throws DatabaseUnavailable
//   const sub = db.changes.subscribe([topics.queue(nodeUuid, 'work')]);   // the change feed
//
// Each client owns one ChangeWaiter (`db.changes`, made on first use, closed by close()).
// With the `feed` option on, the client's cache attaches to it the first time it stores
// an entry, and from then on hears other processes' writes.
import { defaultStaticObjectCache } from './cache.js';
import type { StaticObjectCache } from './cache.js';
import { ChangeWaiter } from './changes.js';
import type { ChangeWaiterOptions } from './changes.js';
import { resolveClientOptions } from './config.js';
import type { ClientOptions } from './config.js';
import { ReplicaWatch } from './replica-watch.js';
import type { Clock } from '@sfdb/proto/runtime/clock';
import { Transport } from './transport.js';
import type { CallOptions, TransportRuntime } from './transport.js';
import { changesApi } from './api/changes.js';
import { clusterConfigApi } from './api/cluster-config.js';
import { daemonStateApi } from './api/daemon-state.js';
import { eventsApi } from './api/events.js';
import { ipamApi } from './api/ipam.js';
import { leasesApi } from './api/leases.js';
import { maintenanceApi } from './api/maintenance.js';
import { nodesApi } from './api/nodes.js';
import { objectsApi } from './api/objects.js';
import { queueApi } from './api/queue.js';
import { referencesApi } from './api/references.js';
import { transfersApi } from './api/transfers.js';

export * from './errors.js';
export type { ClientOptions, ClientTls, ResolvedClientOptions } from './config.js';
export { resolveClientOptions, toTarget } from './config.js';
export type { CallOptions, TransportRuntime, UnaryChannel, UnaryRequest } from './transport.js';
export type { AttemptPeer } from './trace.js';
export type { Node, ClusterStatus, Page } from './api/nodes.js';
export type * from './api/daemon-state.js';
export { heldByOperator } from './api/daemon-state.js';
export type * from './api/objects.js';
export type * from './api/queue.js';
export type * from './api/leases.js';
export type * from './api/ipam.js';
export type * from './api/references.js';
export type * from './api/events.js';
export type * from './api/transfers.js';
export type * from './api/cluster-config.js';
export type * from './api/maintenance.js';
export type * from './api/changes.js';
export { ChangeWaiter } from './changes.js';
export { topics, MAX_TOPICS_PER_WAIT } from '@sfdb/proto/topics';
export type { ChangeBatch, ChangeWaiterOptions, FeedMode, Subscription } from './changes.js';
export { LeaseKeeper } from './lease-keeper.js';
export type { LeaseKeeperOptions, LeaseKeeperState, LeaseCalls } from './lease-keeper.js';
export type { FencedCallOptions, LeaseFence } from './fence.js';
export { systemClock } from '@sfdb/proto/runtime/clock';
export { jitteredDelay } from './retry.js';
export { hedged, HEDGE_AFTER_MS } from './hedge.js';
export type { HedgeOptions } from './hedge.js';
export type { Clock } from '@sfdb/proto/runtime/clock';
export { StaticObjectCache, CACHED_TYPES, defaultStaticObjectCache } from './cache.js';
export type { CachedType, CacheTier, CacheSettings, ClearReason, EvictionReason, StaticObjectCacheOptions } from './cache.js';
export { clientRegistry, CLIENT_METRIC_NAMES } from './metrics.js';
// Types the API above names (its options, a class's public members): an author can name them
// too (test/package/exported-types.test.ts).
export type { BalancePolicy } from './config.js';
export type { LongPollHolder, MoveReason, ReplicaAvoidance } from './avoidance.js';
export type { CacheMetrics, CacheOccupancy, FeedMetrics, FeedModeSource } from './metrics.js';
export type { SubscribeOptions } from './subscription.js';
export type { HeardChange, WaiterSource } from './cache-feed.js';
export type { Transport } from './transport.js';

/** createClient's options: the client's, its cache, and how its change waiter falls back and retries. */
export interface CreateClientOptions extends ClientOptions {
  /**
   * The static-object cache this client reads through: default the process-wide one
   * (`defaultStaticObjectCache()`, SFDB_CACHE_* settings), shared by every client of the
   * process that does not pass its own; a cache of your own (a simulated process); or
   * `false` for none.
   */
  cache?: StaticObjectCache | false;
  /** The change waiter's timings (default: 30 s long-polls, fallback after 3 failed polls, feed retried every 30 s). */
  waiter?: Pick<ChangeWaiterOptions, 'waitTimeoutMs' | 'errorsBeforeFallback' | 'retryFeedMs'>;
}

/** More than one replica behind the target: a watch of their health can help (p2c only). */
function watchable(transport: Transport): boolean {
  const { balance, target } = transport.options;
  return balance === 'p2c' && (target.startsWith('dns:') || target.includes(','));
}

function build(transport: Transport, cache: StaticObjectCache | undefined, waiterOptions: ChangeWaiterOptions = {}, clock?: Clock) {
  const changeCalls = changesApi(transport);
  let waiter: ChangeWaiter | undefined;
  let watch: ReplicaWatch | undefined;
  let closed = false;
  const changes = (): ChangeWaiter => {
    if (waiter === undefined) {
      const w = (waiter = new ChangeWaiter(changeCalls, waiterOptions));
      if (closed) w.close();
      else if (watchable(transport)) {
        // The long-poll's replica may freeze: hear it from another (client/replica-watch.ts).
        const { avoidance } = transport;
        avoidance.onChange((reason) => {
          if (reason !== undefined) w.moveLongPoll(reason);
        });
        watch = new ReplicaWatch(changeCalls, avoidance, clock);
        watch.start();
      }
    }
    return waiter;
  };
  // The cache hears the feed once it holds something (a shared cache: through the first
  // of its clients that is still open).
  const removeSource = cache && transport.options.feed ? cache.attachFeedOnInsert(() => (closed ? undefined : changes())) : undefined;
  return {
    /** The resolved options (target, caller identity, deadline, retries, feed). */
    options: transport.options,
    /** The static-object cache the typed Gets read through; undefined when made with `cache: false`. */
    cache,
    /** This client's change waiter: one long-poll for all its subscriptions. Made on first use. */
    get changes(): ChangeWaiter {
      return changes();
    },
    /** Any RPC by name, typed, with the client's deadline and retry policy. */
    call: transport.call.bind(transport),
    /** Closes the change waiter (cancelling its long-poll) and the channel. */
    close: (): void => {
      closed = true;
      removeSource?.();
      waiter?.close();
      void watch?.close();
      transport.close();
    },
    ...changeCalls,
    ...nodesApi(transport, cache),
    ...daemonStateApi(transport),
    ...objectsApi(transport, cache),
    ...queueApi(transport),
    ...leasesApi(transport),
    ...ipamApi(transport),
    ...referencesApi(transport),
    ...eventsApi(transport),
    ...transfersApi(transport),
    ...clusterConfigApi(transport),
    ...maintenanceApi(transport),
  };
}

export type DatabaseClient = ReturnType<typeof build>;

/**
 * A new client with its own channel and caller identity. `runtime` replaces grpc-js and
 * the system clock under it (a deterministic simulation: harness/sim/); the clock then
 * drives the change waiter and the replica watch too.
 */
export function createClient(options: CreateClientOptions = {}, runtime: TransportRuntime = {}): DatabaseClient {
  const cache = options.cache === false ? undefined : (options.cache ?? defaultStaticObjectCache());
  const waiter = runtime.clock === undefined ? options.waiter : { clock: runtime.clock, ...options.waiter };
  return build(new Transport(resolveClientOptions(options), runtime), cache, waiter, runtime.clock);
}

let defaultInstance: DatabaseClient | undefined;

/** The process-wide client, configured from SFDB_* environment on first use. */
export function defaultClient(): DatabaseClient {
  defaultInstance ??= createClient();
  return defaultInstance;
}

export type { CallOptions as DatabaseCallOptions };
