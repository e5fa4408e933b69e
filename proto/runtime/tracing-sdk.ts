// The trace SDK, registered as the settings ask (./tracing-env.ts): loaded by ./tracing.ts's
// dynamic import only when an exporter is asked for, so a process with tracing off loads none of it.
// Registered globally (the API's tracer provider and W3C propagator): the tier's call
// layer, the client and the daemon framework reach it through @opentelemetry/api alone.
// No context manager is registered: the tier and the framework pass contexts explicitly
// (an AsyncLocalStorage manager would cost every promise of the process on Node 20).
import { DiagLogLevel, diag, propagation, trace } from '@opentelemetry/api';
import type { DiagLogger } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import { AlwaysOffSampler, AlwaysOnSampler, BatchSpanProcessor, ConsoleSpanExporter, ParentBasedSampler, SamplingDecision, TraceIdRatioBasedSampler, TracerProvider } from '@opentelemetry/sdk-trace';
import type { Sampler, SamplingResult, SpanExporter } from '@opentelemetry/sdk-trace';
import type { Logger } from './log.js';
import { ROOT_SAMPLED } from './tracing-roots.js';
import type { TraceSamplerName, TracingSettings } from './tracing-env.js';

/** What the SDK is told besides the settings. */
export interface TracingOptions {
  /** service.instance.id of every span the process exports (the replica id; daemon@node). */
  readonly instance: string;
  /** Where the SDK's own complaints go (an export that failed): warn and error only. */
  readonly log: Pick<Logger, 'warn' | 'error'>;
}

/** How long a stop waits for the last spans to leave (a collector that does not answer must not hold the stop). */
const FLUSH_MS = 5_000;
/** One export's bound, retries included (the SDK's default is 30 s). */
const EXPORT_TIMEOUT_MS = 10_000;

const KEEP: SamplingResult = Object.freeze({ decision: SamplingDecision.RECORD_AND_SAMPLED });

/** Samples a root its maker drew and kept (ROOT_SAMPLED, ./tracing-roots.ts); asks `inner` of any other. */
class DrawnRoots implements Sampler {
  constructor(private readonly inner: Sampler) {}

  shouldSample(...args: Parameters<Sampler['shouldSample']>): SamplingResult {
    return args[0].getValue(ROOT_SAMPLED) === true ? KEEP : this.inner.shouldSample(...args);
  }

  toString(): string {
    return `DrawnRoots{${this.inner.toString()}}`;
  }
}

/** The sampler OTEL_TRACES_SAMPLER `name` (and its `ratio`) names. */
export function traceSampler(name: TraceSamplerName, ratio: number): Sampler {
  const root = name.endsWith('always_on') ? new AlwaysOnSampler() : name.endsWith('always_off') ? new AlwaysOffSampler() : new TraceIdRatioBasedSampler(ratio);
  // Parent-based: a root is its own draw, which its maker may make (rootDraw, ./tracing-roots.ts).
  return name.startsWith('parentbased_') ? new ParentBasedSampler({ root: new DrawnRoots(root) }) : root;
}

function exporter(name: TracingSettings['exporters'][number], settings: TracingSettings): SpanExporter {
  return name === 'otlp' ? new OTLPTraceExporter({ url: settings.otlpUrl, timeoutMillis: EXPORT_TIMEOUT_MS }) : new ConsoleSpanExporter();
}

/** Registers the SDK; answers its stop: the spans still queued flushed (within FLUSH_MS), the SDK unregistered. */
export function registerTracing(settings: TracingSettings, options: TracingOptions): () => Promise<void> {
  // The SDK's own complaints (a bad OTEL_EXPORTER_OTLP_* value the exporter reads itself, an
  // export the collector refused or never answered) in the process's log: set before the
  // exporter is made, which reads its variables then.
  const { log } = options;
  const sdkLog: DiagLogger = {
    error: (message) => log.error({ component: 'tracing' }, message),
    warn: (message) => log.warn({ component: 'tracing' }, message),
    info: () => undefined,
    debug: () => undefined,
    verbose: () => undefined,
  };
  diag.setLogger(sdkLog, { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true });
  const provider = new TracerProvider({
    resource: defaultResource().merge(resourceFromAttributes({ 'service.name': settings.serviceName, 'service.instance.id': options.instance })),
    sampler: traceSampler(settings.sampler, settings.ratio),
    spanProcessors: settings.exporters.map((name) => new BatchSpanProcessor({ exporter: exporter(name, settings), exportTimeoutMillis: EXPORT_TIMEOUT_MS })),
  });
  if (!trace.setGlobalTracerProvider(provider)) {
    diag.disable();
    throw new Error('tracing: this process already registered a tracer provider');
  }
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  return async () => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), FLUSH_MS)));
    try {
      const outcome = await Promise.race([provider.shutdown().then(() => 'flushed' as const), late]);
      if (outcome === 'late') log.warn({ component: 'tracing', waitedMs: FLUSH_MS }, 'tracing: the last spans were not exported in time; stopping without them');
    } finally {
      clearTimeout(timer);
      trace.disable();
      propagation.disable();
      diag.disable();
    }
  };
}
