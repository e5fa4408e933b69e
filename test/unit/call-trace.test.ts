// A call's trace on the tier (server/grpc/call-trace.ts), in a real grpc-js server with the
// tier's call layer and unary adapter, called by a real grpc-js client:
// - untraced (no SDK registered: the file's first block, see test/helpers/tracing.ts), every
//   line a call logs carries one call_id, and its handler's context is the root;
// - traced, the call's span is a SERVER span under the caller's W3C traceparent, its
//   handler's context and every line it logs carry it, and admission's verdict is on it;
// - a malformed, repeated, oversized, binary or hostile traceparent is ignored: the call
//   is served under a trace of its own, never refused, never INTERNAL.
import * as grpc from '@grpc/grpc-js';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, propagation, trace } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_TRACE_HEADER } from '../../server/grpc/call-trace.js';
import { ECHO, HEALTH, NODE, callLayer as call, serveCallLayer } from '../helpers/call-layer.js';
import type { Served } from '../helpers/call-layer.js';
import { useInMemoryTracing } from '../helpers/tracing.js';

const running: Served[] = [];
afterEach(() => {
  for (const s of running.splice(0)) s.stop();
});

async function serve(): Promise<Served> {
  const served = await serveCallLayer();
  running.push(served);
  return served;
}

describe('an untraced call (no SDK registered)', () => {
  it("logs every line with the call's call_id, and its handler's context is the root", async () => {
    const s = await serve();
    expect(await call(s.port, 'boom')).toBe(grpc.status.INTERNAL);
    expect(await call(s.port, 'boom')).toBe(grpc.status.INTERNAL);
    expect(s.lines.map((l) => l['msg'])).toEqual(['handling', 'unexpected error in handler', 'handling', 'unexpected error in handler']);
    const ids = s.lines.map((l) => l['call_id']);
    expect(ids.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
    // One id for both lines of a call, another for the next call.
    expect(ids[0]).toBe(ids[1]);
    expect(ids[2]).toBe(ids[3]);
    expect(ids[0]).not.toBe(ids[2]);
    expect(s.lines.some((l) => 'trace_id' in l)).toBe(false);
    expect(s.contexts).toEqual([ROOT_CONTEXT, ROOT_CONTEXT]);
  });
});

describe('a traced call', () => {
  const tracing = useInMemoryTracing();
  const tracer = trace.getTracer('call-trace-test');

  /** Metadata carrying `span`'s W3C trace context, as a traced client sends it. */
  function under(span: ReturnType<typeof tracer.startSpan>): grpc.Metadata {
    const metadata = new grpc.Metadata();
    propagation.inject(trace.setSpan(ROOT_CONTEXT, span), metadata, { set: (m, k, v) => m.set(k, v) });
    return metadata;
  }

  /** The tier's spans (kind SERVER) finished since `before`. */
  function serverSpans(before: number): ReadableSpan[] {
    return tracing.exporter.getFinishedSpans().slice(before).filter((x) => x.kind === SpanKind.SERVER);
  }

  it("is a SERVER span under the caller's traceparent; its handler's context and log lines carry it", async () => {
    const s = await serve();
    const caller = tracer.startSpan('caller');
    const { traceId, spanId } = caller.spanContext();
    const before = tracing.exporter.getFinishedSpans().length;
    expect(await call(s.port, 'hello', under(caller))).toBe(grpc.status.OK);
    expect(await call(s.port, 'boom', under(caller))).toBe(grpc.status.INTERNAL);
    caller.end();
    const [ok, boom] = serverSpans(before);
    for (const x of [ok, boom]) {
      expect(x?.name).toBe('trace.Test/Echo');
      expect(x?.spanContext().traceId).toBe(traceId);
      expect(x?.parentSpanContext?.spanId).toBe(spanId);
      expect(x?.attributes).toMatchObject({ 'rpc.system': 'grpc', 'rpc.service': 'trace.Test', 'rpc.method': 'Echo', 'sfdb.caller_daemon': 'test', 'sfdb.caller_node': NODE, 'sfdb.admission': 'admitted' });
    }
    expect(ok?.attributes['rpc.grpc.status_code']).toBe(grpc.status.OK);
    expect(ok?.status.code).toBe(SpanStatusCode.UNSET);
    expect(boom?.attributes['rpc.grpc.status_code']).toBe(grpc.status.INTERNAL);
    expect(boom?.status).toEqual({ code: SpanStatusCode.ERROR, message: 'INTERNAL' });
    // The handler's context is the call's span; every line the call logged names its trace.
    expect(s.contexts.map((c) => trace.getSpanContext(c)?.spanId)).toEqual([ok?.spanContext().spanId, boom?.spanContext().spanId]);
    expect(s.lines.map((l) => [l['msg'], l['trace_id'], 'call_id' in l])).toEqual([
      ['handling', traceId, false],
      ['handling', traceId, false],
      ['unexpected error in handler', traceId, false],
    ]);
  });

  it("traces a health check only under a caller's trace: one without (a peer's probe) starts none", async () => {
    const s = await serve();
    const before = tracing.exporter.getFinishedSpans().length;
    expect(await call(s.port, 'probe', new grpc.Metadata(), NODE, HEALTH)).toBe(grpc.status.OK);
    expect(await call(s.port, 'echo', new grpc.Metadata(), NODE, ECHO)).toBe(grpc.status.OK);
    expect(serverSpans(before).map((x) => x.name)).toEqual(['trace.Test/Echo']);
    const caller = tracer.startSpan('caller');
    expect(await call(s.port, 'probe', under(caller), NODE, HEALTH)).toBe(grpc.status.OK);
    caller.end();
    const [check] = serverSpans(before).slice(1);
    expect(check?.name).toBe('grpc.health.v1.Health/Check');
    expect(check?.parentSpanContext?.spanId).toBe(caller.spanContext().spanId);
  });

  it('refused at its caller headers: traced as refused, INVALID_ARGUMENT, its handler never run', async () => {
    const s = await serve();
    const before = tracing.exporter.getFinishedSpans().length;
    expect(await call(s.port, 'hello', new grpc.Metadata(), 'NOT-A-UUID')).toBe(grpc.status.INVALID_ARGUMENT);
    const [refused] = serverSpans(before);
    expect(refused?.attributes).toMatchObject({ 'sfdb.admission': 'refused', 'rpc.grpc.status_code': grpc.status.INVALID_ARGUMENT });
    // Not a claim: the caller's text is not on the span.
    expect(refused?.attributes['sfdb.caller_node']).toBeUndefined();
    expect(s.contexts).toEqual([]);
  });

  it('carries the tracestate of a valid traceparent', async () => {
    const s = await serve();
    const metadata = new grpc.Metadata();
    metadata.set('traceparent', '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01');
    metadata.add('tracestate', 'vendor=a');
    metadata.add('tracestate', 'other=b');
    const before = tracing.exporter.getFinishedSpans().length;
    expect(await call(s.port, 'hello', metadata)).toBe(grpc.status.OK);
    const [x] = serverSpans(before);
    expect(x?.spanContext().traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(x?.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
    expect(x?.spanContext().traceState?.serialize()).toBe('vendor=a,other=b');
  });

  const valid = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
  const hostile: [string, (m: grpc.Metadata) => void][] = [
    ['not a traceparent', (m) => m.set('traceparent', 'not-a-traceparent')],
    ['empty', (m) => m.set('traceparent', '')],
    ['an all-zero trace id', (m) => m.set('traceparent', '00-00000000000000000000000000000000-00f067aa0ba902b7-01')],
    ['version ff', (m) => m.set('traceparent', 'ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01')],
    ['version 00 with more after it', (m) => m.set('traceparent', `${valid}-more`)],
    ['upper-case hex', (m) => m.set('traceparent', valid.toUpperCase())],
    ['sent twice', (m) => (m.add('traceparent', valid), m.add('traceparent', '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01'))],
    ['sent a hundred times', (m) => Array.from({ length: 100 }, () => m.add('traceparent', valid))],
    // A later version may carry more after the flags; past the length read it is not read at all.
    [`a later version, ${MAX_TRACE_HEADER + 88} characters`, (m) => m.set('traceparent', `cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-${'a'.repeat(MAX_TRACE_HEADER + 32)}`)],
    ['binary (a -bin key)', (m) => m.set('traceparent-bin', Buffer.from(valid))],
    ['a tracestate alone', (m) => m.set('tracestate', 'vendor=a')],
    ['not hex', (m) => m.set('traceparent', '00-4bf92f3577b34da6a3ce929d0e0e473g-00f067aa0ba902b7-01')],
    ['a short span id', (m) => m.set('traceparent', '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b-01')],
    // (A value outside printable ASCII never reaches the tier's Metadata: grpc-js drops it
    // on arrival, grpc-js/request-metadata.ts, and the call has no traceparent at all.)
    ['words and spaces', (m) => m.set('traceparent', "00-'; DROP TABLE nodes; -- -01")],
  ];

  it.each(hostile)('ignores a traceparent that is %s: served under a trace of its own', async (_what, put) => {
    const s = await serve();
    const metadata = new grpc.Metadata();
    put(metadata);
    const before = tracing.exporter.getFinishedSpans().length;
    expect(await call(s.port, 'hello', metadata)).toBe(grpc.status.OK);
    const [x] = serverSpans(before);
    expect(x?.parentSpanContext).toBeUndefined();
    expect(x?.spanContext().traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(x?.spanContext().traceId).not.toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(s.lines.map((l) => l['trace_id'])).toEqual([x?.spanContext().traceId]);
  });

  it('reads a valid traceparent beside an oversized tracestate, and drops the tracestate', async () => {
    const s = await serve();
    const metadata = new grpc.Metadata();
    metadata.set('traceparent', valid);
    metadata.set('tracestate', `vendor=${'a'.repeat(MAX_TRACE_HEADER)}`);
    const before = tracing.exporter.getFinishedSpans().length;
    expect(await call(s.port, 'hello', metadata)).toBe(grpc.status.OK);
    const [x] = serverSpans(before);
    expect(x?.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
    expect(x?.spanContext().traceState).toBeUndefined();
  });
});
