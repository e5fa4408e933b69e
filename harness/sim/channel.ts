// A simulated process's channel (harness/sim/): what grpc-js and the p2c balancer do for
// the real client's transport (client/transport.ts UnaryChannel), over the simulated
// replicas. One connection per replica:
// - a call is placed as client/p2c.ts places it: among the READY connections, without the
//   replicas the client's ReplicaAvoidance names (while another is READY), by the real
//   `chooseTwo` on the real `EndpointLoad` counts (long-polls and the watch counted apart;
//   a watch placed beside a long-poll tells the avoidance, which moves the poll, and so
//   does a connection made again while a poll sits beside the watch); the
//   channel is the avoidance's LongPollHolder, so `moveLongPoll('unresponsive')` fires as
//   in production;
// - no READY connection: UNAVAILABLE "No connection established" (never sent);
// - a killed replica resets its connections: calls in flight fail UNAVAILABLE; it is
//   reconnected after a backoff once it is back;
// - a frozen or blackholed replica keeps them open: its calls hang until it answers again
//   (then they are served, and answered, as TCP would deliver them), their deadline, or
//   until the keepalive gives up (a ping every KEEPALIVE_MS while a call is open,
//   unanswered for KEEPALIVE_TIMEOUT_MS: client/transport.ts), which fails them and drops
//   the connection until the replica answers again;
// - on a replica that is up, the seed's call faults: UNAVAILABLE with the no-effect trailer
//   (nothing done), UNAVAILABLE without it (done or not), no answer (done or not: the
//   deadline ends the call), a late answer; long-polls also resync or are dropped.
import * as grpc from '@grpc/grpc-js';
import { CALLER_DAEMON_HEADER, CALLER_NODE_HEADER } from '@sfdb/proto/metadata';
import { ERROR_TRAILERS } from '@sfdb/proto/errors';
import type { ReplicaAvoidance } from '../../client/avoidance.js';
import { EndpointLoad, LONG_POLL_MARK, WATCH_MARK_VALUE, chooseTwo, pollBesideWatch } from '../../client/p2c.js';
import { KEEPALIVE_MS, KEEPALIVE_TIMEOUT_MS } from '../../client/transport.js';
import type { UnaryChannel, UnaryRequest } from '../../client/transport.js';
import type { ReplicaSet, ReplicaStatus, SimReplica } from './replicas.js';
import type { SimScheduler } from './scheduler.js';
import { serve } from './serve.js';
import { SimRefusal } from './tier.js';
import type { SimDatabase } from './tier.js';
import type { Trace } from './trace.js';

type Kind = 'call' | 'long_poll' | 'watch';

/** A connection to a replica that answers again is made this long after, at most (from 100 ms): grpc-js's reconnect backoff. */
export const RECONNECT_MAX_MS = 2000;
type Done = (err: grpc.ServiceError | null, response?: unknown) => void;

/** How a call to a replica that is up goes wrong, if it does (chosen per call by the seed). */
export type CallFault = 'none' | 'unavailable_no_effect' | 'unavailable_done' | 'unavailable_not_done' | 'hang_done' | 'hang_not_done' | 'late' | 'resync' | 'dropped';

/** The seed's call faults: how often (0..1) and which; off once the faults heal. */
export interface CallFaults {
  rate: number;
  enabled: boolean;
}

/** What the channels of a run share: the tier, the clock, the seed's randomness, what is observed. */
export interface SimNet {
  readonly sched: SimScheduler;
  readonly db: SimDatabase;
  readonly replicas: ReplicaSet;
  readonly random: () => number;
  readonly faults: CallFaults;
  readonly trace: Trace;
  /** Told of every answer delivered to a process (the duties watch fenced refusals). */
  delivered(process: string, method: string, request: Record<string, unknown>, err: grpc.ServiceError | null): void;
  /** Told of every call fault drawn for a process's call on a replica that is up (a second fault, beside a silent replica). */
  faulted(process: string, fault: CallFault): void;
}

interface Connection {
  readonly replica: SimReplica;
  readonly load: EndpointLoad;
  ready: boolean;
  readonly calls: Set<InFlight>;
  /** A keepalive round is scheduled (only while a call is open on a silent replica). */
  pinging: boolean;
}

interface InFlight {
  readonly method: string;
  readonly kind: Kind;
  readonly conn: Connection;
  ended: boolean;
  /** Drops what the replica holds for it (a long-poll, a watch). */
  release?: () => void;
  finish(err: grpc.ServiceError | null, response?: unknown): void;
}

/** A gRPC error as grpc-js reports it. */
export function statusError(code: grpc.status, details: string, noEffect = false): grpc.ServiceError {
  const metadata = new grpc.Metadata();
  if (noEffect) metadata.set(ERROR_TRAILERS.noEffect, '1');
  return Object.assign(new Error(`${code} ${grpc.status[code]}: ${details}`), { code, details, metadata });
}

const REFUSAL_CODE: Record<SimRefusal['status'], grpc.status> = {
  FAILED_PRECONDITION: grpc.status.FAILED_PRECONDITION,
  NOT_FOUND: grpc.status.NOT_FOUND,
  INVALID_ARGUMENT: grpc.status.INVALID_ARGUMENT,
  UNIMPLEMENTED: grpc.status.UNIMPLEMENTED,
};


export class SimChannel implements UnaryChannel {
  private readonly conns: Connection[];
  private closed = false;
  private readonly onReplica: (r: SimReplica, was: ReplicaStatus) => void;

  constructor(
    private readonly net: SimNet,
    /** The process's name in the trace. */
    readonly process: string,
    private readonly avoidance: ReplicaAvoidance,
  ) {
    this.conns = net.replicas.replicas.map((replica) => ({ replica, load: new EndpointLoad(), ready: replica.status !== 'killed', calls: new Set(), pinging: false }));
    avoidance.attach({ longPollsOn: (addresses) => this.conns.filter((c) => addresses.has(c.replica.address)).reduce((n, c) => n + c.load.longPolls, 0) });
    this.onReplica = (r, was) => this.replicaMoved(r, was);
    net.replicas.listeners.add(this.onReplica);
  }

  close(): void {
    this.closed = true;
    this.net.replicas.listeners.delete(this.onReplica);
    for (const c of this.conns) for (const call of [...c.calls]) call.finish(statusError(grpc.status.CANCELLED, 'Channel closed'));
  }

  start(call: UnaryRequest, done: Done): () => void {
    const { net } = this;
    const mark = call.metadata.get(LONG_POLL_MARK)[0];
    const kind: Kind = mark === undefined ? 'call' : mark === WATCH_MARK_VALUE ? 'watch' : 'long_poll';
    call.metadata.remove(LONG_POLL_MARK);
    const ready = this.conns.filter((c) => c.ready);
    const answering = ready.filter((c) => !this.avoidance.has(c.replica.address));
    const candidates = answering.length > 0 ? answering : ready;
    if (this.closed || candidates.length === 0) {
      let cancelled = false;
      net.sched.soon(() => cancelled || done(statusError(grpc.status.UNAVAILABLE, 'No connection established. Last error: connect ECONNREFUSED')));
      return () => (cancelled = true);
    }
    const conn = candidates[chooseTwo(candidates.map((c) => c.load), kind, Math.random).index] as Connection;
    if (kind === 'long_poll') conn.load.longPolls += 1;
    else if (kind === 'watch') conn.load.watches += 1;
    else conn.load.calls += 1;
    if (kind === 'watch' && conn.load.longPolls > 0) this.avoidance.watchBesidePoll();
    const request = call.request as Record<string, unknown>;
    const caller = { daemon: String(call.metadata.get(CALLER_DAEMON_HEADER)[0] ?? ''), node: String(call.metadata.get(CALLER_NODE_HEADER)[0] ?? '') };
    const deadlineTimer = net.sched.after(call.deadline - net.sched.now(), () => flight.finish(statusError(grpc.status.DEADLINE_EXCEEDED, 'Deadline exceeded')));
    const flight: InFlight = {
      method: call.method,
      kind,
      conn,
      ended: false,
      finish: (err, response) => {
        if (flight.ended) return;
        end();
        net.trace.add(net.sched.now(), () => `${this.process} ← r${conn.replica.index} ${call.method}${describe(request)} ${err ? `${grpc.status[err.code]} ${err.details}` : 'ok'}`);
        net.delivered(this.process, call.method, request, err);
        done(err, response);
      },
    };
    const end = (): void => {
      flight.ended = true;
      deadlineTimer.cancel();
      flight.release?.();
      conn.calls.delete(flight);
      if (kind === 'long_poll') conn.load.longPolls = Math.max(0, conn.load.longPolls - 1);
      else if (kind === 'watch') conn.load.watches = Math.max(0, conn.load.watches - 1);
      else conn.load.calls = Math.max(0, conn.load.calls - 1);
    };
    conn.calls.add(flight);
    net.trace.add(net.sched.now(), () => `${this.process} → r${conn.replica.index} ${call.method}${describe(request)}`);
    this.keepalive(conn);
    // The network takes no time: each hop is a turn of its own, so what is runnable goes first.
    net.sched.soon(() => this.arrive(flight, request, caller));
    return () => {
      if (flight.ended) return;
      end();
      net.trace.add(net.sched.now(), () => `${this.process} cancels ${call.method} on r${conn.replica.index}`);
    };
  }

  /** The request reaches its replica (or not). */
  private arrive(flight: InFlight, request: Record<string, unknown>, caller: { daemon: string; node: string }): void {
    const r = flight.conn.replica;
    if (flight.ended) return;
    if (r.status === 'frozen' || r.status === 'blackholed') {
      // Served once it answers again; done or not when the call was given up meanwhile (its bytes were read or not).
      r.silentWork.push(() => {
        if (!flight.ended) this.serveOn(flight, request, caller, 'none');
        else if (flight.kind === 'call' && this.net.random() < 0.5) this.serveOn(flight, request, caller, 'none');
      });
      return;
    }
    if (r.status !== 'up') return; // killed: the connection's reset ends the call
    const { faults, random } = this.net;
    let fault: CallFault = 'none';
    if (faults.enabled && random() < faults.rate) fault = pickFault(flight.kind, random);
    if (fault !== 'none') {
      this.net.faulted(this.process, fault);
      this.net.trace.add(this.net.sched.now(), `${this.process}: r${r.index} draws the fault ${fault} for ${flight.method}`);
    }
    this.serveOn(flight, request, caller, fault);
  }

  private serveOn(flight: InFlight, request: Record<string, unknown>, caller: { daemon: string; node: string }, fault: CallFault): void {
    const { net } = this;
    const r = flight.conn.replica;
    const back = (err: grpc.ServiceError | null, response?: unknown, extraMs = 0): void => {
      const deliver = (): void => {
        // An answer from a replica that went silent meanwhile arrives when it answers again
        // (the connection still open); one from a killed replica is lost with its connection.
        if (r.status === 'up') flight.finish(err, response);
        else if (r.status !== 'killed') r.silentWork.push(() => flight.finish(err, response));
      };
      // Served in a turn of its own (arrive): the answer may go back at once.
      if (extraMs > 0) net.sched.after(extraMs, deliver);
      else deliver();
    };
    if (fault === 'unavailable_no_effect') return back(statusError(grpc.status.UNAVAILABLE, 'the database is busy: refused before any statement', true));
    if (fault === 'unavailable_not_done') return back(statusError(grpc.status.UNAVAILABLE, 'the database did not answer'));
    if (fault === 'hang_not_done') return;
    if (fault === 'resync') return back(null, { changes: [], cursor: String(net.db.seq), resync: true });
    let served;
    try {
      served = serve(net.db, net.sched, r, flight.method, request, caller, (response) => back(null, response));
    } catch (err) {
      if (!(err instanceof SimRefusal)) throw err;
      if (fault === 'unavailable_done') return back(statusError(grpc.status.UNAVAILABLE, 'the database did not answer'));
      if (fault === 'hang_done') return;
      return back(statusError(REFUSAL_CODE[err.status], err.message));
    }
    if ('held' in served) {
      flight.release = served.held;
      if (fault === 'dropped') net.sched.after(random1(net.random, 30_000), () => !flight.ended && flight.finish(statusError(grpc.status.UNAVAILABLE, 'Connection dropped')));
      return;
    }
    if (fault === 'unavailable_done') return back(statusError(grpc.status.UNAVAILABLE, 'the database did not answer'));
    if (fault === 'hang_done') return;
    back(null, served.answer, fault === 'late' ? random1(net.random, 4_000) : 0);
  }

  /** Keepalive: while a call is open on a silent replica, a ping every KEEPALIVE_MS; one unanswered for KEEPALIVE_TIMEOUT_MS drops the connection. */
  private keepalive(conn: Connection): void {
    if (conn.pinging || conn.replica.status === 'up' || conn.replica.status === 'killed' || conn.calls.size === 0) return;
    conn.pinging = true;
    const { sched } = this.net;
    sched.after(this.net.random() * KEEPALIVE_MS, () => {
      const silent = (): boolean => conn.replica.status === 'frozen' || conn.replica.status === 'blackholed';
      if (!silent() || conn.calls.size === 0 || !conn.ready) {
        conn.pinging = false;
        return;
      }
      sched.after(KEEPALIVE_TIMEOUT_MS, () => {
        conn.pinging = false;
        if (!silent() || !conn.ready) return;
        this.net.trace.add(sched.now(), `${this.process}: keepalive drops its connection to r${conn.replica.index}`);
        this.drop(conn, 'Connection dropped: keepalive ping unanswered');
      });
    });
  }

  private drop(conn: Connection, details: string): void {
    conn.ready = false;
    for (const call of [...conn.calls]) call.finish(statusError(grpc.status.UNAVAILABLE, details));
  }

  /** Connected again: as the balancer does (client/p2c.ts), a long-poll beside the watch moves off it. */
  private reconnected(conn: Connection): void {
    conn.ready = !this.closed && conn.replica.status !== 'killed';
    if (conn.ready && pollBesideWatch(this.conns.filter((c) => c.ready).map((c) => c.load))) this.avoidance.watchBesidePoll();
  }

  private replicaMoved(r: SimReplica, _was: ReplicaStatus): void {
    const conn = this.conns.find((c) => c.replica === r) as Connection;
    if (r.status === 'killed') {
      if (conn.ready || conn.calls.size > 0) this.drop(conn, 'read ECONNRESET');
    } else if (r.status === 'up') {
      if (!conn.ready) this.net.sched.after(100 + this.net.random() * (RECONNECT_MAX_MS - 100), () => this.reconnected(conn));
    } else {
      this.keepalive(conn);
    }
  }
}

function random1(random: () => number, maxMs: number): number {
  return 1 + random() * maxMs;
}

function pickFault(kind: Kind, random: () => number): CallFault {
  const x = random();
  if (kind === 'long_poll') return x < 0.3 ? 'resync' : x < 0.6 ? 'dropped' : x < 0.8 ? 'unavailable_no_effect' : 'late';
  if (kind === 'watch') return x < 0.5 ? 'dropped' : 'unavailable_not_done';
  return x < 0.25 ? 'unavailable_no_effect' : x < 0.4 ? 'unavailable_done' : x < 0.55 ? 'unavailable_not_done' : x < 0.65 ? 'hang_done' : x < 0.75 ? 'hang_not_done' : 'late';
}

/** The request's few words in the trace: the item, the daemon state, the cursor. */
function describe(request: Record<string, unknown>): string {
  const id = request['id'];
  if (typeof id === 'string') return ` ${id.slice(0, 8)}@${String(request['epoch'])}`;
  if (typeof request['daemon'] === 'string') return ` ${String(request['daemon'])}${typeof request['state'] === 'string' ? ` ${request['state']}` : ''}`;
  if (typeof request['cursor'] === 'string') return ` cursor=${request['cursor'] || "''"}`;
  return '';
}
