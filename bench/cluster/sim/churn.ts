// The cluster at work (docs/workload.md "Churn"), driven inside the simulator from ready to
// stop, through its own client (caller `bench`, so the tier's tables leave it out):
//   instance churn   every 1/C s an instance is created on a random node with one network
//                    interface, an IPAM reservation and its references, and its image
//                    pulled to the node (a blob transfer the node's transfers daemon runs);
//                    it moves CREATING → CREATED → DELETING → DELETED over its lifetime and
//                    is then deleted with its interface, reservation and references. The
//                    node learns of it locally (the hypervisor defines it: NodeLocal), as
//                    of a standing instance; each state move is due at its sidechannel.
//   static updates   every 1/U s a blob's or a node's static values, alternating; an object
//                    some process holds is preferred (its holders are what the duty is
//                    about). Each process holding it just before the update must drop it
//                    within EVICT_BOUND_MS: watched through the cache's public `snapshot()`
//                    (an entry gone, or a new one loaded since, is an eviction).
// Each due notice is printed as an `injected` event; the daemons print the `noticed` ones.
import { randomUUID } from 'node:crypto';
import type { DatabaseClient, ObjectState, StaticObjectCache } from '../../../client/index.js';
import type { ChurnConfig, DaemonType, Emit, SimConfig } from '../protocol.js';

/** One instance a node's daemons know locally (standing ones from the config, churned ones from here). */
export type LocalInstance = SimConfig['instances'][number] & { churned?: true };

/** What a node knows of itself without asking the database: the churned instances defined on it. */
export class NodeLocal {
  readonly churned = new Map<string, LocalInstance>();
}

/** A simulated process's cache, as the cluster's slots hold them now. */
export interface ProcessCache {
  node: string;
  daemon: DaemonType;
  cache: StaticObjectCache;
  /** True while this is still the slot's running process (one stopped since holds nothing). */
  live(): boolean;
}

export interface ChurnTarget {
  config: SimConfig;
  local(node: string): NodeLocal;
  caches(): ProcessCache[];
  emit: Emit;
  log: { warn(obj: object, msg: string): void };
}

/** Images churned instances pull; a static update of a blob picks one of these. */
const IMAGES = 4;
/** How often pending evictions are looked at (the latency's resolution). */
const WATCH_EVERY_MS = 5;
/** A holder that has not dropped the object after this long is a miss (the orchestrator's MISS_AFTER_MS). */
const WATCH_FOR_MS = 10_000;
/** After DELETED, the node forgets the instance this much later (its sidechannel has seen it go). */
const FORGET_AFTER_MS = 5000;

const STATE_MOVES: readonly ObjectState[] = ['CREATED', 'DELETING', 'DELETED'];

interface Watch {
  id: string;
  holder: ProcessCache;
  type: 'NODE' | 'BLOB';
  uuid: string;
  expiresAt: number;
  until: number;
}

function entryOf(cache: StaticObjectCache, type: 'NODE' | 'BLOB', uuid: string): number | undefined {
  if (!cache.has(type, uuid)) return undefined;
  return cache.snapshot().find((e) => e.type === type && e.uuid === uuid)?.expiresAt;
}

export class ChurnDriver {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly watches: Watch[] = [];
  private watchTimer: NodeJS.Timeout | undefined;
  private readonly images = Array.from({ length: IMAGES }, () => randomUUID());
  private stopped = false;
  private seq = Math.floor(Math.random() * 30_000);
  private updates = 0;
  errors = 0;

  constructor(
    private readonly db: DatabaseClient,
    private readonly churn: ChurnConfig,
    private readonly target: ChurnTarget,
  ) {}

  async start(): Promise<void> {
    if (this.churn.instancesPerS > 0 || this.churn.staticPerS > 0) {
      for (const [i, uuid] of this.images.entries()) await this.db.createBlob({ uuid, staticValues: { name: `image-${i}`, sizeBytes: 1 << 20, revision: 0 } });
    }
    this.every(this.churn.instancesPerS, () => this.lifecycle());
    this.every(this.churn.staticPerS, () => this.staticUpdate());
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    if (this.watchTimer) clearInterval(this.watchTimer);
  }

  private later(ms: number, fn: () => Promise<void>): void {
    if (this.stopped) return;
    const t = setTimeout(() => {
      this.timers.delete(t);
      if (!this.stopped) fn().catch((err: unknown) => this.fail(err));
    }, ms);
    this.timers.add(t);
  }

  /** `fn` at a fixed rate of `perS` per second (none at 0). */
  private every(perS: number, fn: () => Promise<void>): void {
    if (perS <= 0) return;
    const periodMs = 1000 / perS;
    const startAt = Date.now();
    let n = 0;
    const tick = (): Promise<void> => {
      n += 1;
      this.later(Math.max(0, startAt + n * periodMs - Date.now()), tick);
      return fn();
    };
    this.later(0, tick);
  }

  private fail(err: unknown): void {
    this.errors += 1;
    this.target.log.warn({ err: (err as Error).message }, 'churn: a write failed');
  }

  private pick<T>(items: readonly T[]): T {
    return items[Math.floor(Math.random() * items.length)] as T;
  }

  private async lifecycle(): Promise<void> {
    const { config } = this.target;
    const node = this.pick(config.nodes).uuid;
    const k = Math.floor(Math.random() * config.networks.length);
    const network = config.networks[k];
    if (!network) return;
    const n = this.seq++;
    const instance: LocalInstance = { uuid: randomUUID(), nodeUuid: node, networkUuid: network.uuid, interfaceUuid: randomUUID(), churned: true };
    const address = `10.${k}.${128 + (Math.floor(n / 250) % 120)}.${(n % 250) + 2}`;
    const image = this.pick(this.images);
    const db = this.db;
    await db.createInstance({ uuid: instance.uuid, nodeUuid: node, staticValues: { name: `churn-${n}`, cpus: 1, memoryMb: 512, diskGb: 5, image } });
    await db.setObjectState('INSTANCE', instance.uuid, 'CREATING', 'churn: created');
    await db.createNetworkInterface({
      uuid: instance.interfaceUuid,
      nodeUuid: node,
      staticValues: { instanceUuid: instance.uuid, networkUuid: network.uuid, ipamUuid: network.ipamUuid, address, order: 0 },
    });
    await db.reserveAddress({ ipamUuid: network.ipamUuid, address, ownerType: 'NETWORK_INTERFACE', ownerUuid: instance.interfaceUuid });
    await db.recordReference({ fromType: 'INSTANCE', fromUuid: instance.uuid, toType: 'NETWORK_INTERFACE', toUuid: instance.interfaceUuid, relation: 'has-interface' });
    await db.recordReference({ fromType: 'NETWORK_INTERFACE', fromUuid: instance.interfaceUuid, toType: 'NETWORK', toUuid: network.uuid, relation: 'on-network' });
    await db.createBlobTransfer({ id: randomUUID(), blobUuid: image, nodeUuid: node, bytesTotal: 1 << 20 });
    // The node defines it in CREATING: its daemons act on it from now on.
    this.target.local(node).churned.set(instance.uuid, instance);
    const step = this.churn.lifetimeMs / STATE_MOVES.length;
    STATE_MOVES.forEach((state, i) => this.later(step * (i + 1), () => this.move(instance, state, address)));
  }

  private async move(instance: LocalInstance, state: ObjectState, address: string): Promise<void> {
    const id = `${instance.uuid}:${state}`;
    const at = Date.now();
    const due = { event: 'injected', duty: 'churn-state', node: instance.nodeUuid, daemon: 'sidechannel', id, at } as const;
    try {
      await this.db.setObjectState('INSTANCE', instance.uuid, state, 'churn');
      this.target.emit(due);
    } catch (err) {
      this.target.emit({ ...due, error: (err as Error).message });
      throw err;
    }
    if (state !== 'DELETED') return;
    const network = this.target.config.networks.find((n) => n.uuid === instance.networkUuid);
    await this.db.removeReference({ fromType: 'INSTANCE', fromUuid: instance.uuid, toType: 'NETWORK_INTERFACE', toUuid: instance.interfaceUuid, relation: 'has-interface' });
    await this.db.removeReference({ fromType: 'NETWORK_INTERFACE', fromUuid: instance.interfaceUuid, toType: 'NETWORK', toUuid: instance.networkUuid, relation: 'on-network' });
    if (network) await this.db.releaseAddress(network.ipamUuid, address, { ownerUuid: instance.interfaceUuid });
    await this.db.deleteNetworkInterface(instance.interfaceUuid);
    this.later(FORGET_AFTER_MS, () => {
      this.target.local(instance.nodeUuid).churned.delete(instance.uuid);
      return Promise.resolve();
    });
  }

  /** A blob's or a node's static values, alternating; one somebody holds when there is one. */
  private async staticUpdate(): Promise<void> {
    const type = this.updates++ % 2 === 0 ? 'BLOB' : 'NODE';
    const caches = this.target.caches();
    const candidates = type === 'BLOB' ? this.images : this.target.config.nodes.map((n) => n.uuid);
    // One walk of the caches (each holds a few entries), not one per candidate: at 1,000
    // nodes a node update would otherwise ask 7,000 caches about each of 1,000 nodes.
    const heldNow = new Set<string>();
    for (const c of caches) for (const e of c.cache.snapshot()) if (e.type === type && c.cache.has(type, e.uuid)) heldNow.add(e.uuid);
    const held = candidates.filter((uuid) => heldNow.has(uuid));
    const uuid = this.pick(held.length > 0 ? held : candidates);
    const update = this.updates;
    const at = Date.now();
    const holders = caches.flatMap((holder) => {
      const expiresAt = entryOf(holder.cache, type, uuid);
      return expiresAt === undefined ? [] : [{ holder, expiresAt }];
    });
    const ids = holders.map(({ holder }) => `${type}:${uuid}#${update}@${holder.node}/${holder.daemon}`);
    let error: string | undefined;
    try {
      if (type === 'BLOB') await this.db.updateBlob(uuid, { name: `image-${uuid.slice(0, 8)}`, sizeBytes: 1 << 20, revision: update });
      else await this.db.updateNode(uuid, { ipAddress: `192.168.${Math.floor(update / 250) % 250}.${(update % 250) + 1}` });
    } catch (err) {
      error = (err as Error).message;
    }
    holders.forEach(({ holder, expiresAt }, i) => {
      const id = ids[i] as string;
      this.target.emit({ event: 'injected', duty: 'static-evict', node: holder.node, daemon: holder.daemon, id, at, ...(error !== undefined ? { error } : {}) });
      if (error === undefined) this.watches.push({ id, holder, type, uuid, expiresAt, until: at + WATCH_FOR_MS });
    });
    if (this.watches.length > 0) this.watchTimer ??= setInterval(() => this.look(), WATCH_EVERY_MS);
  }

  /** Each watched holder: dropped (gone, or a newer entry loaded since) → `noticed`; given up after WATCH_FOR_MS. */
  private look(): void {
    const now = Date.now();
    for (let i = this.watches.length - 1; i >= 0; i--) {
      const w = this.watches[i] as Watch;
      const expiresAt = entryOf(w.holder.cache, w.type, w.uuid);
      // A process stopped since (an operator stop) holds nothing any more.
      const dropped = !w.holder.live() || expiresAt === undefined || expiresAt !== w.expiresAt;
      if (dropped) this.target.emit({ event: 'noticed', duty: 'static-evict', node: w.holder.node, daemon: w.holder.daemon, id: w.id, at: now });
      if (dropped || now > w.until) this.watches.splice(i, 1);
    }
    if (this.watches.length === 0 && this.watchTimer) {
      clearInterval(this.watchTimer);
      this.watchTimer = undefined;
    }
  }
}
