// The events the benchmark injects during a measured window — operator stops, enqueues,
// transfers and instance state changes — at one fixed, low rate, in the same
// deterministic order in every mode. Every RPC goes through a client whose caller is
// `bench`, so the tier's tables can leave them out.
import { randomUUID } from 'node:crypto';
import type { DatabaseClient, ObjectState } from '../../client/index.js';
import type { Injection } from './duties.js';
import type { DaemonType, NoticeDuty, SimConfig } from './protocol.js';
import { DAEMON_TYPES, WORK_QUEUES } from './protocol.js';

export interface PlannedInjection {
  duty: NoticeDuty;
  node: string;
  /** The daemon expected to notice it. */
  daemon: DaemonType;
  /** instance-state: the instance whose state changes. */
  instance?: string;
}

const ROTATION: readonly NoticeDuty[] = ['operator-stop', 'work-item', 'transfer', 'instance-state'];

/**
 * `count` injection slots: slot i injects ROTATION[i mod 4], the j-th of its kind
 * (j = ⌊i/4⌋) going to the next node — operator stops also walk the daemon types, enqueues
 * alternate the queues and net daemons, state changes walk the instances. Kinds start on
 * different nodes, so one node is not hit by everything at once. A slot is undefined when
 * there is nothing to inject (a state change with no instances).
 */
export function injectionPlan(count: number, cluster: Pick<SimConfig, 'nodes' | 'instances'>): (PlannedInjection | undefined)[] {
  const nodes = cluster.nodes.map((n) => n.uuid);
  const n = nodes.length;
  const plan: (PlannedInjection | undefined)[] = [];
  for (let i = 0; i < count; i++) {
    const duty = ROTATION[i % ROTATION.length] as NoticeDuty;
    const j = Math.floor(i / ROTATION.length);
    const nodeAt = (offset: number): string => nodes[(j + offset) % n] as string;
    if (n === 0) {
      plan.push(undefined);
    } else if (duty === 'operator-stop') {
      plan.push({ duty, node: nodeAt(0), daemon: DAEMON_TYPES[(j + Math.floor(j / n)) % DAEMON_TYPES.length] as DaemonType });
    } else if (duty === 'work-item') {
      plan.push({ duty, node: nodeAt(1), daemon: j % 2 === 0 ? 'queues' : 'net' });
    } else if (duty === 'transfer') {
      plan.push({ duty, node: nodeAt(2), daemon: 'transfers' });
    } else {
      const instance = cluster.instances.length > 0 ? cluster.instances[j % cluster.instances.length] : undefined;
      plan.push(instance ? { duty, node: instance.nodeUuid, daemon: 'sidechannel', instance: instance.uuid } : undefined);
    }
  }
  return plan;
}

/** The state an instance is changed to: CREATED ⇄ CREATING (never a terminal state, which the cleaner would find). */
export function nextState(current: ObjectState | undefined): ObjectState {
  return current === 'CREATED' ? 'CREATING' : 'CREATED';
}

/**
 * Where an injection is written in a pinned run, whose i-th node talks to replica
 * i mod R: alternately through that replica and through the next, per duty, so half the
 * notices measure a write and a waiter on the same replica, half on different ones.
 */
export interface PinnedWriters {
  /** One client per replica, in the simulator's target order. */
  clients: readonly DatabaseClient[];
  nodes: readonly string[];
}

/** Sends the injections of one mode and puts instance states back afterwards. */
export class Injector {
  private readonly original = new Map<string, ObjectState | undefined>();
  private readonly current = new Map<string, ObjectState | undefined>();
  private readonly sent = new Map<string, number>();
  /** The blob every transfer injection names (a transfer must name a blob that exists). */
  private blob: string | undefined;

  constructor(
    private readonly db: DatabaseClient,
    private readonly pinned?: PinnedWriters,
  ) {}

  /** The client for `p`, and whether it is the replica the node's waiters are on. */
  private writer(p: PlannedInjection): { db: DatabaseClient; sameReplica?: boolean } {
    const pin = this.pinned;
    if (!pin || pin.clients.length < 2) return { db: pin?.clients[0] ?? this.db, ...(pin ? { sameReplica: true } : {}) };
    // Alternate per duty, so each duty has as many of one kind as of the other.
    const key = p.duty;
    const k = this.sent.get(key) ?? 0;
    this.sent.set(key, k + 1);
    const home = Math.max(0, pin.nodes.indexOf(p.node)) % pin.clients.length;
    const at = k % 2 === 0 ? home : (home + 1) % pin.clients.length;
    return { db: pin.clients[at] as DatabaseClient, sameReplica: at === home };
  }

  /** Reads the state of each instance the plan changes, and creates the transfers' blob (before the window opens). */
  async prepare(plan: readonly (PlannedInjection | undefined)[]): Promise<void> {
    if (this.blob === undefined && plan.some((p) => p?.duty === 'transfer')) {
      const blob = randomUUID();
      await this.db.createBlob({ uuid: blob, staticValues: { name: 'bench-injection' } });
      this.blob = blob;
    }
    for (const p of plan) {
      if (p?.instance === undefined || this.original.has(p.instance)) continue;
      const state = (await this.db.getObjectState('INSTANCE', p.instance))?.state as ObjectState | undefined;
      this.original.set(p.instance, state);
      this.current.set(p.instance, state);
    }
  }

  /** One injection; a failed RPC is recorded (it counts as a miss), not thrown. */
  async inject(p: PlannedInjection): Promise<Injection> {
    const { db, sameReplica } = this.writer(p);
    const replica = sameReplica === undefined ? {} : { sameReplica };
    const at = Date.now();
    let id = '';
    try {
      switch (p.duty) {
        case 'operator-stop':
          id = `${p.node}/${p.daemon}`;
          await db.setNodeDaemonState(p.node, p.daemon, 'STOPPING', 'bench: operator stop');
          break;
        case 'work-item':
          id = randomUUID();
          await db.enqueue({ id, nodeUuid: p.node, queue: WORK_QUEUES[p.daemon as 'queues' | 'net'], payload: { bench: true } });
          break;
        case 'transfer':
          id = randomUUID();
          if (this.blob === undefined) throw new Error('a transfer injection before prepare() created its blob');
          await db.createBlobTransfer({ id, blobUuid: this.blob, nodeUuid: p.node, bytesTotal: 1024 });
          break;
        case 'instance-state': {
          const instance = p.instance as string;
          const state = nextState(this.current.get(instance));
          id = `${instance}:${state}`;
          await db.setObjectState('INSTANCE', instance, state, 'bench: state change');
          this.current.set(instance, state);
          break;
        }
      }
      return { duty: p.duty, id, node: p.node, daemon: p.daemon, at, ...replica };
    } catch (err) {
      return { duty: p.duty, id, node: p.node, daemon: p.daemon, at, error: (err as Error).message, ...replica };
    }
  }

  /** Puts every changed instance back in its original state (outside the window). */
  async restore(): Promise<void> {
    for (const [instance, state] of this.original) {
      if (state !== undefined && this.current.get(instance) !== state) {
        await this.db.setObjectState('INSTANCE', instance, state, 'bench: restored');
        this.current.set(instance, state);
      }
    }
  }
}
