// Cross-cutting concerns of every call, registered once in `new Server({ interceptors })`:
// caller identity, metrics and the call's span. Handlers hold domain logic only.
import { performance } from 'node:perf_hooks';
import * as grpc from '@grpc/grpc-js';
import { errorStatus } from '@sfdb/proto/errors';
import type { RootDraw } from '@sfdb/proto/runtime/tracing-roots';
import type { CallerNames } from '../caller-names.js';
import type { Metrics } from '../metrics.js';
import { admitMetadata } from './admission.js';
import { startCallTrace } from './call-trace.js';
import type { CallTrace } from './call-trace.js';
import { checkCallLayer, interceptingCall } from './grpc-js/intercepting-call.js';
import type { CallListener, PartialStatus } from './grpc-js/intercepting-call.js';
import { CALLER_DAEMON_HEADER } from './unary.js';

const CODE_NAMES: Record<number, string> = Object.fromEntries(
  Object.entries(grpc.status).filter(([, v]) => typeof v === 'number').map(([k, v]) => [v as number, k]),
);

/** '/sfdb.v1.Database/GetNode' -> 'GetNode'. */
export function operationOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/**
 * The one interceptor of every call (one layer, not one per concern).
 *
 * Metrics: counts every call once — database_requests_total{operation, caller_daemon},
 * the label as `callerNames` gives it (caller-names.ts), when its metadata arrives, then
 * duration and (for a non-OK status) errors when it ends: a stream closed before any
 * status is CANCELLED, or DEADLINE_EXCEEDED once its deadline has passed (grpc-js's timer
 * answered it).
 *
 * Admission, when the metadata arrives: the caller headers (step 2 of admission.ts;
 * INVALID_ARGUMENT naming the header, and the handler never hears of the call). The
 * later steps refuse through the unary adapter's answer, measured here like any other.
 *
 * Tracing: the call's span starts when its metadata arrives, before admission (a refused
 * call is traced too), and ends with its status or its cancellation (call-trace.ts); a
 * root is drawn by `draw` first, when it is given (the tier's rootDraw).
 *
 * The layer is one object per call (MeteredCall), the call of the layer below and the
 * listener of the layer above at once, passing everything through: grpc-js's general
 * ServerInterceptingCall would add a responder, a listener wrapper and a closure per
 * event on every call, for queueing that nothing here needs (nothing is asynchronous).
 * How grpc-js takes such a layer is the grpc-js boundary's (grpc-js/intercepting-call.ts).
 */
export function callInterceptor(metrics: Metrics, callerNames: CallerNames, draw?: RootDraw): grpc.ServerInterceptor {
  checkCallLayer(MeteredCall);
  return (method, call) => interceptingCall(new MeteredCall(call, method.path, metrics, callerNames, draw));
}

class MeteredCall implements grpc.ServerInterceptingCallInterface, CallListener {
  private started = 0;
  private readonly operation: string;
  private listener: CallListener | undefined;
  /** The call's span, when it is traced. */
  private trace: CallTrace | undefined;
  /** The caller headers were refused: the handler never hears of this call. */
  private refused = false;
  // Exactly one decrement per call: its status, or its cancellation (a client that
  // cancels or whose deadline passes gets no status from us; a long-poll re-issued on a
  // topic change is such a call).
  private ended = false;
  /** getPeer()'s answer, once read. */
  private peer: string | undefined;

  constructor(
    private readonly next: grpc.ServerInterceptingCallInterface,
    private readonly path: string,
    private readonly metrics: Metrics,
    private readonly callerNames: CallerNames,
    private readonly draw: RootDraw | undefined,
  ) {
    this.operation = operationOf(path);
  }

  private end(): boolean {
    if (this.ended) return false;
    this.ended = true;
    this.metrics.callEnded();
    return true;
  }

  // The call, as the layer above (grpc-js's handler) sees it.

  start(listener: CallListener): void {
    this.started = performance.now();
    this.metrics.callStarted();
    this.listener = listener;
    this.next.start(this);
  }

  sendMetadata(metadata: grpc.Metadata): void {
    this.next.sendMetadata(metadata);
  }

  sendMessage(message: unknown, callback: () => void): void {
    this.next.sendMessage(message, callback);
  }

  sendStatus(status: PartialStatus): void {
    if (this.end()) {
      const code = status.code === grpc.status.OK ? undefined : (CODE_NAMES[status.code] ?? String(status.code));
      // A sampled call's ids become its bucket's exemplar.
      this.metrics.observeRequest(this.operation, (performance.now() - this.started) / 1000, code, this.trace?.sampled);
      this.trace?.end(status.code);
    }
    this.next.sendStatus(status);
  }

  startRead(): void {
    this.next.startRead();
  }

  /**
   * Read once per call: a call never changes connection, and grpc-js builds the name anew
   * on every read through its session's socket proxy (the unary adapter reads it twice a
   * call: the answer backlog at admission and at the answer).
   */
  getPeer(): string {
    return (this.peer ??= this.next.getPeer());
  }

  getDeadline(): grpc.Deadline {
    return this.next.getDeadline();
  }

  getHost(): string {
    return this.next.getHost();
  }

  getAuthContext(): ReturnType<grpc.ServerInterceptingCallInterface['getAuthContext']> {
    return this.next.getAuthContext();
  }

  getConnectionInfo(): ReturnType<grpc.ServerInterceptingCallInterface['getConnectionInfo']> {
    return this.next.getConnectionInfo();
  }

  getMetricsRecorder(): ReturnType<grpc.ServerInterceptingCallInterface['getMetricsRecorder']> {
    return this.next.getMetricsRecorder();
  }

  // The listener, as the layer below (grpc-js's stream) sees it: an intercepting
  // listener (grpc-js/intercepting-call.ts), each method taking the event alone.

  onReceiveMetadata(metadata: grpc.Metadata): void {
    const daemon = metadata.get(CALLER_DAEMON_HEADER)[0];
    const label = this.callerNames.label(typeof daemon === 'string' ? daemon : undefined);
    this.metrics.countRequest(this.operation, label);
    this.trace = startCallTrace(this.path, metadata, label, this.draw);
    const refusal = admitMetadata(metadata);
    if (refusal !== undefined) {
      // Through this call's own sendStatus, so the refusal is measured (and traced) too.
      this.refused = true;
      this.trace?.admitted(false);
      this.sendStatus(errorStatus(refusal.status, refusal.message, refusal.parts));
      return;
    }
    this.listener?.onReceiveMetadata(metadata);
  }

  onReceiveMessage(message: unknown): void {
    if (!this.refused) this.listener?.onReceiveMessage(message);
  }

  onReceiveHalfClose(): void {
    if (!this.refused) this.listener?.onReceiveHalfClose();
  }

  onCancel(): void {
    // grpc-js calls this when the stream closes, also after a status was sent: then the
    // call is over, not cancelled, and its handler is not told (a long-poll's handler
    // would abort its signal, an error object and an event for every answered poll).
    if (!this.end()) return;
    // grpc-js's own timer answers a passed deadline (DEADLINE_EXCEEDED) beneath this layer,
    // then closes the stream: counted as what the client was told, not as a cancel.
    const passed = Number(this.next.getDeadline()) <= Date.now();
    this.metrics.observeRequest(this.operation, (performance.now() - this.started) / 1000, passed ? 'DEADLINE_EXCEEDED' : 'CANCELLED', this.trace?.sampled);
    this.trace?.end(passed ? grpc.status.DEADLINE_EXCEEDED : grpc.status.CANCELLED);
    this.listener?.onCancel();
  }
}
