// Roots the tier's call layer draws itself (proto/runtime/tracing-roots.ts,
// server/grpc/call-trace.ts), with the tier's own sampler (proto/runtime/tracing-sdk.ts):
// - which samplers let a root's maker draw it, and at what ratio;
// - the sampler samples a root started under ROOT_SAMPLED, whatever its own ratio, and
//   nothing else because of it (a child follows its parent);
// - in a real grpc-js server with the call layer and the unary adapter, for any sequence
//   of calls (fast-check): a call without a traceparent is drawn once, and only such a
//   call; the SERVER spans exported are exactly the kept roots' and the sampled parents';
//   the SDK is asked for no other call's span (a dropped root, a caller's unsampled trace);
//   every call's log lines carry a W3C trace id, its caller's when it sent one; a dropped
//   call's handler gets a context whose span records nothing and samples nothing.
import * as grpc from '@grpc/grpc-js';
import { ROOT_CONTEXT, SamplingDecision, SpanKind, TraceFlags, trace } from '@opentelemetry/api';
import type { Attributes, Link } from '@opentelemetry/api';
import type { Sampler } from '@opentelemetry/sdk-trace';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ROOT_SAMPLED, rootDraw } from '../../proto/runtime/tracing-roots.js';
import type { TracingSettings } from '../../proto/runtime/tracing-env.js';
import { traceSampler } from '../../proto/runtime/tracing-sdk.js';
import { ECHO, HEALTH, NODE, callLayer, serveCallLayer } from '../helpers/call-layer.js';
import type { Served } from '../helpers/call-layer.js';
import { useInMemoryTracing } from '../helpers/tracing.js';

const settings = (sampler: TracingSettings['sampler'], ratio = 1): TracingSettings => ({ exporters: ['otlp'], otlpUrl: 'http://localhost:4318/v1/traces', sampler, ratio, serviceName: 'test' });

describe('rootDraw', () => {
  it('draws roots under a parent-based sampler, at its ratio', () => {
    expect(rootDraw(settings('parentbased_always_on'))?.()).toBe(true);
    expect(rootDraw(settings('parentbased_always_off'))?.()).toBe(false);
    expect(rootDraw(settings('parentbased_traceidratio', 1))?.()).toBe(true);
    expect(rootDraw(settings('parentbased_traceidratio', 0))?.()).toBe(false);
    // At 0.25, a draw below it keeps the root.
    const quarter = rootDraw(settings('parentbased_traceidratio', 0.25));
    const random = vi.spyOn(Math, 'random');
    try {
      random.mockReturnValueOnce(0.2499).mockReturnValueOnce(0.25).mockReturnValueOnce(0);
      expect([quarter?.(), quarter?.(), quarter?.()]).toEqual([true, false, true]);
    } finally {
      random.mockRestore();
    }
  });

  it('leaves roots to the SDK with tracing off, or a sampler that reads a child by its trace id', () => {
    expect(rootDraw(undefined)).toBeUndefined();
    for (const name of ['always_on', 'always_off', 'traceidratio'] as const) expect(rootDraw(settings(name, 0.5))).toBeUndefined();
  });
});

describe("the tier's sampler and ROOT_SAMPLED", () => {
  const args: [string, string, SpanKind, Attributes, Link[]] = ['00f067aa0ba902b74bf92f3577b34da6', 'x', SpanKind.SERVER, {}, []];
  const kept = ROOT_CONTEXT.setValue(ROOT_SAMPLED, true);

  it('samples a root under the key, whatever its own ratio; any other root at its ratio', () => {
    for (const name of ['parentbased_always_off', 'parentbased_traceidratio'] as const) {
      const sampler = traceSampler(name, 0);
      expect(sampler.shouldSample(kept, ...args).decision).toBe(SamplingDecision.RECORD_AND_SAMPLED);
      expect(sampler.shouldSample(ROOT_CONTEXT, ...args).decision).toBe(SamplingDecision.NOT_RECORD);
    }
  });

  it('follows the parent of a child under the key: the key decides roots only', () => {
    const parent = (flags: TraceFlags) => trace.setSpanContext(kept, { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: flags, isRemote: true });
    const sampler = traceSampler('parentbased_traceidratio', 1);
    expect(sampler.shouldSample(parent(TraceFlags.NONE), ...args).decision).toBe(SamplingDecision.NOT_RECORD);
    expect(traceSampler('parentbased_traceidratio', 0).shouldSample(parent(TraceFlags.SAMPLED), ...args).decision).toBe(SamplingDecision.RECORD_AND_SAMPLED);
  });

  it('is not consulted by a sampler that is not parent-based', () => {
    expect(traceSampler('always_off', 0).shouldSample(kept, ...args).decision).toBe(SamplingDecision.NOT_RECORD);
    expect(traceSampler('traceidratio', 0).shouldSample(kept, ...args).decision).toBe(SamplingDecision.NOT_RECORD);
  });
});

/** One call of a sequence. */
type Step =
  | { kind: 'root'; keep: boolean }
  | { kind: 'parent'; traceId: string; sampled: boolean; flags: string }
  | { kind: 'malformed'; traceparent: string }
  | { kind: 'health' };

const hex = (length: number) => fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: length, maxLength: length }).filter((s) => /[^0]/.test(s));
const step: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('root' as const), keep: fc.boolean() }), weight: 4 },
  // Flags beside the sampled bit (02, 03) are the caller's and change nothing here.
  fc
    .record({ kind: fc.constant('parent' as const), traceId: hex(32), flags: fc.constantFrom('00', '01', '02', '03') })
    .map((x) => ({ ...x, sampled: (parseInt(x.flags, 16) & 1) === 1 })),
  // Each is ignored: the call is a root of the SDK's own, never drawn by the layer.
  fc.record({
    kind: fc.constant('malformed' as const),
    traceparent: fc.constantFrom(
      'not-a-traceparent',
      '',
      '00-00000000000000000000000000000000-00f067aa0ba902b7-01',
      'ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00',
      '00-4BF92F3577B34DA6A3CE929D0E0E4736-00F067AA0BA902B7-00',
      '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00-more',
    ),
  }),
  fc.record({ kind: fc.constant('health' as const) }),
);

describe('a call layer that draws roots, under the tier sampling no root of its own', () => {
  // Its own draw of a root (its ratio) is 0: a root the layer keeps is exported only if the
  // key reaches the sampler. Each time the SDK is asked for a span is counted: a call the
  // layer drops (a root drawn out, a caller's unsampled trace) must not ask.
  const sampler = traceSampler('parentbased_traceidratio', 0);
  let asked = 0;
  const counting: Sampler = {
    shouldSample: (...args) => {
      asked += 1;
      return sampler.shouldSample(...args);
    },
    toString: () => `counting ${sampler.toString()}`,
  };
  const tracing = useInMemoryTracing(counting);
  /** What the next root's draw answers; each draw takes one. */
  const draws: boolean[] = [];
  let drawn = 0;
  let served: Served | undefined;
  beforeAll(async () => {
    served = await serveCallLayer(() => {
      drawn += 1;
      const next = draws.shift();
      if (next === undefined) throw new Error('a root drawn that the sequence has not');
      return next;
    });
  });
  afterAll(() => served?.stop());

  it('draws each root once and only roots; exports the kept roots and the sampled parents; every call logs a trace id', async () => {
    const s = served as Served;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), async (steps) => {
        const spansBefore = tracing.exporter.getFinishedSpans().length;
        const linesBefore = s.lines.length;
        const contextsBefore = s.contexts.length;
        draws.length = 0;
        drawn = 0;
        asked = 0;
        for (const x of steps) if (x.kind === 'root') draws.push(x.keep);
        for (const x of steps) {
          const metadata = new grpc.Metadata();
          if (x.kind === 'parent') metadata.set('traceparent', `00-${x.traceId}-00f067aa0ba902b7-${x.flags}`);
          if (x.kind === 'malformed') metadata.set('traceparent', x.traceparent);
          expect(await callLayer(s.port, 'hello', metadata, NODE, x.kind === 'health' ? HEALTH : ECHO)).toBe(grpc.status.OK);
        }
        expect(drawn).toBe(steps.filter((x) => x.kind === 'root').length);
        expect(draws).toEqual([]);
        // The SDK is asked for the kept roots, the sampled callers' calls and the traceparents that do not parse: no other.
        expect(asked).toBe(steps.filter((x) => (x.kind === 'root' && x.keep) || (x.kind === 'parent' && x.sampled) || x.kind === 'malformed').length);

        const exported = tracing.exporter.getFinishedSpans().slice(spansBefore).filter((x) => x.kind === SpanKind.SERVER);
        const expected = steps.filter((x) => (x.kind === 'root' && x.keep) || (x.kind === 'parent' && x.sampled));
        expect(exported.length).toBe(expected.length);
        const lines = s.lines.slice(linesBefore);
        const contexts = s.contexts.slice(contextsBefore);
        expect(lines.length).toBe(steps.length);
        let k = 0;
        steps.forEach((x, i) => {
          const logged = lines[i]?.['trace_id'];
          expect(logged).toMatch(/^(?!0{32})[0-9a-f]{32}$/);
          expect(lines[i]).not.toHaveProperty('call_id');
          const ids = trace.getSpanContext(contexts[i] ?? ROOT_CONTEXT);
          expect(ids?.traceId).toBe(logged);
          if (x.kind === 'parent') expect(logged).toBe(x.traceId);
          if ((x.kind === 'root' && x.keep) || (x.kind === 'parent' && x.sampled)) {
            const span = exported[k++];
            expect(span?.name).toBe('trace.Test/Echo');
            expect(span?.spanContext().traceId).toBe(logged);
            expect(span?.parentSpanContext?.spanId).toBe(x.kind === 'parent' ? '00f067aa0ba902b7' : undefined);
          } else {
            // Not sampled: its handler's context samples nothing under it.
            expect(trace.getSpan(contexts[i] ?? ROOT_CONTEXT)?.isRecording()).toBe(false);
            expect((ids?.traceFlags ?? 0) & TraceFlags.SAMPLED).toBe(0);
          }
        });
        // Dropped roots' ids are their own.
        const dropped = steps.flatMap((x, i) => (x.kind === 'root' && !x.keep ? [lines[i]?.['trace_id']] : []));
        expect(new Set(dropped).size).toBe(dropped.length);
      }),
      { numRuns: 40 },
    );
  });
});
