// Which peers have stopped answering this replica, and the WatchReplicas calls held to hear
// it. A replica that freezes (SIGSTOP, a paused VM, a network that drops its packets)
// keeps its connections open, so the processes whose long-poll it holds hear nothing: a
// change written through another replica would reach them only when their own keepalive
// gives up (client/transport.ts, 15 s). The live replicas see the freeze first and
// cheaply: each probes every peer every `probeMs` (a health Check, answered by the peer's
// grpc-js; no statement), and a peer whose last answer is older than `unresponsiveMs` is
// unresponsive. The processes hold one WatchReplicas on a replica other than their
// long-poll's (client/replica-watch.ts) and move their long-poll off a replica named here.
//
// Cost: (replicas - 1) probes sent and as many answered per replica every probeMs, and one
// held call per process re-issued every WATCH timeout (300 s): at 7,000 processes on two
// replicas about 12 calls/s per replica, against 3,500 pings/s for each second a client
// keepalive would have to tick to find the freeze itself (docs/BENCHMARKS.md, issue 28).
//
// `unresponsiveMs` is above the longest pause a busy replica takes and comes back from (a
// 1 s stop, a long GC): such a pause moves nobody. A peer that leaves the registry's live
// list while unresponsive stays named until it answers again or `forgetMs` passes, so its
// processes do not go back to it when its heartbeat row ages out.
import * as grpc from '@grpc/grpc-js';
import { systemClock } from '@sfdb/proto/runtime/clock';
import type { Clock } from '@sfdb/proto/runtime/clock';
import { CALLER_DAEMON_HEADER } from '@sfdb/proto/metadata';
import type { Logger } from '@sfdb/proto/runtime/log';
import type { TlsFiles } from '../config.js';
import { peerCredentials } from '../grpc/tls.js';
import type { Metrics } from '../metrics.js';

const HEALTH_CHECK = '/grpc.health.v1.Health/Check';
const raw = (b: Buffer): Buffer => b;

export interface PeerProbeOptions {
  /** How often each peer is probed (ms). */
  probeMs: number;
  /** A peer whose last answer is older than this is unresponsive (ms). */
  unresponsiveMs: number;
  /** An unresponsive peer no longer in the registry is dropped after this (ms). */
  forgetMs: number;
  /** Most WatchReplicas held at once; beyond, they are answered at once. */
  maxWatchers: number;
  tls?: TlsFiles;
}

export interface ReplicaHealth {
  /** Changes whenever the set does; "" for the empty set. */
  version: string;
  unresponsive: string[];
}

/** How a peer is asked whether it runs: `done(true)` on any answer. Tests script one. */
export interface Prober {
  probe(address: string, done: (answered: boolean) => void): void;
  /** The peer is forgotten: release what its probes hold. */
  forget(address: string): void;
}

interface Probed {
  /** Clock time of the last answer (of its first sighting before any). */
  answeredAt: number;
  inFlight: boolean;
  /** Still among the registry's live replicas. */
  listed: boolean;
  unresponsiveSince: number | undefined;
}

interface Watcher {
  known: string;
  resolve: (health: ReplicaHealth) => void;
}

export class PeerProbe {
  private readonly peers = new Map<string, Probed>();
  private readonly watchers = new Set<Watcher>();
  private health: ReplicaHealth = { version: '', unresponsive: [] };
  private generation = 0;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly options: PeerProbeOptions,
    private readonly metrics: Metrics,
    private readonly log: Logger,
    private readonly clock: Clock = systemClock,
    private readonly prober: Prober = new HealthCheckProber(options),
  ) {}

  /** Probes every `probeMs` until stop(). */
  start(): void {
    this.timer = setInterval(() => this.tick(), this.options.probeMs);
    this.timer.unref();
  }

  /** The peers to probe: the registry's live replicas but this one (their gRPC addresses). */
  setPeers(addresses: readonly string[]): void {
    const now = this.clock.now();
    const listed = new Set(addresses.filter((a) => a !== ''));
    for (const address of listed) {
      const known = this.peers.get(address);
      if (known) known.listed = true;
      else this.peers.set(address, { answeredAt: now, inFlight: false, listed: true, unresponsiveSince: undefined });
    }
    for (const [address, p] of this.peers) {
      if (listed.has(address)) continue;
      p.listed = false;
      // A peer gone from the registry while answering simply left; one that stopped
      // answering stays named for a while (see the header).
      if (p.unresponsiveSince === undefined || now - p.unresponsiveSince >= this.options.forgetMs) this.forget(address);
    }
    this.publish();
  }

  /** One round: judge every peer by its last answer, then probe those with no probe out. */
  tick(): void {
    if (this.stopped) return;
    const now = this.clock.now();
    for (const [address, p] of this.peers) {
      if (!p.listed && p.unresponsiveSince !== undefined && now - p.unresponsiveSince >= this.options.forgetMs) this.forget(address);
    }
    this.publish();
    for (const [address, p] of this.peers) if (!p.inFlight) this.probe(address, p);
  }

  /** WatchReplicas: at once when the set's version is not `known`, else when it changes, `timeoutMs` passes, or stop. */
  watch(known: string, timeoutMs: number, signal: AbortSignal): Promise<ReplicaHealth> {
    if (known !== this.health.version || this.stopped || this.watchers.size >= this.options.maxWatchers || signal.aborted) {
      return Promise.resolve(this.health);
    }
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        if (this.watchers.delete(watcher)) this.metrics.replicaWatchers.set(this.watchers.size);
        resolve(this.health);
      };
      const watcher: Watcher = { known, resolve: done };
      const timer = setTimeout(done, timeoutMs);
      signal.addEventListener('abort', done, { once: true });
      this.watchers.add(watcher);
      this.metrics.replicaWatchers.set(this.watchers.size);
    });
  }

  get current(): ReplicaHealth {
    return this.health;
  }

  /** Answers every watcher and closes the probes' connections. */
  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
    for (const w of [...this.watchers]) w.resolve(this.health);
    for (const address of [...this.peers.keys()]) this.forget(address);
  }

  private probe(address: string, p: Probed): void {
    p.inFlight = true;
    this.prober.probe(address, (answered) => {
      p.inFlight = false;
      this.metrics.peerProbes.labels(answered ? 'answered' : 'no_answer').inc();
      if (!answered) return;
      p.answeredAt = this.clock.now();
      if (p.unresponsiveSince !== undefined) this.publish();
    });
  }

  /** Recomputes the set; a change gets a new version and answers every watcher. */
  private publish(): void {
    const now = this.clock.now();
    const unresponsive: string[] = [];
    for (const [address, p] of this.peers) {
      const silent = now - p.answeredAt >= this.options.unresponsiveMs;
      if (silent && p.unresponsiveSince === undefined) {
        p.unresponsiveSince = now;
        this.log.warn({ peer: address, silentMs: Math.round(now - p.answeredAt) }, 'peer replica stopped answering: its processes are told to move');
      } else if (!silent && p.unresponsiveSince !== undefined) {
        p.unresponsiveSince = undefined;
        this.log.info({ peer: address }, 'peer replica answers again');
      }
      if (p.unresponsiveSince !== undefined) unresponsive.push(address);
    }
    unresponsive.sort();
    if (unresponsive.join(',') === this.health.unresponsive.join(',')) return;
    this.generation += 1;
    this.health = { version: unresponsive.length === 0 ? '' : String(this.generation), unresponsive };
    this.metrics.peersUnresponsive.set(unresponsive.length);
    for (const w of [...this.watchers]) if (w.known !== this.health.version) w.resolve(this.health);
  }

  private forget(address: string): void {
    this.prober.forget(address);
    this.peers.delete(address);
  }
}

/** A gRPC health Check of the peer over a connection of its own, answered by its grpc-js (no statement). */
class HealthCheckProber implements Prober {
  private readonly clients = new Map<string, grpc.Client>();

  constructor(private readonly options: Pick<PeerProbeOptions, 'unresponsiveMs' | 'tls'>) {}

  probe(address: string, done: (answered: boolean) => void): void {
    let client = this.clients.get(address);
    if (!client) {
      client = new grpc.Client(address, peerCredentials(this.options.tls), {
        'grpc.initial_reconnect_backoff_ms': 100,
        'grpc.max_reconnect_backoff_ms': 1000,
        'grpc.enable_retries': 0,
        'grpc.use_local_subchannel_pool': 1,
      });
      this.clients.set(address, client);
    }
    const metadata = new grpc.Metadata();
    metadata.set(CALLER_DAEMON_HEADER, 'sf-database');
    // The deadline only bounds the call (a probe lost with its connection is sent again);
    // the verdict is the last answer's age (PeerProbe.publish).
    const deadline = Date.now() + Math.max(5_000, 4 * this.options.unresponsiveMs);
    client.makeUnaryRequest(HEALTH_CHECK, raw, raw, Buffer.alloc(0), metadata, { deadline }, (err) => {
      // Any answer, SERVING or not, says the peer's process runs; a lost connection or the deadline says nothing more than silence.
      done(!(err && (err.code === grpc.status.UNAVAILABLE || err.code === grpc.status.DEADLINE_EXCEEDED || err.code === grpc.status.CANCELLED)));
    });
  }

  forget(address: string): void {
    this.clients.get(address)?.close();
    this.clients.delete(address);
  }
}
