// A client call traced through the tier (in-process, on this file's database), with the
// trace SDK and its in-memory exporter registered in this process as sf-daemon registers
// its own: one CLIENT span per call (operation, the replica it went to, each retry an
// event, the final code), the tier's SERVER span of each attempt under it, one trace.
// The tier refuses a (node, daemon) pair over 1 call a second here, so calls made at once
// are refused with a pushback and retried: a refused attempt is a refused tier span.
import { randomUUID } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { describe, expect, it } from 'vitest';
import { useTestTier } from '../helpers/tier.js';
import { useInMemoryTracing } from '../helpers/tracing.js';

const tracing = useInMemoryTracing();
const { t } = useTestTier({ env: { SFDB_RATE_LIMIT_DAEMON_RPS: '1', SFDB_RATE_LIMIT_DAEMON_BURST: '1' } });
const tracer = trace.getTracer('tracing-test');

/** The client's call spans (the tier's statements are CLIENT spans too, named `db …`: tracing-statements.test.ts). */
const isCallSpan = (s: ReadableSpan): boolean => s.kind === SpanKind.CLIENT && s.name.startsWith('sfdb.v1.');

describe('a traced client call through the tier', () => {
  it("is one CLIENT span, the tier's SERVER span its child, in the caller's trace", async () => {
    const node = randomUUID();
    const db = t.client({ callerNode: node, cache: false });
    const test = tracer.startSpan('test');
    const { traceId } = test.spanContext();
    await db.getNode(randomUUID(), { trace: trace.setSpan(ROOT_CONTEXT, test) });
    test.end();
    const spans = tracing.spansOf(traceId);
    const client = spans.filter(isCallSpan);
    const server = spans.filter((s) => s.kind === SpanKind.SERVER);
    expect(client).toHaveLength(1);
    expect(server).toHaveLength(1);
    const [c, s] = [client[0], server[0]];
    expect(c?.name).toBe('sfdb.v1.Database/GetNode');
    expect(c?.parentSpanContext?.spanId).toBe(test.spanContext().spanId);
    expect(c?.attributes).toMatchObject({
      'rpc.system': 'grpc',
      'rpc.method': 'GetNode',
      'sfdb.caller_daemon': 'test',
      'sfdb.replica': `127.0.0.1:${t.tier.grpcPort}`,
      'rpc.grpc.status_code': grpc.status.OK,
    });
    expect(c?.events).toEqual([]);
    expect(s?.name).toBe('sfdb.v1.Database/GetNode');
    expect(s?.parentSpanContext?.spanId).toBe(c?.spanContext().spanId);
    expect(s?.attributes).toMatchObject({ 'sfdb.caller_daemon': 'test', 'sfdb.caller_node': node, 'sfdb.admission': 'admitted', 'rpc.grpc.status_code': grpc.status.OK });
  });

  it('records a retry as an event of the one CLIENT span; each attempt is a SERVER span under it', async () => {
    // Three calls at once of a pair with one token: two are refused (a pushback) and retried.
    const db = t.client({ callerNode: randomUUID(), cache: false });
    const tests = [0, 1, 2].map(() => tracer.startSpan('test'));
    await Promise.all(tests.map((test) => db.getNode(randomUUID(), { trace: trace.setSpan(ROOT_CONTEXT, test) })));
    for (const test of tests) test.end();
    let retried = 0;
    for (const test of tests) {
      const spans = tracing.spansOf(test.spanContext().traceId);
      const [c, ...others] = spans.filter(isCallSpan);
      expect(others).toEqual([]);
      const events = c?.events ?? [];
      if (events.length > 0) retried += 1;
      expect(events.map((e) => e.name)).toEqual(events.map(() => 'retry'));
      events.forEach((e, attempt) => {
        expect(e.attributes).toMatchObject({ attempt, 'rpc.grpc.status_code': grpc.status.RESOURCE_EXHAUSTED, 'sfdb.replica': `127.0.0.1:${t.tier.grpcPort}` });
        // The wait the pushback asked for (up to twice it).
        expect(Number(e.attributes?.['backoff_ms'])).toBeGreaterThan(0);
      });
      expect(c?.attributes['rpc.grpc.status_code']).toBe(grpc.status.OK);
      expect(c?.status.code).toBe(SpanStatusCode.UNSET);
      const server = spans.filter((s) => s.kind === SpanKind.SERVER);
      for (const s of server) expect(s.parentSpanContext?.spanId).toBe(c?.spanContext().spanId);
      expect(server.map((s) => [s.attributes['sfdb.admission'], s.attributes['rpc.grpc.status_code']])).toEqual([
        ...events.map(() => ['refused', grpc.status.RESOURCE_EXHAUSTED]),
        ['admitted', grpc.status.OK],
      ]);
    }
    expect(retried).toBeGreaterThanOrEqual(2);
  });

  it("ends a call's span with its failure", async () => {
    const db = t.client({ callerNode: randomUUID(), cache: false });
    const test = tracer.startSpan('test');
    const { traceId } = test.spanContext();
    await expect(db.getNode('not-a-uuid', { trace: trace.setSpan(ROOT_CONTEXT, test) })).rejects.toThrow(/uuid/);
    test.end();
    const c = tracing.spansOf(traceId).find(isCallSpan);
    expect(c?.attributes['rpc.grpc.status_code']).toBe(grpc.status.INVALID_ARGUMENT);
    expect(c?.status).toEqual({ code: SpanStatusCode.ERROR, message: 'INVALID_ARGUMENT' });
  });
});
