// The span of a client call (kind CLIENT), one per Transport.call whatever its retries,
// through @opentelemetry/api alone: a no-op unless the process registered an SDK (sf-daemon
// does when OTEL_TRACES_EXPORTER asks; an application may register its own). It names the
// operation, the replica each attempt went to, each retry as an event (attempt, code,
// backoff) and the final code; every attempt carries its context to the tier as W3C
// traceparent/tracestate in the call's metadata (the process's propagator writes them).
//
// Its parent is the call's `trace` option when given (the daemon framework passes its
// iteration's), else the API's active context: a process with a context manager of its
// own gets its spans' children without passing anything.
import * as grpc from '@grpc/grpc-js';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, isSpanContextValid, propagation, trace } from '@opentelemetry/api';
import type { Context, Span, TextMapSetter } from '@opentelemetry/api';
import type { MethodName } from '@sfdb/proto/types';

const tracer = trace.getTracer('@sfdb/client');

const SERVICE = 'sfdb.v1.Database';

const requestHeaders: TextMapSetter<grpc.Metadata> = { set: (metadata, key, value) => metadata.set(key, value) };

/** The replica an attempt went to, as the channel knows it (grpc-js: its address, host:port). */
export interface AttemptPeer {
  getPeer(): string;
}

/** One call's span, and what its attempts need of it. */
export class CallSpan {
  /** The span as a Context for the propagator: only when it has one to pass on. */
  private readonly carried: Context | undefined;
  /** The replica of the latest attempt, read only while the span records. */
  private replica: string | undefined;

  private readonly span: Span;

  constructor(method: MethodName, callerDaemon: string, parent: Context | undefined) {
    const span = (this.span = tracer.startSpan(`${SERVICE}/${method}`, { kind: SpanKind.CLIENT }, parent ?? context.active()));
    if (span.isRecording()) span.setAttributes({ 'rpc.system': 'grpc', 'rpc.service': SERVICE, 'rpc.method': method, 'sfdb.caller_daemon': callerDaemon });
    this.carried = isSpanContextValid(span.spanContext()) ? trace.setSpan(ROOT_CONTEXT, span) : undefined;
  }

  /** An attempt's metadata: a copy of the call's, with the span's trace context when there is one. */
  metadata(base: grpc.Metadata): grpc.Metadata {
    const metadata = base.clone();
    if (this.carried !== undefined) propagation.inject(this.carried, metadata, requestHeaders);
    return metadata;
  }

  /** An attempt ended; `peer` is where it went, when the channel says. */
  attempted(peer: AttemptPeer | undefined): void {
    if (peer === undefined || !this.span.isRecording()) return;
    this.replica = peer.getPeer();
    this.span.setAttribute('sfdb.replica', this.replica);
  }

  /** The attempt numbered `attempt` (0 first) failed with `code`; the next goes after `backoffMs`. */
  retrying(attempt: number, code: number, backoffMs: number): void {
    if (!this.span.isRecording()) return;
    this.span.addEvent('retry', {
      attempt,
      'rpc.grpc.status_code': code,
      backoff_ms: backoffMs,
      ...(this.replica !== undefined ? { 'sfdb.replica': this.replica } : {}),
    });
  }

  /** The call's outcome: OK, or the gRPC code it failed with (undefined: not a gRPC failure, or aborted by its caller). */
  end(code: number | undefined): void {
    const span = this.span;
    if (span.isRecording()) {
      if (code !== undefined) span.setAttribute('rpc.grpc.status_code', code);
      if (code !== grpc.status.OK) span.setStatus({ code: SpanStatusCode.ERROR, message: code === undefined ? 'not answered' : grpc.status[code] });
    }
    span.end();
  }
}
