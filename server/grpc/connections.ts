// The HTTP/2 connections of the gRPC port, where grpc-js leaves them to Node.
//
// A header field whose encoded form is over 64 KiB is more than Node's HTTP/2 library
// (nghttp2) decodes: it ends the whole connection with GOAWAY (COMPRESSION_ERROR) and
// stops reading, and Node then never closes the socket nor tells JavaScript. The session
// would sit with its calls until the connection-age timer, minutes later, its socket in
// CLOSE-WAIT once the client leaves. The guard notices a header block that began
// (nghttp2's last processed stream id moved) but never became a call, pings the
// connection, and destroys it when no answer comes: the calls on it are cancelled (the
// in-flight gauge falls) and the socket is closed. A healthy connection whose oversized
// call was only reset answers the ping and stays. nghttp2 gives up the same way, with no
// header block begun, on a frame it refuses (a stream depending on itself, a header block
// left unfinished, …): so a connection that brought no new call for `idleProbeMs` is pinged
// too, and given as long to answer. (The sessions come from grpc-js's private fields:
// grpc-js/server-fields.ts; so does the header-list limit.)
import type * as grpc from '@grpc/grpc-js';
import type { Logger } from 'pino';
import type { Metrics } from '../metrics.js';
import type { Clock } from '@sfdb/proto/runtime/clock';
import { watchSessions } from './grpc-js/server-fields.js';

/** What the guard uses of a ServerHttp2Session (a fake one in unit tests). */
export interface WatchedSession {
  readonly destroyed: boolean;
  readonly closed: boolean;
  readonly state: { lastProcStreamID?: number };
  readonly socket?: { remoteAddress?: string } | null;
  on(event: 'stream', listener: (stream: { id: number }) => void): unknown;
  on(event: 'ping', listener: () => void): unknown;
  once(event: 'close', listener: () => void): unknown;
  ping(callback: (err: Error | null) => void): boolean;
  destroy(): void;
}

export interface GuardTiming {
  /** How often every connection is looked at (one number read per connection). */
  readonly sweepMs: number;
  /** How long a suspect connection has to answer a ping. */
  readonly pingTimeoutMs: number;
  /** A connection with no new call (nor answered ping) for this long is pinged, and has as long to answer. */
  readonly idleProbeMs: number;
}

export const GUARD_TIMING: GuardTiming = { sweepMs: 1_000, pingTimeoutMs: 2_000, idleProbeMs: 10_000 };

interface Watched {
  readonly peer: string;
  /** The highest stream id that reached grpc-js as a call (or that a ping showed harmless). */
  seen: number;
  probing: boolean;
  /** When it last showed it is read (a new call, a ping of the client's, an answered ping of ours): clock ms. */
  heardAt: number;
}

export class ConnectionGuard {
  private readonly sessions = new Map<WatchedSession, Watched>();
  /** One per ping awaiting its answer: aborted by the answer, or by stop(). */
  private readonly probes = new Set<AbortController>();
  private stopped = false;
  private sweeper: NodeJS.Timeout | undefined;
  /** Peers already logged for a stalled connection (one line each, not one per connection). */
  private readonly logged = new Set<string>();

  constructor(
    private readonly deps: { log: Logger; metrics?: Metrics; clock: Clock; timing?: GuardTiming },
  ) {
    deps.metrics?.trackConnections(() => this.sessions.size);
  }

  private get timing(): GuardTiming {
    return this.deps.timing ?? GUARD_TIMING;
  }

  /** Connections open now. */
  get open(): number {
    return this.sessions.size;
  }

  /** Watches every connection of `server`'s bound ports (after bind) and starts the sweep. */
  start(server: grpc.Server): void {
    watchSessions(server, (session) => this.watch(session));
    // Not a database task: one in-memory look at each connection per sweep.
    this.sweeper = setInterval(() => this.sweep(), this.timing.sweepMs);
    this.sweeper.unref();
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.sweeper);
    for (const probe of this.probes) probe.abort();
    this.probes.clear();
  }

  watch(session: WatchedSession): void {
    if (this.sessions.has(session) || session.destroyed) return;
    const watched: Watched = { peer: session.socket?.remoteAddress ?? 'unknown', seen: 0, probing: false, heardAt: this.deps.clock.now() };
    this.sessions.set(session, watched);
    session.on('stream', (stream) => {
      if (stream.id > watched.seen) watched.seen = stream.id;
      watched.heardAt = this.deps.clock.now();
    });
    // The client's own keepalive ping (every 10 s while it holds a call, client/transport.ts)
    // shows the HTTP/2 layer still reads the connection: no ping of the guard's is needed.
    session.on('ping', () => {
      watched.heardAt = this.deps.clock.now();
    });
    session.once('close', () => this.sessions.delete(session));
  }

  /** One look at every connection; a suspect or long-quiet one is pinged. */
  sweep(): void {
    const now = this.deps.clock.now();
    for (const [session, watched] of this.sessions) {
      if (watched.probing || session.destroyed || session.closed) continue;
      const last = session.state.lastProcStreamID ?? 0;
      if (last > watched.seen) this.probe(session, watched, last, this.timing.pingTimeoutMs);
      else if (now - watched.heardAt >= this.timing.idleProbeMs) this.probe(session, watched, last, this.timing.idleProbeMs);
    }
  }

  /**
   * A header block began on stream `last` and no call came of it (reset: harmless; or the
   * connection is dead), or the connection has been quiet: it answers a ping within
   * `timeoutMs` or is destroyed.
   */
  private probe(session: WatchedSession, watched: Watched, last: number, timeoutMs: number): void {
    if (this.stopped) return;
    watched.probing = true;
    const waiting = new AbortController();
    try {
      session.ping((err) => {
        watched.probing = false;
        waiting.abort();
        if (err) return;
        watched.seen = Math.max(watched.seen, last);
        watched.heardAt = this.deps.clock.now();
      });
    } catch {
      // Closed between the look and the ping: its own close handles it.
      watched.probing = false;
      return;
    }
    this.probes.add(waiting);
    void this.deps.clock.sleep(timeoutMs, waiting.signal).then(() => {
      this.probes.delete(waiting);
      if (waiting.signal.aborted || session.destroyed) return;
      this.deps.metrics?.countConnectionClosed('stalled');
      if (!this.logged.has(watched.peer)) {
        if (this.logged.size >= 10_000) this.logged.clear();
        this.logged.add(watched.peer);
        this.deps.log.warn(
          { peer: watched.peer, stream: last },
          'closed a gRPC connection the HTTP/2 layer had given up on (a request header block it could not decode, or a frame it refused; no answer to a ping)',
        );
      }
      session.destroy();
    });
  }
}
