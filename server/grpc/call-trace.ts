// A call's trace on the tier: its span (kind SERVER), started by the call layer
// (interceptors.ts) when the call's metadata arrives and ended with its status or its
// cancellation, a child of the caller's W3C traceparent when one came and parses; and
// what the unary adapter (unary.ts) reads of it — the span's Context for the handler
// (CallContext.trace) and the id its log lines carry (trace_id, or call_id for a call
// that is not traced).
//
// Through @opentelemetry/api alone: a no-op until the process registers an SDK
// (proto/runtime/tracing.ts; no context manager, so contexts are passed explicitly). With
// none, a call costs the no-op tracer's one non-recording span and nothing else: no
// Context, no mark, no entry.
//
// A call that brings no traceparent is a root. Under a parent-based sampler the layer
// draws it itself (RootDraw, proto/runtime/tracing-roots.ts) and asks the SDK only for a
// root it keeps; and a call under a caller's trace that was not sampled (flags 00) is
// dropped without asking, as the sampler would drop it. A dropped call has no span, no
// mark and no entry: the unary adapter sees a DroppedCall, whose trace id (for its log
// lines: the caller's, when it sent one) and parent context (for whatever its handler
// traces, dropped with it) are found only if used. At 1 % sampling that is 99 calls in 100,
// from a client without an SDK (roots) or from a daemon tracing at 1 % (unsampled parents).
//
// The unary adapter finds the call's trace by a mark on the call's Metadata (an id, in
// the grpc-js boundary's unforgeable ':' keys, grpc-js/call-marks.ts) and this file's
// table of calls in flight: a mark survives a copy of the Metadata, where a lookup by
// the object's identity would not.
//
// What the caller sends is input like any other: a traceparent that does not parse, is
// sent twice, is binary (a -bin key is another key) or is longer than MAX_TRACE_HEADER is
// ignored — the call is served as one without, under a trace of its own — never refused.
import { randomBytes } from 'node:crypto';
import type * as grpc from '@grpc/grpc-js';
import { status as grpcStatus } from '@grpc/grpc-js';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, TraceFlags, isSpanContextValid, propagation, trace } from '@opentelemetry/api';
import type { Context, Span, SpanContext, TextMapGetter } from '@opentelemetry/api';
import type { OwnerTrace } from '../db/owner.js';
import { CALLER_NODE_HEADER, isCallerNode } from '@sfdb/proto/metadata';
import { ROOT_SAMPLED } from '@sfdb/proto/runtime/tracing-roots';
import type { RootDraw } from '@sfdb/proto/runtime/tracing-roots';
import { CALL_MARK, readMark, setMark } from './grpc-js/call-marks.js';

const tracer = trace.getTracer('sf-database');

/**
 * The health service's calls — a peer's probe every SFDB_PEER_PROBE_MS, a load balancer's,
 * Kubernetes' — are traced only under a caller's trace context, never as traces of their
 * own: at any sampling they would be most of a quiet replica's traces.
 */
const HEALTH_SERVICE = '/grpc.health.v1.Health/';

/** The longest traceparent or tracestate read (a tracestate's W3C limit; a traceparent has 55 characters). */
export const MAX_TRACE_HEADER = 512;

/** W3C trace context in a request's Metadata, as the propagator reads it. */
const requestHeaders: TextMapGetter<grpc.Metadata> = {
  keys: (metadata) => Object.keys(metadata.getMap()),
  get: (metadata, key) => {
    const values = metadata.get(key);
    if (values.length === 0 || (key === 'traceparent' && values.length > 1)) return undefined;
    // tracestate's list members may come in several headers: one list.
    let joined = '';
    for (const v of values) {
      if (typeof v !== 'string') return undefined;
      joined = joined === '' ? v : `${joined},${v}`;
      if (joined.length > MAX_TRACE_HEADER) return undefined;
    }
    return joined;
  },
};

/** gRPC statuses that are the server's fault (OpenTelemetry's RPC conventions): the span's status is ERROR. */
const SERVER_FAULTS = new Set<number>([grpcStatus.UNKNOWN, grpcStatus.DEADLINE_EXCEEDED, grpcStatus.UNIMPLEMENTED, grpcStatus.INTERNAL, grpcStatus.UNAVAILABLE, grpcStatus.DATA_LOSS]);

/** Traced calls in flight, by their mark. */
const live = new Map<string, CallTrace>();
/** Call ids: this process's prefix, then a count (the log's `replica` says which replica). */
const PROCESS_PREFIX = randomBytes(4).toString('hex');
let calls = 0;

/** An id for a call's log lines that is unique in this process's life. */
export function nextCallId(): string {
  calls += 1;
  return `${PROCESS_PREFIX}-${calls.toString(36)}`;
}

/** The parent context of a root the layer drew and keeps: the SDK's sampler samples it (tracing-sdk.ts). */
const KEPT_ROOT = ROOT_CONTEXT.setValue(ROOT_SAMPLED, true);

/** What the unary adapter reads of a traced call's trace. */
export interface CallTraceView {
  /** The call's span as a Context, the parent of what the handler traces. */
  readonly spanContext: Context;
  /** The trace id its log lines carry. */
  readonly traceId: string;
  /** The span's ids when it is sampled, else undefined. */
  readonly sampled: SpanContext | undefined;
  /** What the call's statement owner carries when it is sampled (db/owner.ts). */
  ownerTrace(): OwnerTrace | undefined;
  /** Admission's verdict. */
  admitted(yes: boolean): void;
}

/** `bytes` random bytes in hex, not all zero (W3C's rule for a trace or span id). */
function randomId(bytes: number): string {
  for (;;) {
    const id = randomBytes(bytes).toString('hex');
    if (/[^0]/.test(id)) return id;
  }
}

/**
 * A call the layer dropped without a span: a root it drew out, or a call under a caller's
 * trace that was not sampled (a parent-based sampler drops its child). Its ids are found
 * on first use — a log line it writes, a handler that traces under it: the caller's, read
 * again from the call's metadata, or else ids of its own. Whatever the handler starts
 * under it is dropped too (its parent is not sampled).
 */
class DroppedCall implements CallTraceView {
  private ids: SpanContext | undefined;
  private context: Context | undefined;
  readonly sampled = undefined;

  constructor(private readonly metadata: grpc.Metadata) {}

  private get spanIds(): SpanContext {
    return (this.ids ??= trace.getSpanContext(propagation.extract(ROOT_CONTEXT, this.metadata, requestHeaders)) ?? {
      traceId: randomId(16),
      spanId: randomId(8),
      traceFlags: TraceFlags.NONE,
    });
  }

  get traceId(): string {
    return this.spanIds.traceId;
  }

  get spanContext(): Context {
    return (this.context ??= trace.setSpanContext(ROOT_CONTEXT, this.spanIds));
  }

  ownerTrace(): undefined {
    return undefined;
  }

  admitted(): void {}
}

/** The span of one traced call. */
export class CallTrace implements CallTraceView {
  private context: Context | undefined;

  constructor(
    readonly span: Span,
    private readonly mark: string,
  ) {}

  /** The span as a Context, the parent of what the handler traces; made on first use. */
  get spanContext(): Context {
    return (this.context ??= trace.setSpan(ROOT_CONTEXT, this.span));
  }

  get traceId(): string {
    return this.span.spanContext().traceId;
  }

  /**
   * The span's ids when it is sampled (its trace flags), else undefined: a call traced but
   * not sampled makes no statement span and no exemplar.
   */
  get sampled(): SpanContext | undefined {
    const ids = this.span.spanContext();
    return (ids.traceFlags & TraceFlags.SAMPLED) === 0 ? undefined : ids;
  }

  /** What the call's statement owner carries when it is sampled (db/owner.ts): its traceparent and span. */
  ownerTrace(): OwnerTrace | undefined {
    const ids = this.sampled;
    if (ids === undefined) return undefined;
    return { traceId: ids.traceId, traceparent: `00-${ids.traceId}-${ids.spanId}-01`, context: this.spanContext };
  }

  /** Admission's verdict: the caller headers (the call layer), then steps 5 to 9 (the unary adapter). */
  admitted(yes: boolean): void {
    this.span.setAttribute('sfdb.admission', yes ? 'admitted' : 'refused');
  }

  /** The call ended with `code` (its status, or what a cancellation amounts to). */
  end(code: number): void {
    live.delete(this.mark);
    const span = this.span;
    span.setAttribute('rpc.grpc.status_code', code);
    if (SERVER_FAULTS.has(code)) span.setStatus({ code: SpanStatusCode.ERROR, message: grpcStatus[code] });
    span.end();
  }
}

/**
 * Starts the span of a call whose metadata just arrived, under the caller's trace context
 * when it sent a valid one; undefined when the call is not traced (no SDK registered), or
 * when the layer drops it (with `draw`: a root drawn out, a caller's unsampled trace).
 * `path`: the method's ('/sfdb.v1.Database/GetNode'); `callerDaemon`: the call's label;
 * `draw`: how roots are drawn here, when they are (rootDraw of the tier's tracing settings).
 */
export function startCallTrace(path: string, metadata: grpc.Metadata, callerDaemon: string, draw?: RootDraw): CallTrace | undefined {
  if (draw !== undefined && metadata.get('traceparent').length === 0) {
    return path.startsWith(HEALTH_SERVICE) || !draw() ? undefined : begin(path, metadata, callerDaemon, KEPT_ROOT);
  }
  const parent = propagation.extract(ROOT_CONTEXT, metadata, requestHeaders);
  const caller = trace.getSpanContext(parent);
  // Under a parent-based sampler a caller's unsampled trace has no span here either: the
  // sampler would drop it (a daemon tracing at 1 % sends 99 of 100 calls so).
  if (draw !== undefined && caller !== undefined && (caller.traceFlags & TraceFlags.SAMPLED) === 0) return undefined;
  if (path.startsWith(HEALTH_SERVICE) && caller === undefined) return undefined;
  return begin(path, metadata, callerDaemon, parent);
}

function begin(path: string, metadata: grpc.Metadata, callerDaemon: string, parent: Context): CallTrace | undefined {
  const span = tracer.startSpan(path.slice(1), { kind: SpanKind.SERVER }, parent);
  if (!isSpanContextValid(span.spanContext())) return undefined;
  if (span.isRecording()) {
    const slash = path.lastIndexOf('/');
    span.setAttributes({ 'rpc.system': 'grpc', 'rpc.service': path.slice(1, slash), 'rpc.method': path.slice(slash + 1), 'sfdb.caller_daemon': callerDaemon });
    // A node claim only once it is one (admission refuses anything else): no caller's text in a span.
    const node = metadata.get(CALLER_NODE_HEADER);
    if (node.length === 1 && typeof node[0] === 'string' && isCallerNode(node[0])) span.setAttribute('sfdb.caller_node', node[0]);
  }
  const mark = nextCallId();
  const traced = new CallTrace(span, mark);
  live.set(mark, traced);
  setMark(metadata, CALL_MARK, mark);
  return traced;
}

/**
 * The trace of the call whose metadata this is, while it is in flight: its CallTrace, a
 * DroppedCall when the layer drops calls itself (`draw`, as startCallTrace was given it)
 * and dropped this one, or undefined when the call is not traced.
 */
export function callTraceOf(metadata: grpc.Metadata, draw?: RootDraw): CallTraceView | undefined {
  const mark = readMark(metadata, CALL_MARK);
  if (mark !== undefined) return live.get(mark);
  return draw === undefined ? undefined : new DroppedCall(metadata);
}
