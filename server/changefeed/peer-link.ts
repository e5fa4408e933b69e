// How a replica calls its peers: PokeChanges (a poke after a commit, or an announcement)
// over one gRPC connection per peer, presenting this replica's certificate under mTLS.
// Apart from peers.ts so that tests script the peers' answers (a fake link).
import * as grpc from '@grpc/grpc-js';
import type { MethodDefinition } from '@grpc/proto-loader';
import { loadDatabaseProto } from '@sfdb/proto/load';
import { CALLER_DAEMON_HEADER } from '@sfdb/proto/metadata';
import type { TlsFiles } from '../config.js';
import { peerCredentials } from '../grpc/tls.js';

export interface PokeRequest {
  replicaId: string;
  ownerToken: string;
  topics: readonly string[];
  seqs: readonly string[];
}

/** What a call to a peer failed with: its status code and message. */
export interface PeerCallError {
  code: number;
  message: string;
}

export interface PeerLink {
  /** Sends a PokeChanges to `address`; `done` gets null once the peer acknowledged it. */
  poke(address: string, request: PokeRequest, deadlineMs: number, done: (err: PeerCallError | null) => void): void;
  /** `address` is no longer a peer: close its connection. */
  forget(address: string): void;
  close(): void;
}

/**
 * The peer refused (it takes no announcement — an older replica — or does not find the
 * sender live, or its certificate): sending again changes nothing. Anything else (no
 * connection, a deadline, its registry unreadable) may pass.
 */
export function isRefusal(err: PeerCallError): boolean {
  return [grpc.status.INVALID_ARGUMENT, grpc.status.UNIMPLEMENTED, grpc.status.PERMISSION_DENIED, grpc.status.UNAUTHENTICATED].includes(err.code);
}

export class GrpcPeerLink implements PeerLink {
  private readonly clients = new Map<string, grpc.Client>();
  private readonly method: MethodDefinition<object, object>;

  constructor(private readonly tls: TlsFiles | undefined) {
    const service = loadDatabaseProto().proto.sfdb.v1.Database.service as unknown as Record<string, MethodDefinition<object, object>>;
    this.method = service['PokeChanges'] as MethodDefinition<object, object>;
  }

  poke(address: string, request: PokeRequest, deadlineMs: number, done: (err: PeerCallError | null) => void): void {
    const metadata = new grpc.Metadata();
    metadata.set(CALLER_DAEMON_HEADER, 'sf-database');
    this.client(address).makeUnaryRequest(
      this.method.path,
      this.method.requestSerialize as (value: object) => Buffer,
      this.method.responseDeserialize,
      request,
      metadata,
      { deadline: Date.now() + deadlineMs },
      (err) => done(err ? { code: err.code, message: err.message } : null),
    );
  }

  private client(address: string): grpc.Client {
    let c = this.clients.get(address);
    if (!c) {
      c = new grpc.Client(address, peerCredentials(this.tls), {
        'grpc.initial_reconnect_backoff_ms': 100,
        'grpc.max_reconnect_backoff_ms': 2000,
      });
      this.clients.set(address, c);
    }
    return c;
  }

  forget(address: string): void {
    this.clients.get(address)?.close();
    this.clients.delete(address);
  }

  close(): void {
    for (const c of this.clients.values()) c.close();
    this.clients.clear();
  }
}
