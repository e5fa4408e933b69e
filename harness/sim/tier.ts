// The simulated tier's one database state (harness/sim/): nodes, daemon states with the
// operator hold, queue items with claims and epochs, leases with fencing tokens, one
// upgradeable static object type (blobs) with versions, and the change log. Each write
// applies at one sim instant, as one MariaDB transaction would, and publishes its change
// rows with the kinds the real handlers publish (server/rpc/*). Answers are the generated
// proto's output shapes (proto/gen), so the real client modules decode them. The rules
// follow the real handlers:
// - SetNodeDaemonState: RUNNING or IDLE while the hold is set (and not released by the
//   same write) is refused FAILED_PRECONDITION, nothing written; a hold may be set only
//   with STOPPING or STOPPED; the daemon's own write (caller = the state's daemon and node,
//   no hold change) publishes kind 'reported', any other 'state'
//   (server/rpc/daemon-state/{handlers,writes,queries}.ts);
// - queue: Dequeue bumps the epoch and counts the attempt; RenewClaim, Resolve and Release
//   need the epoch and state CLAIMED (a repeat of an accepted Resolve is answered OK);
//   RequeueExpiredClaims puts expired claims back, bumping the epoch
//   (server/rpc/queue, server/rpc/maintenance);
// - leases: a take of a free or expired lease bumps the token and publishes 'state'; the
//   holder's acquire extends it; renew needs holder, token and a live lease; a release and
//   an announced end publish 'updated' (server/rpc/leases).
import type { ResponseOut } from '@sfdb/proto/types';
import { topics } from '@sfdb/proto/topics';
import type { ChangeKindName } from '@sfdb/proto/topics';
import { CHANGE_KIND_ENUM } from '@sfdb/proto/topics';
import type { Change__Output } from '@sfdb/proto/gen/sfdb/v1/Change';
import type { Claim__Output } from '@sfdb/proto/gen/sfdb/v1/Claim';
import type { Lease__Output } from '@sfdb/proto/gen/sfdb/v1/Lease';
import type { NodeDaemonState__Output } from '@sfdb/proto/gen/sfdb/v1/NodeDaemonState';
import type { StaticObject__Output } from '@sfdb/proto/gen/sfdb/v1/StaticObject';
import type { WorkItem__Output } from '@sfdb/proto/gen/sfdb/v1/WorkItem';

/** A refusal with a gRPC status name, as the real tier's error classes answer. */
export class SimRefusal extends Error {
  constructor(
    readonly status: 'FAILED_PRECONDITION' | 'NOT_FOUND' | 'INVALID_ARGUMENT' | 'UNIMPLEMENTED',
    message: string,
  ) {
    super(message);
  }
}

export interface DaemonRow {
  state: NodeDaemonState__Output['state'];
  message: string;
  hold: boolean;
  updatedAt: number;
}

export type ItemState = 'QUEUED' | 'CLAIMED' | 'SUCCEEDED' | 'FAILED';

export interface Item {
  id: string;
  node: string;
  queue: string;
  payload: string;
  state: ItemState;
  epoch: number;
  attempts: number;
  notBefore: number;
  claimExpiresAt: number;
  holder: string;
  createdAt: number;
  /** Epochs whose Resolve the tier accepted (at most one, by the fence). */
  resolvedBy: number[];
  /** What happened to it: `12.345s dequeued epoch 2`. */
  story: string[];
}

export interface LeaseRow {
  name: string;
  holder: string;
  token: number;
  expiresAt: number;
}

export interface Blob {
  uuid: string;
  version: number;
  /** (time, version) of every write: what was current when. */
  history: { at: number; version: number }[];
}

export interface ChangeRow {
  seq: number;
  topic: string;
  objectType: string;
  id: string;
  kind: ChangeKindName;
}

const EPOCH_MS = Date.UTC(2026, 0, 1);
const iso = (t: number): string => new Date(EPOCH_MS + Math.round(t)).toISOString();

/** Who calls: the x-sfdb-caller-* identity of the call's metadata. */
export interface Caller {
  daemon: string;
  node: string;
}

export class SimDatabase {
  readonly nodes = new Map<string, { fqdn: string; createdAt: number }>();
  readonly daemons = new Map<string, DaemonRow>();
  readonly items = new Map<string, Item>();
  readonly leases = new Map<string, LeaseRow>();
  readonly blobs = new Map<string, Blob>();
  readonly log: ChangeRow[] = [];
  /** Told of every commit that published changes (the replicas wake their long-polls). */
  onCommit: () => void = () => {};
  /** Told when a lease's end is due, to announce it unrenewed (the real tier's lease-expiry loop). */
  scheduleLeaseEnd: (name: string, at: number) => void = () => {};

  constructor(readonly now: () => number) {}

  get seq(): number {
    return this.log.length;
  }

  private publish(rows: Omit<ChangeRow, 'seq'>[]): number {
    for (const r of rows) this.log.push({ ...r, seq: this.log.length + 1 });
    if (rows.length > 0) this.onCommit();
    return this.log.length;
  }

  /** The changes past `cursor` on `topicSet`, each (topic, id) once with its latest kind; `wakes` when one of them may wake a poll. */
  changesPast(cursor: number, topicSet: ReadonlySet<string>, quiet: ReadonlySet<string>): { changes: Change__Output[]; wakes: boolean } {
    const latest = new Map<string, ChangeRow>();
    let wakes = false;
    for (let i = cursor; i < this.log.length; i++) {
      const c = this.log[i] as ChangeRow;
      if (!topicSet.has(c.topic)) continue;
      // A report on a quiet topic does not wake; any other change (a report over it too) does.
      if (!(c.kind === 'reported' && quiet.has(c.topic))) wakes = true;
      const key = `${c.topic}\n${c.id}`;
      latest.delete(key);
      latest.set(key, c);
    }
    const changes = [...latest.values()].map((c) => ({ seq: String(c.seq), topic: c.topic, objectType: c.objectType, id: c.id, kind: CHANGE_KIND_ENUM[c.kind] }));
    return { changes, wakes };
  }

  // ---- nodes ----
  getNode(uuid: string): ResponseOut<'GetNode'> {
    const n = this.nodes.get(uuid);
    if (!n) return { found: false, node: null };
    return { found: true, node: { uuid, fqdn: n.fqdn, ipAddress: '10.1.0.1', version: '1', createdAt: iso(n.createdAt), updatedAt: iso(n.createdAt) } };
  }

  // ---- daemon states ----
  private daemonOut(node: string, daemon: string, row: DaemonRow): NodeDaemonState__Output {
    return { nodeUuid: node, daemon, state: row.state, message: row.message, updatedAt: iso(row.updatedAt), operatorHold: row.hold };
  }

  daemonRow(node: string, daemon: string): DaemonRow | undefined {
    return this.daemons.get(`${node}/${daemon}`);
  }

  setDaemonState(
    req: { nodeUuid: string; daemon: string; state: string; message?: string; operatorHold?: string },
    caller: Caller,
  ): ResponseOut<'SetNodeDaemonState'> {
    const state = req.state as DaemonRow['state'];
    const hold = req.operatorHold === 'OPERATOR_HOLD_SET' ? 'set' : req.operatorHold === 'OPERATOR_HOLD_RELEASE' ? 'release' : undefined;
    if (hold === 'set' && state !== 'STOPPING' && state !== 'STOPPED') throw new SimRefusal('INVALID_ARGUMENT', 'operator_hold: OPERATOR_HOLD_SET needs state STOPPING or STOPPED');
    if (!this.nodes.has(req.nodeUuid)) throw new SimRefusal('NOT_FOUND', `node_uuid: node ${req.nodeUuid} does not exist`);
    const key = `${req.nodeUuid}/${req.daemon}`;
    const row = this.daemons.get(key);
    if (row?.hold && hold !== 'release' && (state === 'RUNNING' || state === 'IDLE')) {
      throw new SimRefusal('FAILED_PRECONDITION', `daemon ${req.daemon} on node ${req.nodeUuid} is held stopped by an operator: ${state} not recorded`);
    }
    const next: DaemonRow = { state, message: req.message ?? '', hold: hold === 'set' ? true : hold === 'release' ? false : (row?.hold ?? false), updatedAt: this.now() };
    this.daemons.set(key, next);
    const reported = hold === undefined && caller.daemon === req.daemon && caller.node === req.nodeUuid;
    const seq = this.publish([{ topic: topics.daemonState(req.nodeUuid, req.daemon), objectType: 'daemon_state', id: req.daemon, kind: reported ? 'reported' : 'state' }]);
    return { daemonState: this.daemonOut(req.nodeUuid, req.daemon, next), changeSeq: String(seq) };
  }

  getDaemonState(req: { nodeUuid: string; daemon: string }): ResponseOut<'GetNodeDaemonState'> {
    const row = this.daemons.get(`${req.nodeUuid}/${req.daemon}`);
    return row ? { found: true, daemonState: this.daemonOut(req.nodeUuid, req.daemon, row) } : { found: false, daemonState: null };
  }

  // ---- queue ----
  enqueue(id: string, node: string, queue: string, payload: unknown): void {
    if (this.items.has(id)) return;
    this.items.set(id, { id, node, queue, payload: JSON.stringify(payload), state: 'QUEUED', epoch: 0, attempts: 0, notBefore: this.now(), claimExpiresAt: 0, holder: '', createdAt: this.now(), resolvedBy: [], story: [] });
    this.tell(this.items.get(id) as Item, 'enqueued');
    this.publish([{ topic: topics.queue(node, queue), objectType: 'work_item', id, kind: 'created' }]);
  }

  private tell(i: Item, what: string): void {
    i.story.push(`${(this.now() / 1000).toFixed(3)}s ${what}`);
  }

  private itemOut(i: Item): WorkItem__Output {
    const claimed = i.state === 'CLAIMED';
    return {
      id: i.id, nodeUuid: i.node, queue: i.queue, payload: i.payload, state: i.state, epoch: String(i.epoch), attempts: i.attempts, createdAt: iso(i.createdAt), updatedAt: iso(this.now()),
      // The simulation keeps no result or release message: nothing it runs reads them.
      result: '', message: '', claimHolder: claimed ? i.holder : '', claimExpiresAt: claimed ? iso(i.claimExpiresAt) : '', notBefore: iso(i.notBefore),
    };
  }

  dequeue(req: { nodeUuid: string; queues: string[]; limit?: number; leaseMs?: number | string; holder?: string }): ResponseOut<'Dequeue'> {
    const now = this.now();
    const limit = Math.max(1, Number(req.limit ?? 1));
    const leaseMs = Number(req.leaseMs ?? 0) || 60_000;
    const claims: Claim__Output[] = [];
    let nextDue = 0;
    for (const queue of req.queues) {
      for (const i of this.items.values()) {
        if (i.node !== req.nodeUuid || i.queue !== queue || i.state !== 'QUEUED') continue;
        if (i.notBefore > now) {
          const due = i.notBefore - now;
          nextDue = nextDue === 0 ? due : Math.min(nextDue, due);
          continue;
        }
        if (claims.length >= limit) continue;
        i.state = 'CLAIMED';
        i.epoch += 1;
        i.attempts += 1;
        i.claimExpiresAt = now + leaseMs;
        i.holder = req.holder ?? '';
        this.tell(i, `claimed at epoch ${i.epoch}`);
        claims.push({ item: this.itemOut(i), epoch: String(i.epoch), holder: i.holder, leaseExpiresAt: iso(i.claimExpiresAt) });
      }
    }
    // As the tier answers: the next delayed item's due time when the batch is short of full.
    return { claims, nextDueInMs: String(claims.length >= limit || nextDue === 0 ? 0 : Math.max(1, Math.ceil(nextDue))) };
  }

  private claimed(id: string, epoch: string): Item {
    const i = this.items.get(id);
    if (!i) throw new SimRefusal('NOT_FOUND', `id: work item ${id} does not exist`);
    if (String(i.epoch) !== epoch || i.state !== 'CLAIMED') throw new SimRefusal('FAILED_PRECONDITION', `work item ${id} is at epoch ${i.epoch} (${i.state}), not ${epoch}`);
    return i;
  }

  renewClaim(req: { id: string; epoch: string; leaseMs?: number | string }): ResponseOut<'RenewClaim'> {
    const i = this.claimed(req.id, req.epoch);
    i.claimExpiresAt = this.now() + (Number(req.leaseMs ?? 0) || 60_000);
    this.tell(i, `renewed at epoch ${i.epoch}`);
    return { leaseExpiresAt: iso(i.claimExpiresAt) };
  }

  resolve(req: { id: string; epoch: string; outcome: string }): ResponseOut<'Resolve'> {
    const i = this.items.get(req.id);
    // A repeat of a Resolve that went through: same claim, same outcome.
    if (i && String(i.epoch) === req.epoch && i.state === req.outcome) return {};
    const c = this.claimed(req.id, req.epoch);
    c.state = req.outcome === 'FAILED' ? 'FAILED' : 'SUCCEEDED';
    c.resolvedBy.push(c.epoch);
    c.holder = '';
    this.tell(c, `resolved ${c.state} at epoch ${c.epoch}`);
    return {};
  }

  release(req: { id: string; epoch: string; delayMs?: number | string }): ResponseOut<'Release'> {
    const i = this.claimed(req.id, req.epoch);
    i.state = 'QUEUED';
    i.holder = '';
    i.notBefore = this.now() + Number(req.delayMs ?? 0);
    this.tell(i, `released at epoch ${i.epoch}, due in ${Number(req.delayMs ?? 0)} ms`);
    this.publish([{ topic: topics.queue(i.node, i.queue), objectType: 'work_item', id: i.id, kind: 'state' }]);
    return {};
  }

  requeueExpired(): ResponseOut<'RequeueExpiredClaims'> {
    const now = this.now();
    const rows: Omit<ChangeRow, 'seq'>[] = [];
    for (const i of this.items.values()) {
      if (i.state !== 'CLAIMED' || i.claimExpiresAt > now) continue;
      i.state = 'QUEUED';
      i.epoch += 1; // the old claim's writes are fenced
      i.holder = '';
      i.notBefore = now;
      this.tell(i, `claim expired: requeued at epoch ${i.epoch}`);
      rows.push({ topic: topics.queue(i.node, i.queue), objectType: 'work_item', id: i.id, kind: 'state' });
    }
    this.publish(rows);
    return { requeued: String(rows.length) };
  }

  // ---- leases ----
  private leaseOut(l: LeaseRow): Lease__Output {
    return { name: l.name, holder: l.holder, token: String(l.token), expiresAt: iso(l.expiresAt), remainingMs: String(Math.max(0, Math.round(l.expiresAt - this.now()))) };
  }

  /** True when the tier accepts (holder, token) as the live lease's fence now. */
  leaseAccepts(name: string, holder: string, token: string): boolean {
    const l = this.leases.get(name);
    return l !== undefined && l.holder === holder && String(l.token) === token && l.expiresAt > this.now();
  }

  acquireLease(req: { name: string; holder: string; ttlMs: number | string }): ResponseOut<'AcquireLease'> {
    const now = this.now();
    const ttl = Number(req.ttlMs);
    const l = this.leases.get(req.name) ?? { name: req.name, holder: '', token: 0, expiresAt: 0 };
    this.leases.set(req.name, l);
    if (l.holder !== '' && l.expiresAt > now && l.holder !== req.holder) return { acquired: false, lease: this.leaseOut(l), expiryAnnounced: true };
    if (l.holder === req.holder && l.expiresAt > now) {
      l.expiresAt = now + ttl;
    } else {
      l.holder = req.holder;
      l.token += 1;
      l.expiresAt = now + ttl;
      this.publish([{ topic: topics.lease(req.name), objectType: 'lease', id: req.name, kind: 'state' }]);
    }
    this.scheduleLeaseEnd(req.name, l.expiresAt);
    return { acquired: true, lease: this.leaseOut(l), expiryAnnounced: true };
  }

  renewLease(req: { name: string; holder: string; token: string; ttlMs: number | string }): ResponseOut<'RenewLease'> {
    const l = this.leases.get(req.name);
    if (!l || !this.leaseAccepts(req.name, req.holder, req.token)) throw new SimRefusal('FAILED_PRECONDITION', `lease ${req.name} is not held by ${req.holder} at token ${req.token}`);
    l.expiresAt = this.now() + Number(req.ttlMs);
    this.scheduleLeaseEnd(req.name, l.expiresAt);
    return { lease: this.leaseOut(l) };
  }

  releaseLease(req: { name: string; holder: string; token: string }): ResponseOut<'ReleaseLease'> {
    const l = this.leases.get(req.name);
    if (!l || l.holder !== req.holder || String(l.token) !== req.token) return { released: false };
    l.holder = '';
    l.expiresAt = 0;
    this.publish([{ topic: topics.lease(req.name), objectType: 'lease', id: req.name, kind: 'updated' }]);
    return { released: true };
  }

  /** The tier announces a lease that ended unrenewed (server/rpc/leases/expiry.ts). */
  announceLeaseEnd(name: string, at: number): void {
    const l = this.leases.get(name);
    if (l && l.holder !== '' && l.expiresAt === at) this.publish([{ topic: topics.lease(name), objectType: 'lease', id: name, kind: 'updated' }]);
  }

  // ---- static objects (blobs) ----
  createBlob(uuid: string): void {
    this.blobs.set(uuid, { uuid, version: 1, history: [{ at: this.now(), version: 1 }] });
    this.publish([{ topic: topics.staticValues('BLOB'), objectType: 'blob', id: uuid, kind: 'created' }]);
  }

  updateBlob(uuid: string): number {
    const b = this.blobs.get(uuid) as Blob;
    b.version += 1;
    b.history.push({ at: this.now(), version: b.version });
    this.publish([{ topic: topics.staticValues('BLOB'), objectType: 'blob', id: uuid, kind: 'updated' }]);
    return b.version;
  }

  getBlob(uuid: string): ResponseOut<'GetBlob'> {
    const b = this.blobs.get(uuid);
    if (!b) return { found: false, object: null };
    const object: StaticObject__Output = { uuid, namespace: '', nodeUuid: '', version: String(b.version), staticValues: JSON.stringify({ v: b.version }), createdAt: iso(0), updatedAt: iso(this.now()), secretFields: [] };
    return { found: true, object };
  }
}
