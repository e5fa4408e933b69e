// The simulated replicas (harness/sim/): each serves the one SimDatabase, holds its own
// long-polls and replica watches, and has a status the seed's fault plan moves:
// - up: answers;
// - frozen (SIGSTOP): requests wait in its socket buffers and are served when it thaws;
//   nothing it holds answers meanwhile; connections stay open (no FIN);
// - blackholed (the network drops its packets): it runs on, but nothing reaches it or
//   comes back; connections stay open, and TCP delivers what was sent each way once the
//   network heals, unless the keepalive dropped the connection first (an HTTP/2
//   connection cannot lose one stream's bytes and carry the next ping);
// - killed (and restarting): connections are reset at once, calls in flight fail, new
//   connections are refused until it is back, with a fresh change window (a cursor from
//   before answers resync).
// Peer health as server/changefeed/peer-probe.ts tells it: a peer silent (frozen,
// blackholed, killed) for PEER_UNRESPONSIVE_MS is named unresponsive at the next probe
// round (every PEER_PROBE_MS), and cleared at the first probe round it answers.
import type { Change__Output } from '@sfdb/proto/gen/sfdb/v1/Change';
import type { SimScheduler } from './scheduler.js';
import type { SimDatabase } from './tier.js';

/** The tier's defaults: SFDB_PEER_UNRESPONSIVE_MS and SFDB_PEER_PROBE_MS (server/settings.ts). */
export const PEER_UNRESPONSIVE_MS = 1300;
export const PEER_PROBE_MS = 250;

export type ReplicaStatus = 'up' | 'frozen' | 'blackholed' | 'killed';

/** A long-poll the replica holds: answered on a change that wakes it, at its timeout, or dropped. */
export interface HeldPoll {
  readonly topics: ReadonlySet<string>;
  readonly quiet: ReadonlySet<string>;
  readonly cursor: number;
  answer(r: { changes: Change__Output[]; cursor: string; resync: boolean }): void;
}

export interface HeldWatch {
  readonly known: string;
  answer(r: { version: string; unresponsive: string[] }): void;
}

export class SimReplica {
  status: ReplicaStatus = 'up';
  /** When the status last changed. */
  since = 0;
  /** Seq below which its window does not reach (set at each start). */
  base = 0;
  readonly polls = new Set<HeldPoll>();
  readonly watches = new Set<HeldWatch>();
  /** What reached it, or left it, while silent (frozen or blackholed): run when it answers again. */
  readonly silentWork: (() => void)[] = [];
  private unresponsive = new Set<string>();
  private generation = 0;
  version = '';

  constructor(
    readonly index: number,
    readonly address: string,
  ) {}

  get health(): { version: string; unresponsive: string[] } {
    return { version: this.version, unresponsive: [...this.unresponsive].sort() };
  }

  /** Names `peer` unresponsive (or no longer); answers the watches when the set changed. */
  mark(peer: string, unresponsive: boolean): void {
    if (unresponsive === this.unresponsive.has(peer)) return;
    if (unresponsive) this.unresponsive.add(peer);
    else this.unresponsive.delete(peer);
    this.generation += 1;
    this.version = this.unresponsive.size === 0 ? '' : String(this.generation);
    if (this.status === 'up') this.answerWatches();
  }

  answerWatches(): void {
    for (const w of [...this.watches]) {
      if (w.known === this.version) continue;
      this.watches.delete(w);
      w.answer(this.health);
    }
  }

  /** Answers every held poll a change past its cursor wakes (only while up). */
  wakePolls(db: SimDatabase): void {
    if (this.status !== 'up') return;
    for (const p of [...this.polls]) {
      const r = db.changesPast(p.cursor, p.topics, p.quiet);
      if (!r.wakes) continue;
      this.polls.delete(p);
      p.answer({ changes: r.changes, cursor: String(db.seq), resync: false });
    }
  }
}

/** Moves replicas between statuses and tells the peers, as the probes would. */
export class ReplicaSet {
  readonly replicas: SimReplica[];
  /** Told when a replica's status changes (the channels reset or revive connections). */
  readonly listeners = new Set<(r: SimReplica, was: ReplicaStatus) => void>();

  constructor(
    count: number,
    private readonly sched: SimScheduler,
    private readonly db: SimDatabase,
    private readonly random: () => number,
  ) {
    this.replicas = Array.from({ length: count }, (_, i) => new SimReplica(i, `10.0.0.${i + 1}:13005`));
    db.onCommit = () => {
      for (const r of this.replicas) r.wakePolls(db);
    };
  }

  get addresses(): string[] {
    return this.replicas.map((r) => r.address);
  }

  /** True when some replica is up. */
  anyUp(): boolean {
    return this.replicas.some((r) => r.status === 'up');
  }

  set(r: SimReplica, status: ReplicaStatus): void {
    const was = r.status;
    if (was === status) return;
    r.status = status;
    r.since = this.sched.now();
    if (status === 'killed') {
      // Its process is gone: what it held goes with it (the connections' reset fails the calls).
      r.polls.clear();
      r.watches.clear();
      r.silentWork.length = 0;
    }
    if (status === 'up' && was === 'killed') r.base = this.db.seq; // a fresh window
    for (const l of [...this.listeners]) l(r, was);
    if (status === 'up') {
      const work = r.silentWork.splice(0);
      for (const w of work) w();
      r.wakePolls(this.db);
      r.answerWatches();
    }
    this.tellPeers(r);
  }

  /** The other replicas' probes: silent for PEER_UNRESPONSIVE_MS, named at the next round; answering, cleared at the next. */
  private tellPeers(r: SimReplica): void {
    const silentSince = r.since;
    const silent = r.status !== 'up';
    for (const peer of this.replicas) {
      if (peer === r) continue;
      const round = Math.floor(this.random() * PEER_PROBE_MS);
      this.sched.after((silent ? PEER_UNRESPONSIVE_MS : 0) + round, () => {
        // Still as it was when this probe's verdict was scheduled.
        if (r.since !== silentSince) return;
        peer.mark(r.address, silent);
      });
    }
  }
}
