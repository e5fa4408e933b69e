// The metric naming scheme of every sf-database process, and the one way a metric is made
// from its declaration. Each process kind declares all of its metrics in one catalogue
// (server/metric-catalog.ts, client/metrics.ts, daemons/metrics.ts); the dashboard and the
// Prometheus rules are checked against those catalogues.
//
// Names: every metric starts `database_`. The tier's are `database_<thing>` (docs/metrics.md,
// "Metrics", lists them), the client's `database_client_<thing>`, the daemon
// framework's `database_daemon_<thing>`. Counters end `_total`, times are `_seconds`.
import { Counter, Gauge, Histogram } from 'prom-client';
import type { Registry } from 'prom-client';

export const METRIC_PREFIXES = { server: 'database_', client: 'database_client_', daemon: 'database_daemon_' } as const;
export type ProcessKind = keyof typeof METRIC_PREFIXES;

export type MetricKind = 'counter' | 'gauge' | 'histogram';

export interface MetricSpec<L extends string = string> {
  readonly name: string;
  readonly kind: MetricKind;
  readonly help: string;
  /** Every label the metric carries, in order; [] for none. */
  readonly labels: readonly L[];
  /** Histograms only. */
  readonly buckets?: readonly number[];
  /**
   * Histograms only: each bucket keeps the labels of its latest observation given some (a
   * trace id), an exemplar, served in the OpenMetrics format only (runtime/exposition.ts).
   * An observation through a child (`labels(…).observe(v)`) records none and costs the same.
   */
  readonly exemplars?: boolean;
}

/** A process kind's metrics, by the key its code uses. */
export type MetricCatalog = Readonly<Record<string, MetricSpec>>;

/** The label names of a metric's spec. */
export type LabelsOf<S> = S extends MetricSpec<infer L> ? L : never;

/** Checked at registration: a catalogue entry used as the wrong kind is a programming error. */
function expectKind(spec: MetricSpec, kind: MetricKind): void {
  if (spec.kind !== kind) throw new Error(`metric ${spec.name} is declared as a ${spec.kind}, made as a ${kind}`);
}

export function makeCounter<S extends MetricSpec>(spec: S, registry: Registry): Counter<LabelsOf<S>> {
  expectKind(spec, 'counter');
  return new Counter({ name: spec.name, help: spec.help, labelNames: spec.labels as LabelsOf<S>[], registers: [registry] });
}

/** `collect` runs on every scrape, before the value is read (occupancy gauges). */
export function makeGauge<S extends MetricSpec>(
  spec: S,
  registry: Registry,
  collect?: (this: Gauge<LabelsOf<S>>) => void | Promise<void>,
): Gauge<LabelsOf<S>> {
  expectKind(spec, 'gauge');
  return new Gauge({
    name: spec.name,
    help: spec.help,
    labelNames: spec.labels as LabelsOf<S>[],
    registers: [registry],
    ...(collect ? { collect } : {}),
  });
}

export function makeHistogram<S extends MetricSpec>(spec: S, registry: Registry): Histogram<LabelsOf<S>> {
  expectKind(spec, 'histogram');
  const exemplars = spec.exemplars === true;
  const histogram = new Histogram({
    name: spec.name,
    help: spec.help,
    labelNames: spec.labels as LabelsOf<S>[],
    buckets: [...(spec.buckets ?? [])],
    // prom-client refuses an exemplar metric made on a Prometheus-typed registry, though it
    // renders one there (without its exemplars): it is registered once made. The registries
    // stay Prometheus-typed; runtime/exposition.ts renders OpenMetrics.
    registers: exemplars ? [] : [registry],
    enableExemplars: exemplars,
  });
  if (exemplars) registry.registerMetric(histogram);
  return histogram;
}

/** `{ key: name }` of a catalogue, for code and tests that read a metric by name. */
export function metricNames<C extends MetricCatalog>(catalog: C): { readonly [K in keyof C]: C[K]['name'] } {
  return Object.fromEntries(Object.entries(catalog).map(([key, spec]) => [key, spec.name])) as { [K in keyof C]: C[K]['name'] };
}
