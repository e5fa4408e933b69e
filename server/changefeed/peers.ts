// The live peers of this replica (from the replica registry) and the pokes it sends them
// after its own commits: "these topics moved, up to these sequence numbers" — never data;
// the peer reads the rows itself. A lost poke only delays the peer's waiters to its next
// tail. A poke is accepted only from a live registered replica (id and owner token).
import type { TlsFiles } from '../config.js';
import { peerCredentials } from '../grpc/tls.js';
import * as grpc from '@grpc/grpc-js';
import type { MethodDefinition } from '@grpc/proto-loader';
import { loadDatabaseProto } from '@sfdb/proto/load';
import { CALLER_DAEMON_HEADER } from '@sfdb/proto/metadata';
import type { Sql } from '../db/sql.js';
import { selectLiveReplicas } from '../registry/queries.js';
import type { Logger } from '@sfdb/proto/runtime/log';
import type { Metrics } from '../metrics.js';

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
/** An unknown sender triggers a refresh of the peer list, at most this often. */
const UNKNOWN_SENDER_REFRESH_MS = 1000;

export interface PeerOptions {
  /** mTLS material: pokes then present this replica's certificate. */
  tls?: TlsFiles;
  self: { replicaId: string; ownerToken: () => string };
  liveMs: number;
}

export class Peers {
  private peers = new Map<string, Peer>();
  /** This turn's commits, poked to the peers once the turn ends. */
  private pending: { topics: Set<string>; seqs: string[] } | undefined;
  private readonly clients = new Map<string, grpc.Client>();
  private readonly poke: MethodDefinition<object, object>;
  private lastRefreshAt = 0;
  private refreshing: Promise<void> | undefined;

  constructor(
    private readonly sql: Sql,
    private readonly options: PeerOptions,
    private readonly metrics: Metrics,
    private readonly log: Logger,
  ) {
    const service = loadDatabaseProto().proto.sfdb.v1.Database.service as unknown as Record<string, MethodDefinition<object, object>>;
    this.poke = service['PokeChanges'] as MethodDefinition<object, object>;
  }

  /** Re-reads the live replicas (coalesced). Errors leave the previous list in place. */
  refresh(): Promise<void> {
    this.refreshing ??= (async () => {
      try {
        const live = await selectLivePeers(this.sql, this.options.liveMs);
        this.peers = new Map(live.filter((p) => p.replicaId !== this.options.self.replicaId).map((p) => [p.replicaId, p]));
        this.lastRefreshAt = performance.now();
        for (const [address, client] of this.clients) {
          if (![...this.peers.values()].some((p) => p.address === address)) {
            client.close();
            this.clients.delete(address);
          }
        }
      } catch (err) {
        this.log.debug({ err: (err as Error).message }, 'change feed: peer refresh failed; keeping the last list');
      } finally {
        this.refreshing = undefined;
      }
    })();
    return this.refreshing;
  }

  /** Whether (replicaId, ownerToken) is a live peer; an unknown one refreshes the list (rate-limited) and asks again. */
  async isLivePeer(replicaId: string, ownerToken: string): Promise<boolean> {
    const known = this.peers.get(replicaId);
    if (known && known.ownerToken === ownerToken) return true;
    if (performance.now() - this.lastRefreshAt >= UNKNOWN_SENDER_REFRESH_MS) {
      await this.refresh();
      const again = this.peers.get(replicaId);
      return again !== undefined && again.ownerToken === ownerToken;
    }
    return false;
  }

  get count(): number {
    return this.peers.size;
  }

  /** The live peers' gRPC addresses, as last read. */
  addresses(): string[] {
    return [...this.peers.values()].map((p) => p.address);
  }

  /**
   * Tells every live peer which topics moved, once per turn of the event loop: commits of
   * the same turn share one poke per peer.
   */
  announce(changes: readonly { topic: string; seq: string }[]): void {
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
    for (const peer of this.peers.values()) {
      if (peer.address === '') continue;
      const client = this.client(peer.address);
      const metadata = new grpc.Metadata();
      metadata.set(CALLER_DAEMON_HEADER, 'sf-database');
      client.makeUnaryRequest(
        this.poke.path,
        this.poke.requestSerialize as (value: object) => Buffer,
        this.poke.responseDeserialize,
        request,
        metadata,
        { deadline: Date.now() + POKE_DEADLINE_MS },
        (err) => this.metrics.feedPokes.labels('sent', err ? 'error' : 'ok').inc(),
      );
    }
  }

  private client(address: string): grpc.Client {
    let c = this.clients.get(address);
    if (!c) {
      c = new grpc.Client(address, peerCredentials(this.options.tls), {
        'grpc.initial_reconnect_backoff_ms': 100,
        'grpc.max_reconnect_backoff_ms': 2000,
      });
      this.clients.set(address, c);
    }
    return c;
  }

  close(): void {
    for (const c of this.clients.values()) c.close();
    this.clients.clear();
  }
}
