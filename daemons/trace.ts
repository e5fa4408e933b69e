// The daemon framework's spans, through @opentelemetry/api alone (a no-op unless the
// process registered an SDK: sf-daemon does when OTEL_TRACES_EXPORTER asks): one per loop
// iteration that did work, and one per queue job under its iteration's.
//
// An iteration's span is made when its step first asks for its context (Daemon.trace): a
// step that found nothing to do never asks and leaves no span, so an idle daemon's
// wake-ups export nothing. The span starts when the iteration did, so it covers the look
// that found the work, though that call (a Dequeue, made before the step knew) is not its
// child. Its parent is none: the change waiter does not say which of its polls woke the
// daemon, so a wake-up by the feed has no call to name.
//
// Contexts are passed explicitly, through the framework's own call paths: the iteration's
// (or a job's) context goes as the `trace` option of every call the framework makes and
// to a job's handler (JobContext.trace). sf-daemon registers no context manager — an
// AsyncLocalStorage manager would cost every promise of the process, for parentage the
// framework can pass by hand. Where the framework runs an author's code with a span in
// hand (a job's handler) it runs it within the API's context.with too, so a process that
// registered a context manager of its own finds the job as the active context, and its
// calls' spans (whose default parent is the active context) under it, passing nothing.
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Context, Span } from '@opentelemetry/api';

const tracer = trace.getTracer('@sfdb/daemon');

/** Ends `span`, as failed when `err` is given. */
function endSpan(span: Span, err?: unknown): void {
  if (err !== undefined && span.isRecording()) {
    span.recordException(err instanceof Error ? err : String(err));
    span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.name : 'error' });
  }
  span.end();
}

/** One iteration of a daemon's loop: its span, made only when the step asks for it. */
export class IterationTrace {
  private readonly startedAt = Date.now();
  private span: Span | undefined;
  private spanContext: Context | undefined;

  constructor(
    private readonly daemon: string,
    private readonly nodeUuid: string,
  ) {}

  /** The iteration's span as a Context (its span made now, started when the iteration did). */
  get context(): Context {
    if (this.spanContext === undefined) {
      const span = (this.span = tracer.startSpan(`${this.daemon} iteration`, { kind: SpanKind.INTERNAL, startTime: this.startedAt, root: true }));
      if (span.isRecording()) span.setAttributes({ 'sfdb.daemon': this.daemon, 'sfdb.node': this.nodeUuid });
      this.spanContext = trace.setSpan(ROOT_CONTEXT, span);
    }
    return this.spanContext;
  }

  /** The step returned (or threw `err`): its span, if it made one, ends. */
  end(err?: unknown): void {
    if (this.span !== undefined) endSpan(this.span, err);
  }
}

/** A queue job's span under `parent` (its iteration's), and its Context for the job's calls and handler. */
export function startJobSpan(parent: Context, queue: string, id: string, attempts: number): { context: Context; end: (outcome: string, err?: unknown) => void } {
  const span = tracer.startSpan(`job ${queue}`, { kind: SpanKind.INTERNAL }, parent);
  if (span.isRecording()) span.setAttributes({ 'sfdb.queue': queue, 'sfdb.work_item': id, 'sfdb.attempts': attempts });
  return {
    context: trace.setSpan(ROOT_CONTEXT, span),
    end: (outcome, err) => {
      span.setAttribute('sfdb.outcome', outcome);
      endSpan(span, err);
    },
  };
}
