// One channel stack per client instance: the channel, the caller identity in every call's metadata,
// deadlines, retries, cancellation and the call's span (trace.ts). Every typed method of
// the client goes through `call`. An aborted call (CallOptions.signal) is cancelled on the
// wire and rejects with the signal's reason (an AbortError); it is never retried.
import * as grpc from '@grpc/grpc-js';
import type { MethodDefinition } from '@grpc/proto-loader';
import type { Context } from '@opentelemetry/api';
import { loadDatabaseProto } from '@sfdb/proto/load';
import { errorRow, noEffect, pushbackMs } from '@sfdb/proto/errors';
import { CALLER_DAEMON_HEADER, CALLER_NODE_HEADER } from '@sfdb/proto/metadata';
import type { MethodName, RequestIn, ResponseOut } from '@sfdb/proto/types';
import { systemClock } from '@sfdb/proto/runtime/clock';
import type { Clock } from '@sfdb/proto/runtime/clock';
import type { ResolvedClientOptions } from './config.js';
import { DatabaseUnavailable, fromServiceError, transportStatus } from './errors.js';
import { RETRY_CLASS } from './methods.js';
import { AVOIDANCE_OPTION, LONG_POLL_MARK, P2C_POLICY, WATCH_MARK_VALUE, registerP2c } from './p2c.js';
import { ReplicaAvoidance } from './avoidance.js';
import { serverNaming } from './tls-server-name.js';
import { jitteredDelay, pushbackDelay } from './retry.js';
import { CallSpan } from './trace.js';
import type { AttemptPeer } from './trace.js';

export { CALLER_DAEMON_HEADER, CALLER_NODE_HEADER };

/**
 * The metadata every call of a client starts from: the caller identity, fixed at
 * construction. Each call sends a copy, so the identity costs no interceptor (an
 * intercepting call object and its listener per call, which a process holding thousands
 * of clients feels in its garbage collector).
 */
function callerMetadata(daemon: string, node: string): grpc.Metadata {
  const metadata = new grpc.Metadata();
  if (daemon) metadata.set(CALLER_DAEMON_HEADER, daemon);
  if (node) metadata.set(CALLER_NODE_HEADER, node);
  return metadata;
}

export interface CallOptions {
  /** Overrides the client's deadline for this call (retries included). */
  deadlineMs?: number;
  /**
   * Cancels the call when it aborts: the request in flight is cancelled, a retry pending
   * is dropped, and the call rejects with `signal.reason` (a DOMException 'AbortError'
   * unless the aborter gave another). Already aborted: rejects before sending.
   */
  signal?: AbortSignal;
  /**
   * The OpenTelemetry context the call's span is a child of (default: the API's active
   * context). A no-op unless the process registered an OpenTelemetry SDK.
   */
  trace?: Context;
}

/** What a call aborted through `signal` rejects with. */
export function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

/**
 * The request never reached a handler: no connection ("No connection established" and
 * friends), or the server refused the stream (HTTP/2 REFUSED_STREAM — a connection aged
 * out with GOAWAY, or a replica draining), which grpc-js would retry itself had we not
 * turned its retries off for our own.
 */
function neverSent(err: grpc.ServiceError): boolean {
  return err.code === grpc.status.UNAVAILABLE && /no connection established|failed to connect|stream refused by server/i.test(err.details ?? '');
}

type AnyMethod = MethodDefinition<object, object>;

/** One unary call as the transport hands it to its channel. */
export interface UnaryRequest {
  /** The RPC's name ('GetNode'). */
  readonly method: MethodName;
  readonly request: unknown;
  /** A copy: the channel may change it (the p2c picker removes its mark). */
  readonly metadata: grpc.Metadata;
  /** When the call ends DEADLINE_EXCEEDED, in the transport's clock's time. */
  readonly deadline: number;
}

/**
 * Where the transport's calls go: grpc-js by default (GrpcChannel below); a simulated tier
 * in the deterministic simulation (harness/sim/). `start` calls `done` once, with an error
 * carrying a gRPC status (`code`, `details`, `metadata`) or the decoded answer, and the
 * replica it went to when the channel knows (read only by a span that records), and
 * answers a function that cancels the call (after which `done` is not called).
 */
export interface UnaryChannel {
  start(call: UnaryRequest, done: (err: grpc.ServiceError | null, response?: unknown, peer?: AttemptPeer) => void): () => void;
  close(): void;
}

/** What a transport may be given instead of its defaults: a channel and a clock (a simulation's). */
export interface TransportRuntime {
  /**
   * Makes the channel, given the replicas to pick around (the replica watch's, which the
   * channel's balancer honours and tells of its long-polls: client/avoidance.ts). Absent:
   * grpc-js over the options' target.
   */
  channel?: (avoidance: ReplicaAvoidance) => UnaryChannel;
  /** Deadlines and retry waits; default the wall clock (grpc-js takes deadlines as Date.now() time). */
  clock?: Clock;
}

/** Date.now() time, as grpc-js deadlines are, with the system clock's sleep. */
const wallClock: Clock = { now: () => Date.now(), sleep: systemClock.sleep };

/** How often a connection with a call open is pinged, and how long a ping may go unanswered. */
export const KEEPALIVE_MS = 10_000;
export const KEEPALIVE_TIMEOUT_MS = 5_000;

/** The long-poll, and the replica watch: p2c counts each apart from unary calls (client/p2c.ts). */
const LONG_POLL_METHOD = 'WaitForChanges';
const WATCH_METHOD = 'WatchReplicas';

/** The grpc-js policy of `balance` as a service config. */
function serviceConfig(balance: ResolvedClientOptions['balance']): string {
  if (balance === 'p2c') registerP2c();
  return JSON.stringify({ loadBalancingConfig: [{ [balance === 'p2c' ? P2C_POLICY : 'round_robin']: {} }] });
}

/** The default channel: a grpc-js client over the options' target, with the client's balancer. */
class GrpcChannel implements UnaryChannel {
  private readonly client: grpc.Client;
  private readonly service: Record<string, AnyMethod>;

  constructor(options: ResolvedClientOptions, avoidance: ReplicaAvoidance) {
    const { proto } = loadDatabaseProto();
    this.service = proto.sfdb.v1.Database.service as unknown as Record<string, AnyMethod>;
    // With TLS, never an IP address as the server name (tls-server-name.ts).
    const naming = options.tls ? serverNaming(options.target) : undefined;
    const credentials = options.tls ? grpc.credentials.createSsl(options.tls.ca, options.tls.key, options.tls.cert, naming?.verify) : grpc.credentials.createInsecure();
    this.client = new grpc.Client(options.target, credentials, {
      ...naming?.channelOptions,
      'grpc.service_config': serviceConfig(options.balance),
      'grpc.enable_retries': 0,
      // grpc-js's channelz registry (per-channel traces and call counters, kept in global
      // maps) is read by nothing here; off, a client holds about a fifth less heap, which
      // a process holding thousands of clients (a simulator of a cluster) feels in its GC.
      'grpc.enable_channelz': 0,
      // This client's own connections: grpc-js would otherwise share one HTTP/2 connection
      // per replica among every client of the process with the same options (its global
      // subchannel pool), so a process holding many clients — a simulator of a whole
      // cluster — put every simulated daemon on one connection. The tier's HTTP/2 layer
      // (nghttp2) closes a connection whose peer resets more than 1000 streams at once
      // (then 33/s): its rapid-reset guard, GOAWAY with INTERNAL_ERROR, failing every call
      // on it. One daemon cancels a handful of long-polls as it starts; 1,400 daemons on
      // one connection cancelled over 1,000 within seconds. With a connection per client,
      // each one's resets are its own process's (docs/BENCHMARKS.md, cold start).
      'grpc.use_local_subchannel_pool': 1,
      'grpc.initial_reconnect_backoff_ms': 100,
      'grpc.max_reconnect_backoff_ms': 2000,
      // The backstop under the replica watch (client/replica-watch.ts: a freeze the other
      // replicas see is heard within about 1.5 s), for what they cannot see or tell.
      // A replica that stops answering without closing its connections (stopped, frozen, cut
      // off by the network) holds this process's long-poll: nothing it misses arrives until
      // the poll's deadline (its 30 s timeout + 10 s). A ping every 10 s while a call is
      // open, unanswered for 5 s, ends the connection sooner, and the poll goes to another
      // replica: an operator stop through another replica is heard within about 15 s of
      // the stall, not 40 (test/chaos/stalled-replica.test.ts). A ping is an HTTP/2 frame
      // answered by the replica's nghttp2, not a call: 700 a second at 7,000 processes.
      'grpc.keepalive_time_ms': KEEPALIVE_MS,
      'grpc.keepalive_timeout_ms': KEEPALIVE_TIMEOUT_MS,
      [AVOIDANCE_OPTION]: avoidance,
    });
  }

  start(call: UnaryRequest, done: (err: grpc.ServiceError | null, response?: unknown, peer?: AttemptPeer) => void): () => void {
    const def = this.service[call.method];
    if (!def) throw new Error(`unknown method ${call.method}`);
    // The call itself names its replica (getPeer). Declared before the call is made: a
    // callback grpc-js ran at once would find it unset, not in its temporal dead zone.
    let pending: grpc.ClientUnaryCall | undefined;
    // eslint-disable-next-line prefer-const -- see above
    pending = this.client.makeUnaryRequest(
      def.path,
      def.requestSerialize as (value: unknown) => Buffer,
      def.responseDeserialize,
      call.request,
      call.metadata,
      { deadline: call.deadline },
      (err, response) => done(err, response, pending),
    );
    return () => pending?.cancel();
  }

  close(): void {
    this.client.close();
  }
}

export class Transport {
  private readonly channel: UnaryChannel;
  private readonly clock: Clock;
  private readonly metadata: grpc.Metadata;
  /** A long-poll's metadata: LONG_POLL_MARK for the p2c picker, which removes it before sending. */
  private readonly longPollMetadata: grpc.Metadata;
  private readonly watchMetadata: grpc.Metadata;
  /** Replicas the balancer picks around (p2c only): client/replica-watch.ts. */
  readonly avoidance = new ReplicaAvoidance();

  constructor(
    readonly options: ResolvedClientOptions,
    runtime: TransportRuntime = {},
  ) {
    this.clock = runtime.clock ?? wallClock;
    this.channel = runtime.channel?.(this.avoidance) ?? new GrpcChannel(options, this.avoidance);
    this.metadata = callerMetadata(options.callerDaemon, options.callerNode);
    this.longPollMetadata = this.metadata.clone();
    this.watchMetadata = this.metadata.clone();
    if (options.balance === 'p2c') {
      this.longPollMetadata.set(LONG_POLL_MARK, '1');
      this.watchMetadata.set(LONG_POLL_MARK, WATCH_MARK_VALUE);
    }
  }

  /** Calls `method` with the client's deadline and retry policy; throws typed errors. */
  async call<M extends MethodName>(method: M, request: RequestIn<M>, opts: CallOptions = {}): Promise<ResponseOut<M>> {
    if (!Object.hasOwn(RETRY_CLASS, method)) throw new Error(`unknown method ${method}`);
    const { signal } = opts;
    if (signal?.aborted) throw abortError(signal);
    const deadline = this.clock.now() + (opts.deadlineMs ?? this.options.deadlineMs);
    const retryClass = RETRY_CLASS[method];
    const metadata = method === LONG_POLL_METHOD ? this.longPollMetadata : method === WATCH_METHOD ? this.watchMetadata : this.metadata;
    const span = new CallSpan(method, this.options.callerDaemon, opts.trace);
    // The last status seen, for the span: undefined for a failure that is no gRPC status.
    let code: number | undefined;
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          const response = (await this.once(method, span, metadata, request, deadline, signal)) as ResponseOut<M>;
          code = grpc.status.OK;
          return response;
        } catch (err) {
          if (signal?.aborted) throw abortError(signal);
          if (typeof (err as grpc.ServiceError).code !== 'number') throw err;
          const e = transportStatus(err as grpc.ServiceError);
          code = e.code;
          // UNAVAILABLE and RESOURCE_EXHAUSTED: the statuses the error table retries at all.
          const transient = (errorRow(e.code)?.retry ?? 'never') !== 'never';
          const mayRetry = transient && (retryClass !== 'once' || neverSent(e) || noEffect(e.metadata));
          if (!mayRetry || attempt + 1 >= this.options.maxAttempts) throw fromServiceError(e, method);
          const pushback = pushbackMs(e.metadata);
          const delay = pushback !== undefined ? pushbackDelay(pushback) : jitteredDelay(attempt, this.options.retryBaseMs, this.options.retryCapMs);
          if (this.clock.now() + delay >= deadline) {
            throw new DatabaseUnavailable(`${method}: ${e.details} (deadline reached while retrying)`, e.code, method, { cause: e });
          }
          span.retrying(attempt, e.code, delay);
          await this.clock.sleep(delay, signal);
          if (signal?.aborted) throw abortError(signal);
        }
      }
    } finally {
      span.end(signal?.aborted ? grpc.status.CANCELLED : code);
    }
  }

  private once(method: MethodName, span: CallSpan, metadata: grpc.Metadata, request: unknown, deadline: number, signal: AbortSignal | undefined): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        cancel();
        reject(abortError(signal as AbortSignal));
      };
      const cancel = this.channel.start({ method, request, metadata: span.metadata(metadata), deadline }, (err, response, peer) => {
        signal?.removeEventListener('abort', onAbort);
        span.attempted(peer);
        if (err) reject(err);
        else resolve(response);
      });
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  close(): void {
    this.channel.close();
  }
}
