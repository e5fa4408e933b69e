// Exemplars through a real Prometheus (Debian's, `--enable-feature=exemplar-storage`): a
// tier's request histogram gets observations with trace ids, Prometheus scrapes the tier
// (its default Accept prefers OpenMetrics, so the tier answers in it), and its HTTP API
// (`/api/v1/query_exemplars`) returns each trace id on the bucket its call fell in — also for
// the dashboard's latency query that asks for exemplars, as Grafana sends it. The traced
// observations are made on the running tier's Metrics (observeRequest with a span's ids, as
// the tier's call layer makes them once tracing is on); real calls beside them are untraced.
// And /metrics answers each format to the Accept header that asks for it.
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseClient } from '../../client/index.js';
import { buildDashboard, panelQueries } from '../../ops/grafana/dashboard.js';
import { PROMETHEUS_MISSING, prometheusBinary, startPrometheus, substitute } from '../helpers/prometheus.js';
import type { TestPrometheus } from '../helpers/prometheus.js';
import { startTestTier } from '../helpers/tier.js';
import type { TestTier } from '../helpers/tier.js';
import { waitFor } from '../helpers/wait.js';

interface Traced {
  operation: string;
  seconds: number;
  /** The bucket the observation falls in (server/metrics.ts requestDuration's buckets). */
  le: string;
  traceId: string;
  spanId: string;
}

/** What `/api/v1/query_exemplars` answers: per series, its exemplars. */
interface ExemplarSeries {
  seriesLabels: Record<string, string>;
  exemplars: { labels: Record<string, string>; value: string; timestamp: number }[];
}

const traced: Traced[] = [
  { operation: 'GetNode', seconds: 0.0003, le: '0.0005' },
  { operation: 'GetNode', seconds: 0.02, le: '0.025' },
  { operation: 'ListNodes', seconds: 0.7, le: '1' },
].map((t) => ({ ...t, traceId: randomBytes(16).toString('hex'), spanId: randomBytes(8).toString('hex') }));

let t: TestTier;
let db: DatabaseClient;
let prom: TestPrometheus;
const startedAt = Date.now() / 1000;
/** When the traced observations were made (seconds): their exemplars' time. */
const observed = { from: 0, to: 0 };

beforeAll(async () => {
  if (!prometheusBinary()) throw new Error(PROMETHEUS_MISSING);
  t = await startTestTier();
  db = t.client();
  // Untraced calls: series of their own with no exemplar, through the real call path.
  const node = randomUUID();
  await db.createNode({ uuid: node, fqdn: `exemplar-${node}.test` });
  await db.getNode(node);
  await db.listNodes({});
  observed.from = Date.now() / 1000;
  for (const c of traced) t.tier.metrics.observeRequest(c.operation, c.seconds, undefined, c);
  observed.to = Date.now() / 1000;
  prom = await startPrometheus({ jobs: [{ job: 'sf-database', targets: [`127.0.0.1:${t.tier.httpPort}`] }], features: ['exemplar-storage'] });
}, 120_000);

afterAll(async () => {
  await prom?.stop();
  await t?.stop();
});

/** Every stored exemplar whose trace id is one of `traced`, by trace id, for `query`. */
interface Stored {
  series: Record<string, string>;
  labels: Record<string, string>;
  value: number;
  timestamp: number;
}

async function storedExemplars(query: string): Promise<Map<string, Stored>> {
  const range = `start=${Math.floor(startedAt) - 60}&end=${Math.ceil(Date.now() / 1000) + 60}`;
  const data = await prom.api<ExemplarSeries[]>(`query_exemplars?query=${encodeURIComponent(query)}&${range}`);
  const found = new Map<string, Stored>();
  for (const s of data) {
    for (const e of s.exemplars) found.set(e.labels['trace_id'] ?? '', { series: s.seriesLabels, labels: e.labels, value: Number(e.value), timestamp: e.timestamp });
  }
  return found;
}

async function untilStored(query: string): Promise<Map<string, Stored>> {
  let found = new Map<string, Stored>();
  await waitFor('Prometheus stores the three exemplars', 60_000, async () => {
    found = await storedExemplars(query);
    return { ok: traced.every((c) => found.has(c.traceId)), seen: [...found.keys()] };
  });
  return found;
}

describe('exemplars in a real Prometheus', () => {
  it('/metrics: Prometheus text unless OpenMetrics is asked for, which carries the exemplars', async () => {
    const url = `http://127.0.0.1:${t.tier.httpPort}/metrics`;
    const plain = await fetch(url);
    expect(plain.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const plainText = await plain.text();
    expect(plainText).toContain('# TYPE database_requests_total counter\n');
    expect(plainText).not.toContain('trace_id');

    const om = await fetch(url, { headers: { accept: 'application/openmetrics-text; version=1.0.0' } });
    expect(om.headers.get('content-type')).toBe('application/openmetrics-text; version=1.0.0; charset=utf-8');
    const omText = await om.text();
    expect(omText).toContain('# TYPE database_requests counter\n');
    expect(omText.endsWith('\n# EOF\n')).toBe(true);
    for (const c of traced) {
      const bucket = omText.split('\n').find((l) => l.startsWith(`database_request_duration_seconds_bucket{le="${c.le}",operation="${c.operation}"} `));
      expect(bucket).toContain(` # {trace_id="${c.traceId}",span_id="${c.spanId}"} ${c.seconds} `);
    }
    // The OpenMetrics rendering changed nothing for the next Prometheus one.
    expect(await (await fetch(url, { headers: { accept: 'text/plain' } })).text()).toContain('# TYPE database_requests_total counter\n');
  });

  it('query_exemplars returns each trace id, with its span id and time, on the bucket of its operation', async () => {
    const found = await untilStored('database_request_duration_seconds_bucket');
    for (const c of traced) {
      const e = found.get(c.traceId);
      expect(e?.series).toMatchObject({ __name__: 'database_request_duration_seconds_bucket', job: 'sf-database', operation: c.operation, le: c.le });
      expect(e?.labels).toEqual({ trace_id: c.traceId, span_id: c.spanId });
      expect(e?.value).toBe(c.seconds);
      // Prometheus keeps milliseconds.
      expect(e?.timestamp).toBeGreaterThanOrEqual(Math.floor(observed.from * 1000) / 1000);
      expect(e?.timestamp).toBeLessThanOrEqual(Math.ceil(observed.to * 1000) / 1000);
    }
    // The untraced GetNode and ListNodes calls left no exemplar of their own.
    expect(found.size).toBe(traced.length);
  });

  it("the dashboard's latency query that asks for exemplars gets them, as Grafana sends it", async () => {
    const asking = panelQueries(buildDashboard()).filter((q) => q.exemplar);
    expect(asking.map((q) => q.panel)).toEqual(['Latency by operation (p50, p99)']);
    for (const q of asking) {
      const found = await untilStored(substitute(q.expr));
      expect([...found.keys()].sort()).toEqual(traced.map((c) => c.traceId).sort());
    }
  });
});
