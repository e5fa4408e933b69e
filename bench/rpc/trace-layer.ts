// bench:rpc's tracing layer alone (forked by main.ts with --traced, one process per
// sampling: the API binds a process's tracer once): the CPU one call's tracing costs the
// tier (its root drawn as the tier draws it under parentbased_traceidratio, the span of a
// root it keeps started from the call's metadata, found again by the unary adapter,
// admitted, ended: server/grpc/call-trace.ts) and the client (its span, its attempt's
// metadata with the trace context, its end: client/trace.ts), each over the same work
// without tracing (a Metadata made, or copied). Without an SDK (argv 'off'), or with one
// sampling argv[2] percent whose spans are dropped, not exported: the export's cost is
// what the tiers of the run measure. Answers a LayerCost over IPC (on stdout run by hand).
import * as grpc from '@grpc/grpc-js';
import { propagation, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { rootDraw } from '../../proto/runtime/tracing-roots.js';
import { traceSampler } from '../../proto/runtime/tracing-sdk.js';
import { CallSpan } from '../../client/trace.js';
import { callTraceOf, startCallTrace } from '../../server/grpc/call-trace.js';
import type { LayerCost } from './protocol.js';

const CALLS = 500_000;
const percent = process.argv[2] === 'off' ? undefined : Number(process.argv[2]);
if (percent !== undefined) {
  const dropped = { export: (_spans: unknown, done: (r: { code: number }) => void) => done({ code: 0 }), shutdown: async () => undefined };
  const sampler = traceSampler('parentbased_traceidratio', percent / 100);
  trace.setGlobalTracerProvider(new TracerProvider({ sampler, spanProcessors: [new BatchSpanProcessor({ exporter: dropped })] }));
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
}

/** CPU µs per call of `f`, after a warm-up of a fifth as many. */
function perCall(f: () => void): number {
  for (let i = 0; i < CALLS / 5; i++) f();
  const start = process.cpuUsage();
  for (let i = 0; i < CALLS; i++) f();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / CALLS;
}

/** A call's metadata; `traceparent`, when given, as a traced caller sends it. */
const request = (traceparent?: string): grpc.Metadata => {
  const metadata = new grpc.Metadata();
  metadata.set('x-sfdb-caller-daemon', 'bench');
  if (traceparent !== undefined) metadata.set('traceparent', traceparent);
  return metadata;
};
// The tier's draw under the run's sampler (none without an SDK: every root asks the no-op tracer).
const draw = percent === undefined ? undefined : rootDraw({ exporters: ['otlp'], otlpUrl: '', sampler: 'parentbased_traceidratio', ratio: percent / 100, serviceName: 'bench' });
/** The tier's layer for one call of `metadata`, from its arrival to its end, over the same Metadata made without it. */
function tierLayer(traceparent?: string): number {
  const traced = perCall(() => {
    const metadata = request(traceparent);
    const started = startCallTrace('/sfdb.v1.Database/GetNode', metadata, 'bench', draw);
    callTraceOf(metadata, draw)?.admitted(true);
    started?.end(grpc.status.OK);
  });
  return traced - perCall(() => void callTraceOf(request(traceparent)));
}
const tierUs = tierLayer();
// A daemon tracing at 1 % sends 99 calls in 100 so.
const tierUnsampledCallerUs = tierLayer('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00');
const base = request();
const clientWith = perCall(() => {
  const span = new CallSpan('GetNode', 'bench', undefined);
  span.metadata(base);
  span.attempted(undefined);
  span.end(grpc.status.OK);
});
const clientWithout = perCall(() => void base.clone());

const cost: LayerCost = { percent, tierUs, tierUnsampledCallerUs, clientUs: clientWith - clientWithout };
// Run by hand (`node --import tsx bench/rpc/trace-layer.ts 1`): on stdout.
if (process.send) process.send(cost, undefined, undefined, () => process.exit(0));
else process.stdout.write(`${JSON.stringify(cost)}\n`);
