// The ledger of a fault run: every write the tier acknowledged (what it was, when it was
// sent and answered, in which phase), every failed call and every refusal (Fenced,
// Conflict: the tier answered, and said no). The driver reads it to time recoveries;
// invariants.ts and verify.ts judge it against the rules and against MariaDB.
import { noEffect } from '../../proto/errors.js';
import type { MethodName } from '../../proto/types.js';
import { RETRY_CLASS } from '../../client/methods.js';
import type { RetryClass } from '../../client/methods.js';

interface Stamp {
  /** Wall ms when the call was sent, and when its answer arrived. */
  sentAt: number;
  ackAt: number;
  phase: string;
  client: string;
}

/** CreateNode answered (created or an identical retry): the row exists. */
export interface NodeAck extends Stamp {
  kind: 'node';
  uuid: string;
  fqdn: string;
}

/** Enqueue answered: the item exists once, with this node, queue and payload. */
export interface EnqueueAck extends Stamp {
  kind: 'enqueue';
  id: string;
  nodeUuid: string;
  queue: string;
  payload: string;
}

/** A claim Dequeue answered: `holder` owns item `id` at `epoch` from startUs to expiresUs (database time, µs). */
export interface ClaimAck extends Stamp {
  kind: 'claim';
  id: string;
  epoch: string;
  holder: string;
  startUs: number;
  expiresUs: number;
}

/** Resolve answered: the item is finished with `outcome` at `epoch`, for good. */
export interface ResolveAck extends Stamp {
  kind: 'resolve';
  id: string;
  epoch: string;
  outcome: 'SUCCEEDED' | 'FAILED';
  /** A resolve sent after the claim's lease ran out (the holder "came back late"). */
  late: boolean;
}

/** SetClusterConfig answered `version` for `value` (JSON text). */
export interface ConfigAck extends Stamp {
  kind: 'config';
  key: string;
  version: string;
  value: string;
}

/** AcquireLease (acquired) or RenewLease answered: `holder` holds `name` at `token` from startUs to expiresUs. */
export interface LeaseAck extends Stamp {
  kind: 'lease';
  name: string;
  holder: string;
  token: string;
  via: 'acquire' | 'renew';
  startUs: number;
  expiresUs: number;
}

/** NodeHeartbeat answered (group-committed): `node`'s stats carry `n` or a later one of the same writer. */
export interface HeartbeatAck extends Stamp {
  kind: 'heartbeat';
  node: string;
  n: number;
}

/** SetNodeDaemonState answered (group-committed, with its change row): the message is `n` or later. */
export interface DaemonStateAck extends Stamp {
  kind: 'daemon_state';
  node: string;
  daemon: string;
  n: number;
}

/** SetObjectAttributes answered (group-committed) on node `node`: attribute `key` holds `n` or later. */
export interface AttributeAck extends Stamp {
  kind: 'attribute';
  node: string;
  key: string;
  n: number;
}

export type Ack = NodeAck | EnqueueAck | ClaimAck | ResolveAck | ConfigAck | LeaseAck | HeartbeatAck | DaemonStateAck | AttributeAck;
export type AckKind = Ack['kind'];
/** An ack as handed in: the ledger stamps the answer time and the phase. */
export type AckInput = Ack extends infer A ? (A extends Ack ? Omit<A, 'phase' | 'ackAt'> : never) : never;

/** A failed write whose id the load chose: MariaDB says whether, and when, it took effect anyway. */
export interface FailedTarget {
  kind: 'enqueue' | 'node';
  id: string;
  /** Wall ms the call was sent (its deadline runs from here). */
  sentAt: number;
}

export interface Failure {
  method: MethodName;
  retryClass: RetryClass;
  /** The client's error name (DatabaseUnavailable, DatabaseError, ...) and gRPC code. */
  error: string;
  code: number | undefined;
  /** The refusal said nothing of the call took effect (NO_EFFECT_HEADER in its trailers). */
  noEffect: boolean;
  message: string;
  at: number;
  phase: string;
  target?: FailedTarget;
}

export interface PhaseCounts {
  ok: number;
  failed: number;
  /** Fenced or Conflict: the tier answered no. */
  refused: number;
  /** Calls (of any outcome) that ended later than their deadline allows (Load says what that is). */
  late: number;
  /** The longest a call took, sent to settled (ms). */
  longestCallMs: number;
}

/** Database time as µs since the epoch, from the tier's ISO form ('2026-11-29T10:14:49.123456Z'). */
export function isoMicros(iso: string): number {
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?Z$/.exec(iso);
  if (!m) throw new Error(`not a database time: "${iso}"`);
  return Date.parse(`${m[1]}Z`) * 1000 + Number((m[2] ?? '').padEnd(6, '0'));
}

export class Ledger {
  /** In the order they were answered (ackAt never decreases). */
  readonly acks: Ack[] = [];
  readonly failures: Failure[] = [];
  private readonly counts = new Map<string, PhaseCounts>();
  private current = 'start';

  get phase(): string {
    return this.current;
  }

  set phase(name: string) {
    this.current = name;
  }

  private countsOf(phase: string): PhaseCounts {
    let c = this.counts.get(phase);
    if (!c) {
      c = { ok: 0, failed: 0, refused: 0, late: 0, longestCallMs: 0 };
      this.counts.set(phase, c);
    }
    return c;
  }

  /** An answered call (a read, a write, or a lease that someone else holds). */
  ok(): void {
    this.countsOf(this.current).ok += 1;
  }

  /** An acknowledged write (its call is counted by ok()). */
  ack(entry: AckInput): void {
    this.acks.push({ ...entry, ackAt: Date.now(), phase: this.current } as Ack);
  }

  refused(): void {
    this.countsOf(this.current).refused += 1;
  }

  /** A call settled (whatever its outcome) after `ms`; `late`: after its deadline, with the slack. */
  took(ms: number, late: boolean): void {
    const c = this.countsOf(this.current);
    c.longestCallMs = Math.max(c.longestCallMs, Math.round(ms));
    if (late) c.late += 1;
  }

  fail(method: MethodName, err: unknown, target?: FailedTarget): void {
    const e = err as { name?: string; code?: number; message?: string; cause?: { metadata?: { get(key: string): unknown[] } } };
    this.countsOf(this.current).failed += 1;
    this.failures.push({
      method,
      retryClass: RETRY_CLASS[method],
      error: e.name ?? 'Error',
      code: typeof e.code === 'number' ? e.code : undefined,
      // The client's error keeps the gRPC error, trailers included, as its cause.
      noEffect: noEffect(e.cause?.metadata),
      message: String(e.message ?? err).slice(0, 300),
      at: Date.now(),
      phase: this.current,
      ...(target ? { target } : {}),
    });
  }

  phaseCounts(phase: string): PhaseCounts {
    return { ...this.countsOf(phase) };
  }

  /** Index of the first ack answered at or after `t` (acks are in answer order). */
  private firstAnsweredFrom(t: number): number {
    let lo = 0;
    let hi = this.acks.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.acks[mid] as Ack).ackAt < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The first acknowledged write that was sent at or after `t` (the recovery after a fault at `t`). */
  firstAckSentFrom(t: number): Ack | undefined {
    for (let i = this.firstAnsweredFrom(t); i < this.acks.length; i++) {
      const a = this.acks[i] as Ack;
      if (a.sentAt >= t) return a;
    }
    return undefined;
  }

  /** The longest stretch within [from, to] without an acknowledged write, in ms. */
  longestGap(from: number, to: number): number {
    let last = from;
    let gap = 0;
    for (let i = this.firstAnsweredFrom(from); i < this.acks.length; i++) {
      const a = this.acks[i] as Ack;
      if (a.ackAt > to) break;
      gap = Math.max(gap, a.ackAt - last);
      last = a.ackAt;
    }
    return Math.max(gap, to - last);
  }

  /** Acks answered before `t`. */
  ackedBefore(t: number): Ack[] {
    return this.acks.slice(0, this.firstAnsweredFrom(t));
  }

  /** Resolves once `test` holds (checked every 20 ms), or rejects after `timeoutMs`. */
  static async until(test: () => boolean, timeoutMs: number, what: string): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!test()) {
      if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}
