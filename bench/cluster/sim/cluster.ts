// The simulated cluster: for every node, one slot per daemon type. A slot runs one
// simulated daemon process at a time — a framework daemon with its own client (channel,
// caller identity `<type>` on `<node>`, its own static-object cache or none) — and after
// an operator stop starts a new one (a new process: new client, empty cache), which sets
// its daemon state RUNNING again, so the cluster stays whole.
import type { Logger } from 'pino';
import { createClient, systemClock } from '../../../client/index.js';
import type { StaticObjectCache } from '../../../client/index.js';
import { CountingCache } from './cache-count.js';
import type { DatabaseClient } from '../../../client/index.js';
import { ChurnDriver, NodeLocal } from './churn.js';
import type { ProcessCache } from './churn.js';
import { topics } from '../../../proto/topics.js';
import { DAEMON_TYPES } from '../protocol.js';
import type { DaemonType, Emit, SimConfig } from '../protocol.js';
import { DAEMON_CLASSES } from './daemons/index.js';
import type { AnyDaemon } from './daemons/index.js';
import { SimHooks } from './hooks.js';
import type { SimContext } from './hooks.js';
import type { PollPolicy } from './modes.js';

/** The one replica a pinned node's processes talk to: targets[node index mod targets]. */
export function pinnedTarget(config: SimConfig, nodeUuid: string): string {
  const i = config.nodes.findIndex((n) => n.uuid === nodeUuid);
  const own = config.pinnedTargets?.[i];
  if (own !== undefined) return own;
  return config.targets[Math.max(0, i) % config.targets.length] as string;
}

/** A failed (re)start is tried again after this long, until the cluster stops. */
const RESTART_RETRY_MS = 1000;

class Slot {
  private current: { daemon: AnyDaemon; db: DatabaseClient; cache: StaticObjectCache | undefined } | undefined;
  private starting: Promise<void> | undefined;
  private readonly memory = new Map<string, string>();
  restarts = 0;

  constructor(
    private readonly cluster: SimCluster,
    readonly nodeUuid: string,
    readonly type: DaemonType,
  ) {}

  /** Starts a new daemon process in this slot; throws when it could not start. */
  start(): Promise<void> {
    this.starting = this.launch().finally(() => (this.starting = undefined));
    return this.starting;
  }

  private async launch(): Promise<void> {
    const { config, policy, emit, log } = this.cluster;
    const cache = policy.cache ? new CountingCache() : undefined;
    const db = createClient({
      targets: config.pinned ? [pinnedTarget(config, this.nodeUuid)] : config.targets,
      feed: policy.settings.feed,
      callerDaemon: this.type,
      callerNode: this.nodeUuid,
      cache: cache ?? false,
    });
    if (config.wakeAll && policy.settings.feed) {
      // Before the daemon subscribes: the two join one poll. Closed with the client.
      db.changes.subscribe([topics.clusterConfig()], (batch) => {
        for (const c of batch.changes) emit({ event: 'woken', node: this.nodeUuid, daemon: this.type, id: c.id, at: Date.now() });
      });
    }
    const local = this.cluster.local(this.nodeUuid);
    const sim: SimContext = { type: this.type, nodeUuid: this.nodeUuid, config, policy, db, emit, memory: this.memory, local };
    const daemon = DAEMON_CLASSES[this.type](
      {
        name: this.type,
        nodeUuid: this.nodeUuid,
        db,
        settings: policy.settings,
        log: log.child({ daemon: this.type, node: this.nodeUuid }),
        hooks: new SimHooks(sim, systemClock),
      },
      sim,
    );
    try {
      await daemon.start();
    } catch (err) {
      db.close();
      throw err;
    }
    this.current = { daemon, db, cache };
    void daemon.done.then((reason) => {
      db.close();
      if (reason === 'operator' && !this.cluster.stopping) void this.restart();
    });
  }

  /** After an operator stop: a new process, retried until it starts or the cluster stops. */
  private async restart(): Promise<void> {
    this.restarts += 1;
    while (!this.cluster.stopping) {
      try {
        await this.start();
        return;
      } catch (err) {
        this.cluster.log.warn({ daemon: this.type, node: this.nodeUuid, err: (err as Error).message }, 'restart failed; trying again');
        await new Promise((resolve) => setTimeout(resolve, RESTART_RETRY_MS));
      }
    }
  }

  /** Stops the running daemon (after a start in progress), recording STOPPED. */
  async stop(): Promise<void> {
    if (this.starting) await this.starting.catch(() => undefined);
    await this.current?.daemon.stop('signal');
  }

  snapshot(): ReturnType<AnyDaemon['snapshot']> | undefined {
    return this.current?.daemon.snapshot();
  }

  /** The running process's static-object cache (none in naive mode, or between processes). */
  get cache(): StaticObjectCache | undefined {
    return this.current?.cache;
  }
}

export class SimCluster {
  private readonly slots: Slot[];
  private readonly locals = new Map<string, NodeLocal>();
  private churn: { driver: ChurnDriver; db: DatabaseClient } | undefined;
  stopping = false;

  constructor(
    readonly config: SimConfig,
    readonly policy: PollPolicy,
    readonly emit: Emit,
    readonly log: Logger,
  ) {
    this.slots = config.nodes.flatMap((n) => DAEMON_TYPES.map((type) => new Slot(this, n.uuid, type)));
  }

  /** Starts every daemon; answers how many run. Throws (after stopping those that started) when one cannot start. */
  async start(): Promise<number> {
    // Every daemon is launched at once, as a whole cluster powering on would be, but each
    // launch in its own turn of the event loop: a launch runs synchronously up to its
    // first call (a client built, its first request queued), and 7,000 of them in one turn
    // held the one thread for seconds with no socket read, so their calls' deadlines
    // passed before the first answer was read — a storm of the simulator's own making,
    // which separate processes on separate machines would not have.
    const starts: Promise<unknown>[] = [];
    for (const slot of this.slots) {
      if (this.stopping) break;
      const started = slot.start();
      started.catch(() => {}); // handled below, once every launch is out
      starts.push(started);
      await new Promise((resolve) => setImmediate(resolve));
    }
    const results = await Promise.allSettled(starts);
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) {
      await this.stop();
      throw failed.reason;
    }
    const churn = this.config.churn;
    if (churn && (churn.instancesPerS > 0 || churn.staticPerS > 0)) {
      // The benchmark's own writes: caller `bench`, no cache, no feed.
      const db = createClient({ targets: this.config.targets, callerDaemon: 'bench', cache: false, feed: false, deadlineMs: 60_000 });
      const driver = new ChurnDriver(db, churn, {
        config: this.config,
        local: (node) => this.local(node),
        caches: () => this.caches(),
        emit: this.emit,
        log: this.log,
      });
      this.churn = { driver, db };
      await driver.start();
    }
    return this.slots.length;
  }

  /** What `node` knows of itself (its churned instances), shared by its daemons. */
  local(node: string): NodeLocal {
    let l = this.locals.get(node);
    if (!l) {
      l = new NodeLocal();
      this.locals.set(node, l);
    }
    return l;
  }

  /** The static-object cache of every running simulated process that has one. */
  caches(): ProcessCache[] {
    return this.slots.flatMap((s) => {
      const cache = s.cache;
      return cache ? [{ node: s.nodeUuid, daemon: s.type, cache, live: () => s.cache === cache }] : [];
    });
  }

  /** Stops the churn and every daemon; no restart after this. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.churn?.driver.stop();
    await Promise.all(this.slots.map((s) => s.stop()));
    this.churn?.db.close();
  }

  snapshot(): { node: string; type: DaemonType; restarts: number; daemon: ReturnType<AnyDaemon['snapshot']> | undefined }[] {
    return this.slots.map((s) => ({ node: s.nodeUuid, type: s.type, restarts: s.restarts, daemon: s.snapshot() }));
  }
}
