// A wake-up's links (server/changefeed/writer-links.ts): one per distinct sampled writer
// among the changes answered, at most MAX_WRITER_LINKS; none for a change with no writer;
// a writer kept only when sampled.
import { randomBytes } from 'node:crypto';
import { ROOT_CONTEXT, TraceFlags, trace } from '@opentelemetry/api';
import type { SpanContext } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { MAX_WRITER_LINKS, linkWriters, sampledWriter } from '../../server/changefeed/writer-links.js';
import type { WindowEntry } from '../../server/changefeed/window.js';
import { useInMemoryTracing } from '../helpers/tracing.js';

const tracing = useInMemoryTracing();
const tracer = trace.getTracer('writer-links-test');

const ids = (flags = TraceFlags.SAMPLED): SpanContext => ({ traceId: randomBytes(16).toString('hex'), spanId: randomBytes(8).toString('hex'), traceFlags: flags });
const change = (seq: number, writer?: SpanContext): WindowEntry => ({ seq: BigInt(seq), topic: 't', objectType: 'node', objectId: String(seq), kind: 'updated', writer });

describe('writer links', () => {
  it('links each distinct writer once, skips changes without one, and stops at the cap', () => {
    const a = ids();
    const b = ids();
    const many = Array.from({ length: MAX_WRITER_LINKS + 10 }, () => ids());
    const span = tracer.startSpan('wait');
    linkWriters(trace.setSpan(ROOT_CONTEXT, span), [change(1, a), change(2), change(3, a), change(4, b)]);
    linkWriters(trace.setSpan(ROOT_CONTEXT, span), many.map((w, i) => change(10 + i, w)));
    span.end();
    const [done] = tracing.spansOf(span.spanContext().traceId);
    expect(done?.links.map((l) => l.context.spanId)).toEqual([a.spanId, b.spanId, ...many.slice(0, MAX_WRITER_LINKS).map((w) => w.spanId)]);
  });

  it('keeps a writer only when its span is sampled', () => {
    const sampled = ids();
    expect(sampledWriter(trace.setSpanContext(ROOT_CONTEXT, sampled))).toBe(sampled);
    expect(sampledWriter(trace.setSpanContext(ROOT_CONTEXT, ids(TraceFlags.NONE)))).toBeUndefined();
    expect(sampledWriter(ROOT_CONTEXT)).toBeUndefined();
  });
});
