// The live peers of this replica (from the replica registry), the pokes it sends them
// after its own commits — "these topics moved, up to these sequence numbers", never data;
// the peer reads the rows itself; a lost poke only delays the peer's waiters to its next
// tail — and the announcement it sends them once registered. A poke is accepted only from
// a live registered replica (id and owner token).
//
// Why announce: a replica re-reads the registry every SFDB_REPLICA_LIVE_MS (15 s), and it
// probes (peer-probe.ts) only the peers it has read. A replica that started since, and
// froze, would not be named unresponsive until that read, and the processes whose
// long-poll it holds would stay deaf as long. So a replica that has registered sends each
// live peer an empty PokeChanges; the peer reads the registry at once (a read that starts
// after the announcement arrived, so it sees the new row) and probes it from then on. The
// peer that registers second always announces to the first: each reads the registry after
// writing its own row, so whichever reads last sees the other. A quiet cluster pays
// nothing for it: one read per announcement received, none periodic.
import { systemClock } from '@sfdb/proto/runtime/clock';
import type { Clock } from '@sfdb/proto/runtime/clock';
import type { Logger } from '@sfdb/proto/runtime/log';
import type { Sql } from '../db/sql.js';
import { PermissionDeniedError, UnavailableError } from '../errors.js';
import type { Metrics } from '../metrics.js';
import { selectLiveReplicas } from '../registry/queries.js';
import type { TlsFiles } from '../config.js';
import { GrpcPeerLink, isRefusal } from './peer-link.js';
import type { PeerCallError, PeerLink } from './peer-link.js';

export interface Peer {
  replicaId: string;
  ownerToken: string;
  address: string;
}

/** Live replicas by database time (the registry's liveness rule). One read per refresh. */
async function selectLivePeers(sql: Sql, liveMs: number): Promise<Peer[]> {
  const rows = await selectLiveReplicas(sql, liveMs);
  return rows.map((r) => ({ replicaId: r.replica_id, ownerToken: r.owner_token, address: r.address }));
}

const POKE_DEADLINE_MS = 1000;
/**
 * An unknown sender (an announcement, or a poke from a replica not read yet) makes the
 * registry be read again, at most this often: the senders of the same second share one read.
 */
const UNKNOWN_SENDER_REFRESH_MS = 1000;
/** An announcement waits for that read: up to UNKNOWN_SENDER_REFRESH_MS, then the read itself. */
const ANNOUNCE_DEADLINE_MS = 3000;
/**
 * The waits before an unacknowledged announcement is sent again; then it is given up (the
 * peer's periodic read finds this replica). Not jittered: one announcement per peer per
 * start, no crowd to spread.
 */
export const ANNOUNCE_RETRY_MS: readonly number[] = [250, 500, 1000, 2000];

export interface PeerOptions {
  /** mTLS material: pokes then present this replica's certificate. */
  tls?: TlsFiles;
  self: { replicaId: string; ownerToken: () => string };
  liveMs: number;
  /** The peers' gRPC addresses, after each read of the registry (the probe's list). */
  onList?: (addresses: string[]) => void;
}

export class Peers {
  private peers = new Map<string, Peer>();
  /** This turn's commits, poked to the peers once the turn ends. */
  private pending: { topics: Set<string>; seqs: string[] } | undefined;
  private reads = 0;
  private appliedRead = 0;
  private inFlight: Promise<boolean> | undefined;
  /** The read for unknown senders that starts once the rate limit allows; shared by those arriving before it starts. */
  private queued: Promise<boolean> | undefined;
  private lastSenderReadAt = -Infinity;
  private readonly closing = new AbortController();

  constructor(
    private readonly sql: Sql,
    private readonly options: PeerOptions,
    private readonly metrics: Metrics,
    private readonly log: Logger,
    private readonly clock: Clock = systemClock,
    private readonly link: PeerLink = new GrpcPeerLink(options.tls),
  ) {}

  /** Re-reads the live replicas, or joins the read in flight. Errors leave the previous list in place. */
  async refresh(): Promise<void> {
    await (this.inFlight ?? this.read());
  }

  /**
   * One read of the registry; true once it answered. A read applies its list only when no
   * read started after it has applied one (two may overlap).
   */
  private read(): Promise<boolean> {
    const done = this.readOnce(++this.reads).finally(() => {
      if (this.inFlight === done) this.inFlight = undefined;
    });
    this.inFlight = done;
    return done;
  }

  private async readOnce(n: number): Promise<boolean> {
    try {
      const live = await selectLivePeers(this.sql, this.options.liveMs);
      if (n > this.appliedRead) {
        this.appliedRead = n;
        this.apply(live);
      }
      return true;
    } catch (err) {
      this.log.debug({ err: (err as Error).message }, 'change feed: peer refresh failed; keeping the last list');
      return false;
    }
  }

  private apply(live: readonly Peer[]): void {
    const before = this.addresses();
    this.peers = new Map(live.filter((p) => p.replicaId !== this.options.self.replicaId).map((p) => [p.replicaId, p]));
    const addresses = this.addresses();
    for (const gone of before) if (!addresses.includes(gone)) this.link.forget(gone);
    this.metrics.peersKnown.set(this.peers.size);
    this.options.onList?.(addresses);
  }

  /**
   * A read that starts after this call, true once it answered: a new one when the last
   * such read started UNKNOWN_SENDER_REFRESH_MS ago or more; else, when `wait`, the one
   * that starts then (shared by every caller until it starts), or none (undefined).
   */
  private readAfterNow(wait: boolean): Promise<boolean> | undefined {
    if (this.queued) return wait ? this.queued : undefined;
    if (this.closing.signal.aborted) return Promise.resolve(false);
    const start = (): Promise<boolean> => {
      this.queued = undefined;
      if (this.closing.signal.aborted) return Promise.resolve(false);
      this.lastSenderReadAt = this.clock.now();
      return this.read();
    };
    const due = this.lastSenderReadAt + UNKNOWN_SENDER_REFRESH_MS - this.clock.now();
    if (due <= 0) return start();
    if (!wait) return undefined;
    const queued = this.clock.sleep(due, this.closing.signal).then(start);
    this.queued = queued;
    return queued;
  }

  /**
   * Whether (replicaId, ownerToken) is a live peer. An unknown one is asked again after a
   * read of the registry that started after it arrived (see readAfterNow); a read that
   * fails is an outage (UnavailableError), never a refusal. Within a second of the last
   * such read, an unknown poke is refused at once (its changes reach this replica at its
   * next tail), while an announcement (`wait`) waits for the next read: it must not be lost.
   */
  async isLivePeer(replicaId: string, ownerToken: string, wait = false): Promise<boolean> {
    if (this.knows(replicaId, ownerToken)) return true;
    const read = this.readAfterNow(wait);
    if (read === undefined) return false;
    if (!(await read)) {
      throw new UnavailableError('the replica registry cannot be read now: whether the sender is a live replica is not known');
    }
    return this.knows(replicaId, ownerToken);
  }

  private knows(replicaId: string, ownerToken: string): boolean {
    return this.peers.get(replicaId)?.ownerToken === ownerToken;
  }

  get count(): number {
    return this.peers.size;
  }

  /** The live peers' gRPC addresses, as last read. */
  addresses(): string[] {
    return [...this.peers.values()].map((p) => p.address).filter((a) => a !== '');
  }

  /**
   * Tells every live peer which topics moved, once per turn of the event loop: commits of
   * the same turn share one poke per peer.
   */
  poke(changes: readonly { topic: string; seq: string }[]): void {
    let pending = this.pending;
    if (!pending) {
      const batch = (pending = this.pending = { topics: new Set<string>(), seqs: [] as string[] });
      setImmediate(() => {
        this.pending = undefined;
        this.send([...batch.topics], batch.seqs);
      });
    }
    for (const c of changes) {
      pending.topics.add(c.topic);
      pending.seqs.push(c.seq);
    }
  }

  /** Tells every live peer which topics moved; fire and forget, outcomes counted. */
  private send(topics: readonly string[], seqs: readonly string[]): void {
    const request = { replicaId: this.options.self.replicaId, ownerToken: this.options.self.ownerToken(), topics, seqs };
    for (const address of this.addresses()) {
      this.link.poke(address, request, POKE_DEADLINE_MS, (err) => this.metrics.feedPokes.labels('sent', err ? 'error' : 'ok').inc());
    }
  }

  /**
   * Announces this replica to every live peer as last read (an empty PokeChanges: see the
   * header). Each peer that does not acknowledge is tried again after each of
   * ANNOUNCE_RETRY_MS, then given up; a refusal is final. Returns at once; resolves the
   * returned promise when every peer has acknowledged or been given up (tests).
   */
  announceSelf(): Promise<void> {
    return Promise.all(this.addresses().map((address) => this.announceTo(address))).then(() => undefined);
  }

  private async announceTo(address: string): Promise<void> {
    const signal = this.closing.signal;
    for (let attempt = 0; !signal.aborted; attempt++) {
      const request = { replicaId: this.options.self.replicaId, ownerToken: this.options.self.ownerToken(), topics: [], seqs: [] };
      const err = await new Promise<PeerCallError | null>((resolve) => this.link.poke(address, request, ANNOUNCE_DEADLINE_MS, resolve));
      if (!err) {
        this.metrics.peerAnnouncements.labels('sent', 'ok').inc();
        return;
      }
      this.metrics.peerAnnouncements.labels('sent', 'error').inc();
      const wait = ANNOUNCE_RETRY_MS[attempt];
      if (wait === undefined || isRefusal(err) || signal.aborted) {
        this.metrics.peerAnnouncements.labels('sent', 'given_up').inc();
        this.log.info({ peer: address, attempts: attempt + 1, err: err.message }, 'could not announce this replica to a peer: it learns of it at its next registry read');
        return;
      }
      await this.clock.sleep(wait, signal);
    }
  }

  /**
   * A peer announced itself: known from now on (after a read of the registry if need be),
   * or refused (PermissionDeniedError) when that read does not find it live.
   */
  async announced(replicaId: string, ownerToken: string): Promise<void> {
    let live: boolean;
    try {
      live = await this.isLivePeer(replicaId, ownerToken, true);
    } catch (err) {
      this.metrics.peerAnnouncements.labels('received', 'error').inc();
      throw err;
    }
    this.metrics.peerAnnouncements.labels('received', live ? 'ok' : 'refused').inc();
    if (!live) throw new PermissionDeniedError('announcements are accepted only from a live registered replica');
  }

  close(): void {
    this.closing.abort();
    this.link.close();
  }
}
