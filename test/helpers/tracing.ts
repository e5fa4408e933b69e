// The trace SDK with an in-memory exporter, registered in a test file's process as
// sf-database and sf-daemon register theirs (proto/runtime/tracing-sdk.ts): the API's
// global tracer provider and the W3C propagator, no context manager. Every span ends in
// the exporter at once (a simple processor): a test reads them as soon as its call ended.
//
// Once a module's tracer has made a span under a registered SDK it keeps that SDK's tracer
// (the API's proxy tracer binds once): a file that tests an untraced process does so before
// it registers, never after unregistering.
import { propagation, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import type { ReadableSpan, Sampler } from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll } from 'vitest';

export interface InMemoryTracing {
  readonly exporter: InMemorySpanExporter;
  /** Every finished span of `traceId`, in the order they ended. */
  spansOf(traceId: string): ReadableSpan[];
}

/** Registers the SDK now (`sampler`, or the SDK's default: parent-based, always on), exporting to memory. */
export function inMemoryTracing(sampler?: Sampler): InMemoryTracing {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ sampler, spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  if (!trace.setGlobalTracerProvider(provider)) throw new Error('a tracer provider is registered already');
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  return { exporter, spansOf: (traceId) => exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId) };
}

/** inMemoryTracing(sampler) from beforeAll of the file or describe block it is called in (its members read once registered). */
export function useInMemoryTracing(sampler?: Sampler): InMemoryTracing {
  let tracing: InMemoryTracing | undefined;
  beforeAll(() => {
    tracing = inMemoryTracing(sampler);
  });
  afterAll(() => {
    trace.disable();
    propagation.disable();
  });
  const registered = (): InMemoryTracing => {
    if (!tracing) throw new Error('the tracing is used before beforeAll registered it');
    return tracing;
  };
  return {
    get exporter() {
      return registered().exporter;
    },
    spansOf: (traceId) => registered().spansOf(traceId),
  };
}
