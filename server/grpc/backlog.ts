// Answer bytes waiting to be sent: bounded per connection and per replica.
//
// grpc-js writes a call's answer to its HTTP/2 stream, and Node keeps the bytes in that
// stream's write buffer (Http2Stream.writableLength: the whole message, until the client's
// flow-control window lets the last of it out). A client that announces a window of 0, or
// simply never reads, holds every answer it asks for in the replica's memory: 1,000
// ListInstances of ~1.9 MB on one such connection took a replica from 161 MB to 2 GB
// (docs/BENCHMARKS.md, issue 37). Node's own `maxSessionMemory` counts these bytes, but
// past it Node ends the whole connection (every call on it, a long-poll included), and
// it has no replica-wide sum.
//
// The tier counts each connection's backlog (the unsent bytes of its open streams) and
// the replica's (their sum), and refuses with RESOURCE_EXHAUSTED and a pushback:
//   - a new call, before its handler runs (nothing ran), on a connection whose backlog is
//     at its cap, or that has a backlog while the replica's is at its cap;
//   - the answer of a call that wrote nothing, in the same cases when it is ready (the
//     calls admitted together, while the backlog was still low): its client hears the
//     refusal, whose trailers are sent whatever the window, instead of an answer it would
//     not read. A call that wrote sends its answer: its client must learn the outcome.
// A connection without a backlog is never refused for the replica's: a client that reads
// is not punished for one that does not. What a connection can hold is then its cap plus
// the answers of the calls that were admitted together and wrote (at most one per stream,
// SFDB_GRPC_MAX_CONCURRENT_STREAMS), and one answer past the replica's cap. A backlog
// that never drains is freed when the connection ages out (SFDB_MAX_CONNECTION_AGE_MS and
// its grace end every connection). Per call, at admission and at its answer: a map look-up
// and a sum over the open streams of its connection (at most the stream maximum), and one
// more sum when its stream closes if the connection's last sum was not 0.
import type * as grpc from '@grpc/grpc-js';
import { peerOfSession } from './grpc-js/peer.js';
import type { PeerSocket } from './grpc-js/peer.js';
import { watchSessions } from './grpc-js/server-fields.js';

/** What the backlog reads of a ServerHttp2Stream. */
export interface BacklogStream {
  readonly writableLength: number;
  once(event: 'close', listener: () => void): unknown;
}

/** What the backlog reads of a ServerHttp2Session (fakes in unit tests). */
export interface BacklogSession extends PeerSocket {
  on(event: 'stream', listener: (stream: BacklogStream) => void): unknown;
  once(event: 'close', listener: () => void): unknown;
}

export interface BacklogLimits {
  /** Unsent answer bytes one connection may hold before its calls are refused. */
  readonly connectionBytes: number;
  /** Unsent answer bytes of every connection together before a connection with any is refused. */
  readonly replicaBytes: number;
}

export type BacklogRefusal = 'connection_backlog' | 'replica_backlog';

class Connection {
  readonly streams = new Set<BacklogStream>();
  /** Its backlog when last summed (the replica's total holds this figure). */
  bytes = 0;
}

export class AnswerBacklogs {
  private readonly byPeer = new Map<string, Connection>();
  private totalBytes = 0;

  constructor(private readonly limits: BacklogLimits) {}

  /** Follows every connection of `server`'s bound ports (after bind). */
  start(server: grpc.Server): void {
    watchSessions(server, (session) => this.watch(session));
  }

  /** Follows `session`'s streams until it closes. */
  watch(session: BacklogSession): void {
    const peer = peerOfSession(session);
    if (peer === undefined || this.byPeer.has(peer)) return;
    const conn = new Connection();
    this.byPeer.set(peer, conn);
    session.on('stream', (stream) => {
      conn.streams.add(stream);
      stream.once('close', () => {
        conn.streams.delete(stream);
        // Re-summed only to drop what the last sum counted: a connection last summed at 0
        // holds nothing in the replica's total (the next call on it sums it anyway).
        if (conn.bytes > 0) this.sum(conn);
      });
    });
    session.once('close', () => {
      this.byPeer.delete(peer);
      this.totalBytes -= conn.bytes;
      conn.bytes = 0;
    });
  }

  /** Unsent answer bytes of every watched connection (as last summed). */
  get total(): number {
    return this.totalBytes;
  }

  /** Whether a call (or its answer) on the connection grpc-js names `peer` is refused now, and why. */
  refusal(peer: string): BacklogRefusal | undefined {
    const conn = this.byPeer.get(peer);
    if (conn === undefined) return undefined;
    const bytes = this.sum(conn);
    if (bytes === 0) return undefined;
    if (bytes >= this.limits.connectionBytes) return 'connection_backlog';
    if (this.totalBytes >= this.limits.replicaBytes) return 'replica_backlog';
    return undefined;
  }

  /** Re-sums `conn`'s backlog and the replica's with it. */
  private sum(conn: Connection): number {
    let bytes = 0;
    for (const stream of conn.streams) bytes += stream.writableLength;
    this.totalBytes += bytes - conn.bytes;
    conn.bytes = bytes;
    return bytes;
  }
}
