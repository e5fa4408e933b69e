// A scripted stand-in for the client, for daemon unit tests with a fake clock: it
// records every call with the fake time, and answers from test-controlled state.
import { DatabaseUnavailable, Fenced } from '../../client/errors.js';
import type { FakeClock } from './fake-clock.js';

export interface RecordedCall {
  op: string;
  at: number;
}

export class FakeDaemonDb {
  calls: RecordedCall[] = [];
  /** undefined: no daemon state (its node was deleted). */
  daemonState: string | undefined = 'RUNNING';
  /** While true every call fails with DatabaseUnavailable. */
  down = false;
  /** Items waiting in the queue (dequeue hands them out). */
  queue: { id: string; queue: string; payload: string }[] = [];
  resolved: string[] = [];
  released: string[] = [];
  leaseHeldByOther = false;
  private epoch = 0;

  constructor(private readonly clock: FakeClock) {}

  private record(op: string): void {
    this.calls.push({ op, at: this.clock.now() });
    if (this.down) throw new DatabaseUnavailable(`${op}: down`, 14, op);
  }

  times(op: string): number[] {
    return this.calls.filter((c) => c.op === op).map((c) => c.at);
  }

  async getNode(uuid: string) {
    this.record('GetNode');
    return { uuid, fqdn: 'n.example.com', ipAddress: '', version: '1', createdAt: '', updatedAt: '' };
  }

  /** Held stopped by an operator: RUNNING and IDLE are refused, as the tier refuses them. */
  operatorHold = false;
  /** The message of the last state written. */
  daemonMessage = '';
  /** The seq a write answers as the change it published ('0': none said). */
  changeSeq = '0';

  async getNodeDaemonState(nodeUuid: string, daemon: string) {
    this.record('GetNodeDaemonState');
    if (this.daemonState === undefined) return undefined;
    return { nodeUuid, daemon, state: this.daemonState as 'RUNNING', message: this.daemonMessage, updatedAt: '', operatorHold: this.operatorHold };
  }

  async setNodeDaemonState(nodeUuid: string, daemon: string, state: string, message = '') {
    this.record(`SetNodeDaemonState:${state}`);
    if (this.operatorHold && (state === 'RUNNING' || state === 'IDLE')) {
      throw new Fenced(`daemon ${daemon} on node ${nodeUuid} is held stopped by an operator`, 9, 'SetNodeDaemonState');
    }
    this.daemonState = state;
    this.daemonMessage = message;
    return { nodeUuid, daemon, state: state as 'RUNNING', message, updatedAt: '', operatorHold: this.operatorHold, changeSeq: this.changeSeq };
  }

  /** What a Dequeue short of a full batch answers as next_due_in_ms (0: no delayed item). */
  nextDueInMs = 0;

  async dequeueWithNextDue(input: { limit?: number }) {
    const claims = await this.dequeue(input);
    return { claims, nextDueInMs: claims.length < (input.limit ?? 1) ? this.nextDueInMs : 0 };
  }

  async dequeue(input: { limit?: number }) {
    this.record('Dequeue');
    const taken = this.queue.splice(0, input.limit ?? 1);
    return taken.map((t) => ({
      item: { id: t.id, nodeUuid: '', queue: t.queue, payload: t.payload, state: 'CLAIMED' as const, epoch: String(++this.epoch), attempts: 1, createdAt: '', updatedAt: '' },
      epoch: String(this.epoch),
      holder: '',
      leaseExpiresAt: '',
    }));
  }

  async renewClaim() {
    this.record('RenewClaim');
    return '';
  }

  async resolve(id: string) {
    this.record('Resolve');
    this.resolved.push(id);
  }

  async release(id: string) {
    this.record('Release');
    this.released.push(id);
  }

  async acquireLease(name: string, holder: string) {
    this.record('AcquireLease');
    const lease = { name, holder: this.leaseHeldByOther ? 'other' : holder, token: '1', expiresAt: '', remainingMs: '0' };
    return { acquired: !this.leaseHeldByOther, lease };
  }

  async renewLease(name: string, holder: string) {
    this.record('RenewLease');
    if (this.leaseHeldByOther) throw new Fenced('taken', 9, 'RenewLease');
    return { name, holder, token: '1', expiresAt: '', remainingMs: '0' };
  }

  async releaseLease() {
    this.record('ReleaseLease');
    return true;
  }

  /** While set, RequeueExpiredClaims answers when it settles (a job outliving the lease). */
  requeueGate: Promise<void> | undefined;

  async requeueExpiredClaims() {
    this.record('RequeueExpiredClaims');
    await this.requeueGate;
    return 0;
  }

  async sweepReplicaRegistry() {
    this.record('SweepReplicaRegistry');
    return [];
  }

  async pruneEvents() {
    this.record('PruneEvents');
    return 0;
  }

  async pruneChanges() {
    this.record('PruneChanges');
    return { deleted: 0, more: false, retiredFolded: 0 };
  }

  async nodeHeartbeat() {
    this.record('NodeHeartbeat');
    return '';
  }
}
