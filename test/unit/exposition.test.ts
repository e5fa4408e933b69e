// How /metrics answers (proto/runtime/exposition.ts): the format an Accept header gets; the
// Prometheus text exactly what the registry rendered before exemplars existed, also after
// (and while) OpenMetrics scrapes run; OpenMetrics exactly what prom-client renders for a
// registry made OpenMetrics-typed; and the tier's request histogram keeping trace ids as
// exemplars (server/metrics.ts observeRequest).
import { Registry } from 'prom-client';
import type { OpenMetricsContentType } from 'prom-client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { expose, negotiateFormat } from '../../proto/runtime/exposition.js';
import { makeCounter, makeGauge, makeHistogram } from '../../proto/runtime/metrics.js';
import type { MetricSpec } from '../../proto/runtime/metrics.js';
import { Metrics } from '../../server/metrics.js';

/** What Prometheus 2.42 (Debian 12's) sends by default, and Prometheus 3's default. */
const PROMETHEUS_2 = 'application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1';
const PROMETHEUS_3 =
  'application/openmetrics-text;version=1.0.0;escaping=allow-utf-8;q=0.5,application/openmetrics-text;version=0.0.1;q=0.4,text/plain;version=1.0.0;escaping=allow-utf-8;q=0.3,text/plain;version=0.0.4;q=0.2,*/*;q=0.1';
const OPENMETRICS = 'application/openmetrics-text; version=1.0.0; charset=utf-8';
const PROMETHEUS_TEXT = 'text/plain; version=0.0.4; charset=utf-8';

const TRACE = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7' };
const OTHER = { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331' };

describe('negotiateFormat', () => {
  it.each([
    [undefined, 'prometheus'],
    ['', 'prometheus'],
    ['*/*', 'prometheus'],
    ['text/plain', 'prometheus'],
    ['text/plain;version=0.0.4', 'prometheus'],
    ['application/json', 'prometheus'],
    ['application/openmetrics-text', 'openmetrics'],
    ['Application/OpenMetrics-Text; Version=1.0.0', 'openmetrics'],
    [PROMETHEUS_2, 'openmetrics'],
    [PROMETHEUS_3, 'openmetrics'],
    ['application/openmetrics-text;q=0, text/plain;q=0.1', 'prometheus'],
    ['application/openmetrics-text;q=0', 'prometheus'],
    ['text/plain;q=0.9, application/openmetrics-text;q=0.5', 'prometheus'],
    ['text/plain;q=0.5, application/openmetrics-text;q=0.9', 'openmetrics'],
    ['application/openmetrics-text;q=0.5, text/plain;q=0.5', 'openmetrics'],
    ['application/openmetrics-text;q=nonsense, text/plain;q=0.1', 'prometheus'],
  ] as const)('%j → %s', (accept, format) => {
    expect(negotiateFormat(accept)).toBe(format);
  });
});

const REQUESTS: MetricSpec<'operation'> = { name: 'demo_requests_total', kind: 'counter', help: 'Calls "quoted", with a \\ and\na new line.', labels: ['operation'] };
const IN_FLIGHT: MetricSpec = { name: 'demo_in_flight', kind: 'gauge', help: 'Calls now.', labels: [] };
const duration = (exemplars: boolean): MetricSpec<'operation'> => ({
  name: 'demo_duration_seconds',
  kind: 'histogram',
  help: 'Call time.',
  labels: ['operation'],
  buckets: [0.001, 0.01, 0.1],
  exemplars,
});
const OTHER_COUNTER: MetricSpec = { name: 'other_events_total', kind: 'counter', help: 'Events of a second registry.', labels: [] };

/**
 * The same observations in a registry: `mode` says how the histogram is made and observed —
 * as before exemplars existed (`plain`), through this project's spec with trace ids
 * (`exemplars`), or in a registry prom-client itself makes OpenMetrics-typed (`native`).
 */
function demoRegistry(mode: 'plain' | 'exemplars' | 'native'): Registry {
  const registry = new Registry();
  if (mode === 'native') (registry as unknown as Registry<OpenMetricsContentType>).setContentType(Registry.OPENMETRICS_CONTENT_TYPE);
  makeCounter(REQUESTS, registry).labels('GetNode').inc(3);
  makeGauge(IN_FLIGHT, registry).set(2);
  const histogram = makeHistogram(duration(mode !== 'plain'), registry);
  histogram.labels('GetNode').observe(0.0005);
  if (mode === 'plain') {
    histogram.labels('GetNode').observe(0.005);
    histogram.labels('ListNodes').observe(0.5);
  } else {
    histogram.observe({ labels: { operation: 'GetNode' }, value: 0.005, exemplarLabels: { trace_id: TRACE.traceId, span_id: TRACE.spanId } as object });
    histogram.observe({ labels: { operation: 'ListNodes' }, value: 0.5, exemplarLabels: { trace_id: OTHER.traceId, span_id: OTHER.spanId } as object });
  }
  return registry;
}

function secondRegistry(native: boolean): Registry {
  const registry = new Registry();
  if (native) (registry as unknown as Registry<OpenMetricsContentType>).setContentType(Registry.OPENMETRICS_CONTENT_TYPE);
  makeCounter(OTHER_COUNTER, registry).inc();
  return registry;
}

describe('expose', () => {
  // Exemplars carry the time of their observation.
  beforeEach(() => vi.useFakeTimers({ toFake: ['Date'], now: 1_800_000_000_123 }));
  afterEach(() => vi.useRealTimers());

  it('Prometheus text: what the registry rendered before exemplars, before, during and after OpenMetrics scrapes', async () => {
    const before = await demoRegistry('plain').metrics();
    expect(before).toContain('# TYPE demo_requests_total counter\ndemo_requests_total{operation="GetNode"} 3\n');
    const registry = demoRegistry('exemplars');
    const first = await expose([registry], undefined);
    expect(first).toEqual({ contentType: PROMETHEUS_TEXT, body: before });
    const [openMetrics, during] = await Promise.all([expose([registry], PROMETHEUS_2), expose([registry], 'text/plain')]);
    expect(openMetrics.contentType).toBe(OPENMETRICS);
    expect(during.body).toBe(before);
    expect((await expose([registry], '*/*')).body).toBe(before);
    // The registry's own rendering is untouched too (tests and tools call it directly).
    expect(await registry.metrics()).toBe(before);
  });

  it("OpenMetrics: prom-client's own rendering of an OpenMetrics registry, exemplars included", async () => {
    const native = await demoRegistry('native').metrics();
    expect(native).toContain(
      `demo_duration_seconds_bucket{le="0.01",operation="GetNode"} 2 # {trace_id="${TRACE.traceId}",span_id="${TRACE.spanId}"} 0.005 1800000000.123\n`,
    );
    expect(native).toContain('# TYPE demo_requests counter\ndemo_requests_total{operation="GetNode"} 3\n');
    expect(native.endsWith('\n# EOF\n')).toBe(true);
    const registry = demoRegistry('exemplars');
    for (let i = 0; i < 2; i++) expect(await expose([registry], 'application/openmetrics-text')).toEqual({ contentType: OPENMETRICS, body: native });
  });

  it("several registries render as one, in each format (sf-daemon's framework and client metrics)", async () => {
    const mine = demoRegistry('exemplars');
    const client = secondRegistry(false);
    expect((await expose([mine, client], undefined)).body).toBe(await Registry.merge([demoRegistry('plain'), secondRegistry(false)]).metrics());
    const native = Registry.merge([demoRegistry('native'), secondRegistry(true)]);
    expect((await expose([mine, client], PROMETHEUS_3)).body).toBe(await native.metrics());
    expect((await expose([mine, client], undefined)).body).toContain('other_events_total 1\n');
  });
});

describe("the tier's request histogram", () => {
  const bucketLine = (text: string, le: string, operation: string): string | undefined =>
    text.split('\n').find((l) => l.startsWith(`database_request_duration_seconds_bucket{le="${le}",operation="${operation}"}`));

  it('keeps a traced call as its bucket\'s exemplar; an untraced call or malformed ids leave none', async () => {
    const metrics = new Metrics('exemplar-test');
    metrics.observeRequest('GetNode', 0.0002, undefined);
    metrics.observeRequest('GetNode', 0.003, undefined, TRACE);
    metrics.observeRequest('GetNode', 0.004, undefined);
    metrics.observeRequest('ListNodes', 0.2, 'INTERNAL', { traceId: TRACE.traceId.toUpperCase(), spanId: TRACE.spanId });
    metrics.observeRequest('ListNodes', 0.3, undefined, { traceId: 'x'.repeat(200), spanId: OTHER.spanId });
    const text = (await expose([metrics.registry], 'application/openmetrics-text')).body;
    expect(bucketLine(text, '0.0005', 'GetNode')).toBe('database_request_duration_seconds_bucket{le="0.0005",operation="GetNode"} 1');
    expect(bucketLine(text, '0.005', 'GetNode')).toMatch(new RegExp(`\\} 3 # \\{trace_id="${TRACE.traceId}",span_id="${TRACE.spanId}"\\} 0\\.003 \\d+(\\.\\d+)?$`));
    expect(bucketLine(text, '0.5', 'ListNodes')).toBe('database_request_duration_seconds_bucket{le="0.5",operation="ListNodes"} 2');
    expect(text).toMatch(/^database_request_duration_seconds_count\{operation="ListNodes"\} 2$/m);
    expect(text).toMatch(/^database_request_errors_total\{operation="ListNodes",code="INTERNAL"\} 1$/m);
    expect(text.match(/ # \{/g)).toHaveLength(1);
    // The Prometheus text has the observations and no exemplar.
    const plain = (await expose([metrics.registry], undefined)).body;
    expect(plain).toMatch(/^database_request_duration_seconds_bucket\{le="0.005",operation="GetNode"\} 3$/m);
    expect(plain).not.toContain('trace_id');
  });
});
