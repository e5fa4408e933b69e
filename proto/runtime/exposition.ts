// How a process's metrics leave it over HTTP, for every /metrics the project serves (the
// tier's server/http.ts, sf-daemon's daemons/http.ts): the Prometheus text format
// (0.0.4), byte for byte what prom-client's registries render, unless the scraper's Accept
// header prefers OpenMetrics (1.0.0), the format that carries exemplars (runtime/metrics.ts,
// `exemplars`). A Prometheus server prefers OpenMetrics by default; curl, a browser and the
// project's own tools (harness/scrape.ts, sf-ctl) get the Prometheus text.
//
// prom-client renders a registry in the one format its content type names, and rendering
// OpenMetrics renames every registered counter in place (its `_total` dropped for the family
// name, so a later Prometheus rendering would print `database_requests`). The registries
// therefore stay Prometheus-typed; an OpenMetrics scrape renders a registry made for that
// scrape which holds the same metric objects — a counter through a view that carries the
// family name — so the metrics are neither copied nor collected twice, and concurrent
// scrapes in the two formats never see each other's content type.
import { Registry } from 'prom-client';
import type { Metric, OpenMetricsContentType } from 'prom-client';

export type ExpositionFormat = 'prometheus' | 'openmetrics';

/** A rendered scrape: the body and the Content-Type that names its format. */
export interface Exposition {
  contentType: string;
  body: string;
}

/**
 * The format for a request's Accept header: the acceptable (q > 0) one of the two with the
 * higher q, the first listed on a tie; Prometheus text when neither is named (no header, a
 * wildcard, anything else). A version parameter is not read: OpenMetrics is served as 1.0.0,
 * which Prometheus reads under either version it asks for.
 */
export function negotiateFormat(accept: string | undefined): ExpositionFormat {
  let best: ExpositionFormat = 'prometheus';
  let bestQ = 0;
  for (const range of (accept ?? '').split(',')) {
    const [type = '', ...params] = range.split(';').map((part) => part.trim().toLowerCase());
    const format = type === 'application/openmetrics-text' ? 'openmetrics' : type === 'text/plain' ? 'prometheus' : undefined;
    if (format === undefined) continue;
    const qParam = params.find((p) => p.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (Number.isFinite(q) && q > bestQ) {
      best = format;
      bestQ = q;
    }
  }
  return best;
}

/**
 * The metrics of `registries` (each of prom-client's default, Prometheus, content type) in
 * the format `accept` prefers. One registry is rendered as itself; several as one, in
 * order (as `Registry.merge`): a name registered in two throws.
 */
export async function expose(registries: readonly Registry[], accept: string | undefined): Promise<Exposition> {
  if (negotiateFormat(accept) === 'prometheus') {
    const registry = registries.length === 1 && registries[0] ? registries[0] : Registry.merge([...registries]);
    return { contentType: registry.contentType, body: await registry.metrics() };
  }
  const scrape = new Registry<OpenMetricsContentType>();
  scrape.setContentType(Registry.OPENMETRICS_CONTENT_TYPE);
  for (const registry of registries) {
    for (const metric of registry.getMetricsAsArray()) scrape.registerMetric(openMetricsView(metric as unknown as Rendered) as unknown as Metric);
  }
  return { contentType: scrape.contentType, body: await scrape.metrics() };
}

/**
 * What `Registry.metrics()` reads of a registered metric (prom-client 15.1, lib/registry.js):
 * its type, its name (which an OpenMetrics rendering rewrites for a counter), and its data
 * from `getForPromString()` when it has one (histograms), else `get()`, whose `name` heads
 * the family's HELP and TYPE lines and names its samples.
 * test/unit/exposition.test.ts renders both formats against prom-client's own.
 */
interface Rendered {
  name: string;
  readonly type: string;
  readonly help: string;
  get(): Promise<{ name: string }>;
}

/** The metric itself, or for a counter a view named by its family (`x_total` → `x`). */
function openMetricsView(metric: Rendered): Rendered {
  if (metric.type !== 'counter') return metric;
  const family = metric.name.replace(/_total$/, '');
  return {
    name: family,
    type: metric.type,
    help: metric.help,
    get: async () => ({ ...(await metric.get()), name: family }),
  };
}
