// The steady mixed load of a fault run: several clients, each with every replica as a
// target, writing only what can be checked afterwards — CreateNode and Enqueue with ids
// chosen here, NodeHeartbeat, SetNodeDaemonState and SetObjectAttributes of each loop's
// own node (group-committed by the tier), Dequeue + Resolve of claims (one claim in ten
// abandoned, and resolved late), SetClusterConfig at an expected version,
// AcquireLease/RenewLease — and a sweeper that holds a lease and requeues expired claims.
// Every answer goes to the ledger, with how long its call took.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Conflict, Fenced, createClient } from '../../client/index.js';
import type { DatabaseClient } from '../../client/index.js';
import type { MethodName } from '../../proto/types.js';
import { isoMicros } from './ledger.js';
import type { FailedTarget, Ledger } from './ledger.js';

export const WORK_QUEUE = 'faults';
export const CALLER = 'bench';
/**
 * How much later than its deadline a call may settle and still count as in time: the
 * client ends a call at its deadline on its own timer, so anything later is this process's
 * event loop running late — the replicas, MariaDB, the proxy and the clients share 2 cores.
 */
export const SCHEDULING_SLACK_MS = 500;

export interface LoadOptions {
  /** ip:port of every replica; each client round-robins over all of them. */
  targets: readonly string[];
  clients: number;
  /** Closed loops of writes per client. */
  loopsPerClient: number;
  deadlineMs: number;
  /** Claim lease of Dequeue (≥ 1000). */
  claimLeaseMs: number;
  /** TTL of the competing leases and of the sweeper's. */
  leaseTtlMs: number;
  /** How often the sweeper requeues expired claims. */
  sweepEveryMs: number;
  /** Cluster config keys the clients contend on. */
  configKeys: number;
}

interface LateResolve {
  id: string;
  epoch: string;
  dueAt: number;
}

/** An abortable pause of a loop (stop() ends it at once). */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

export class Load {
  private readonly stopping = new AbortController();
  private readonly loops: Promise<void>[] = [];
  private readonly clients: DatabaseClient[] = [];
  /** The node every client enqueues to and dequeues from (created before the first enqueue names it). */
  readonly workNode = randomUUID();
  private workNodeCreated: Promise<boolean> | undefined;
  requeued = 0;

  constructor(
    private readonly ledger: Ledger,
    private readonly opts: LoadOptions,
  ) {}

  private client(): DatabaseClient {
    const c = createClient({
      targets: this.opts.targets,
      callerDaemon: CALLER,
      callerNode: randomUUID(),
      deadlineMs: this.opts.deadlineMs,
      maxAttempts: 8,
      retryBaseMs: 25,
      retryCapMs: 250,
      cache: false,
      feed: false,
    });
    this.clients.push(c);
    return c;
  }

  /**
   * Runs `fn`; an answer counts as ok (the caller records acks), Fenced/Conflict as refused,
   * anything else as failed; and each call's time from sent to settled against its deadline.
   */
  private async call<T>(method: MethodName, fn: () => Promise<T>, target?: FailedTarget): Promise<{ ok: true; value: T } | { ok: false; refused: boolean }> {
    const sent = performance.now();
    try {
      const value = await fn();
      this.ledger.ok();
      return { ok: true, value };
    } catch (err) {
      if (err instanceof Fenced || err instanceof Conflict) {
        this.ledger.refused();
        return { ok: false, refused: true };
      }
      this.ledger.fail(method, err, target);
      return { ok: false, refused: false };
    } finally {
      const ms = performance.now() - sent;
      this.ledger.took(ms, ms > this.opts.deadlineMs + SCHEDULING_SLACK_MS);
    }
  }

  start(): void {
    for (let c = 0; c < this.opts.clients; c++) {
      const name = `client-${c}`;
      const db = this.client();
      const late: LateResolve[] = [];
      for (let l = 0; l < this.opts.loopsPerClient; l++) this.loops.push(this.writeLoop(db, name, l, late));
      this.loops.push(this.leaseLoop(db, name, `faults/lease-${c % Math.max(1, Math.floor(this.opts.clients / 2))}`));
    }
    this.loops.push(this.sweepLoop(this.client()));
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    await Promise.all(this.loops);
    for (const c of this.clients) c.close();
  }

  private async writeLoop(db: DatabaseClient, name: string, loop: number, late: LateResolve[]): Promise<void> {
    const signal = this.stopping.signal;
    // The loop's own node: its heartbeat, a daemon state and an attribute, each written with
    // a growing n (group-committed by the tier): the row must never hold less than the last acknowledged n.
    const own = await this.ownNode(db, name);
    // Writes name real targets: the shared work node exists before anything is enqueued to it.
    this.workNodeCreated ??= this.createUntil(db, name, this.workNode);
    if (!(await this.workNodeCreated)) return;
    for (let i = 0; !signal.aborted; i++) {
      await this.createNode(db, name);
      if (own) await this.periodicWrites(db, name, own, i);
      await this.enqueue(db, name, `${loop}.${i}.a`);
      await this.claimAndResolve(db, name, late, i);
      await this.enqueue(db, name, `${loop}.${i}.b`);
      await this.setConfig(db, `${name}/${loop}`, `faults-${i % this.opts.configKeys}`, i);
    }
  }

  private async createNode(db: DatabaseClient, client: string): Promise<void> {
    const uuid = randomUUID();
    const fqdn = `${uuid}.faults.example`;
    const sentAt = Date.now();
    const r = await this.call('CreateNode', () => db.createNode({ uuid, fqdn }), { kind: 'node', id: uuid, sentAt });
    if (r.ok) this.ledger.ack({ kind: 'node', uuid, fqdn, sentAt, client });
  }

  /** A node for a loop's periodic writes; created until it is (undefined when stopped first). */
  private async ownNode(db: DatabaseClient, client: string): Promise<string | undefined> {
    const uuid = randomUUID();
    return (await this.createUntil(db, client, uuid)) ? uuid : undefined;
  }

  /** Creates node `uuid` until it is (false when stopped first). */
  private async createUntil(db: DatabaseClient, client: string, uuid: string): Promise<boolean> {
    while (!this.stopping.signal.aborted) {
      const sentAt = Date.now();
      const r = await this.call('CreateNode', () => db.createNode({ uuid, fqdn: `${uuid}.faults.example` }));
      if (r.ok) {
        this.ledger.ack({ kind: 'node', uuid, fqdn: `${uuid}.faults.example`, sentAt, client });
        return true;
      }
      await pause(100, this.stopping.signal);
    }
    return false;
  }

  /** The node-agent writes the tier group-commits: heartbeat, daemon state, attribute. */
  private async periodicWrites(db: DatabaseClient, client: string, node: string, n: number): Promise<void> {
    let sentAt = Date.now();
    const hb = await this.call('NodeHeartbeat', () => db.nodeHeartbeat(node, { client, n }));
    if (hb.ok) this.ledger.ack({ kind: 'heartbeat', node, n, sentAt, client });
    sentAt = Date.now();
    const ds = await this.call('SetNodeDaemonState', () => db.setNodeDaemonState(node, 'faults', 'RUNNING', String(n)));
    if (ds.ok) this.ledger.ack({ kind: 'daemon_state', node, daemon: 'faults', n, sentAt, client });
    sentAt = Date.now();
    const at = await this.call('SetObjectAttributes', () => db.setObjectAttributes('NODE', node, { seq: n }));
    if (at.ok) this.ledger.ack({ kind: 'attribute', node, key: 'seq', n, sentAt, client });
  }

  private async enqueue(db: DatabaseClient, client: string, n: string): Promise<void> {
    const id = randomUUID();
    const payload = { client, n };
    const sentAt = Date.now();
    const r = await this.call('Enqueue', () => db.enqueue({ id, nodeUuid: this.workNode, queue: WORK_QUEUE, payload }), { kind: 'enqueue', id, sentAt });
    if (r.ok) this.ledger.ack({ kind: 'enqueue', id, nodeUuid: this.workNode, queue: WORK_QUEUE, payload: JSON.stringify(payload), sentAt, client });
  }

  private async resolve(db: DatabaseClient, client: string, id: string, epoch: string, isLate: boolean): Promise<void> {
    const sentAt = Date.now();
    const r = await this.call('Resolve', () => db.resolve(id, epoch, 'SUCCEEDED', { by: client }));
    if (r.ok) this.ledger.ack({ kind: 'resolve', id, epoch, outcome: 'SUCCEEDED', late: isLate, sentAt, client });
  }

  private async claimAndResolve(db: DatabaseClient, client: string, late: LateResolve[], i: number): Promise<void> {
    // A holder that comes back after its lease: its Resolve is fenced if the item moved on.
    const due = late[0];
    if (due && due.dueAt <= Date.now()) {
      late.shift();
      await this.resolve(db, client, due.id, due.epoch, true);
    }
    const leaseMs = this.opts.claimLeaseMs;
    const sentAt = Date.now();
    const r = await this.call('Dequeue', () => db.dequeue({ nodeUuid: this.workNode, queues: [WORK_QUEUE], limit: 2, leaseMs, holder: client }));
    if (!r.ok) return;
    // Every claim is recorded as answered now, before any Resolve is awaited.
    for (const c of r.value) {
      const expiresUs = isoMicros(c.leaseExpiresAt);
      this.ledger.ack({ kind: 'claim', id: c.item.id, epoch: c.epoch, holder: client, startUs: expiresUs - leaseMs * 1000, expiresUs, sentAt, client });
    }
    for (const [k, c] of r.value.entries()) {
      if ((i + k) % 10 === 9) late.push({ id: c.item.id, epoch: c.epoch, dueAt: Date.now() + leaseMs + this.opts.sweepEveryMs });
      else await this.resolve(db, client, c.item.id, c.epoch, false);
    }
  }

  /** Read-modify-write at the version read; `writer` is one loop (its versions of a key must grow). */
  private async setConfig(db: DatabaseClient, writer: string, key: string, n: number): Promise<void> {
    const current = await this.call('GetClusterConfig', () => db.getClusterConfig(key));
    if (!current.ok) return;
    const value = { writer, n };
    const expectedVersion = current.value?.version ?? '-1';
    const sentAt = Date.now();
    const r = await this.call('SetClusterConfig', () => db.setClusterConfig(key, value, { expectedVersion }));
    if (r.ok) this.ledger.ack({ kind: 'config', key, version: r.value, value: JSON.stringify(value), sentAt, client: writer });
  }

  /** Competes for `name` with another client: renews while it holds (by its own clock), else tries to acquire. */
  private async leaseLoop(db: DatabaseClient, holder: string, name: string): Promise<void> {
    const ttl = this.opts.leaseTtlMs;
    const signal = this.stopping.signal;
    let held: { token: string; until: number } | undefined;
    while (!signal.aborted) {
      const sentAt = Date.now();
      if (held && sentAt < held.until) {
        const token = held.token;
        const r = await this.call('RenewLease', () => db.renewLease(name, holder, token, ttl));
        if (r.ok) {
          const expiresUs = isoMicros(r.value.expiresAt);
          this.ledger.ack({ kind: 'lease', name, holder, token, via: 'renew', startUs: expiresUs - ttl * 1000, expiresUs, sentAt, client: holder });
          held = { token, until: sentAt + ttl - ttl / 5 };
        } else if (r.refused) held = undefined;
      } else {
        held = await this.acquire(db, name, holder, sentAt);
      }
      await pause(Math.floor(ttl / 6), signal);
    }
  }

  private async acquire(db: DatabaseClient, name: string, holder: string, sentAt: number): Promise<{ token: string; until: number } | undefined> {
    const ttl = this.opts.leaseTtlMs;
    const r = await this.call('AcquireLease', () => db.acquireLease(name, holder, ttl));
    if (!r.ok) return undefined;
    if (!r.value.acquired) return undefined;
    const { token, expiresAt } = r.value.lease;
    const expiresUs = isoMicros(expiresAt);
    this.ledger.ack({ kind: 'lease', name, holder, token, via: 'acquire', startUs: expiresUs - ttl * 1000, expiresUs, sentAt, client: holder });
    // The holder stops acting on its own deadline: the send time plus the lease, less a fifth.
    return { token, until: sentAt + ttl - ttl / 5 };
  }

  /** The recovery sweep, as the maintenance daemon runs it: under a lease, fenced by its token. */
  private async sweepLoop(db: DatabaseClient): Promise<void> {
    const name = 'faults/sweep';
    const holder = 'sweeper';
    const signal = this.stopping.signal;
    while (!signal.aborted) {
      const held = await this.acquire(db, name, holder, Date.now());
      if (held) {
        const r = await this.call('RequeueExpiredClaims', () => db.requeueExpiredClaims({ name, holder, token: held.token }));
        if (r.ok) this.requeued += r.value;
      }
      await pause(this.opts.sweepEveryMs, signal);
    }
  }
}
