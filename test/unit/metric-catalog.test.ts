// One naming scheme, one declaration per metric: what each process kind actually registers
// is exactly its catalogue (name, kind, labels), and every name follows proto/runtime/metrics.ts.
import { readFileSync } from 'node:fs';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { CLIENT_METRICS, balancerMetrics, cacheMetrics, feedMetrics } from '../../client/metrics.js';
import { DAEMON_METRICS, daemonRegistry } from '../../daemons/metrics.js';
import { METRIC_PREFIXES } from '../../proto/runtime/metrics.js';
import type { MetricCatalog, ProcessKind } from '../../proto/runtime/metrics.js';
import { SERVER_METRICS } from '../../server/metric-catalog.js';
import { Metrics } from '../../server/metrics.js';

interface Registered {
  name: string;
  kind: string;
  labels: string[];
}

/** What a registry holds, minus prom-client's default process metrics. */
async function registered(registry: Registry): Promise<Registered[]> {
  const out: Registered[] = [];
  for (const metric of registry.getMetricsAsArray()) {
    const m = metric as unknown as { name: string; type: string; labelNames: string[] };
    out.push({ name: m.name, kind: m.type, labels: [...m.labelNames] });
  }
  const defaults = new Set((await new Registry().getMetricsAsJSON()).map((x) => x.name));
  return out.filter((m) => !defaults.has(m.name) && !m.name.startsWith('process_') && !m.name.startsWith('nodejs_'));
}

function declared(catalog: MetricCatalog): Registered[] {
  return Object.values(catalog).map((s) => ({ name: s.name, kind: s.kind, labels: [...s.labels] }));
}

const byName = (a: Registered, b: Registered): number => a.name.localeCompare(b.name);

const catalogues: [ProcessKind, MetricCatalog][] = [
  ['server', SERVER_METRICS],
  ['client', CLIENT_METRICS],
  ['daemon', DAEMON_METRICS],
];

describe('metric catalogues', () => {
  it('the tier registers exactly what SERVER_METRICS declares', async () => {
    const metrics = new Metrics('catalog-test');
    expect((await registered(metrics.registry)).sort(byName)).toEqual(declared(SERVER_METRICS).sort(byName));
  });

  it('the client registers exactly what CLIENT_METRICS declares', async () => {
    const registry = new Registry();
    cacheMetrics(registry);
    feedMetrics(registry);
    balancerMetrics(registry);
    expect((await registered(registry)).sort(byName)).toEqual(declared(CLIENT_METRICS).sort(byName));
  });

  it('the daemon framework registers exactly what DAEMON_METRICS declares', async () => {
    expect((await registered(daemonRegistry)).sort(byName)).toEqual(declared(DAEMON_METRICS).sort(byName));
  });

  it.each(catalogues)('%s metric names follow the scheme', (kind, catalog) => {
    const prefixes = Object.entries(METRIC_PREFIXES);
    for (const spec of Object.values(catalog)) {
      expect(spec.name, spec.name).toMatch(/^[a-z][a-z0-9_]*$/);
      // The longest matching prefix names the process kind: database_client_x is the client's.
      const owner = prefixes.filter(([, p]) => spec.name.startsWith(p)).sort((a, b) => b[1].length - a[1].length)[0]?.[0];
      expect(owner, spec.name).toBe(kind);
      if (spec.kind === 'counter') expect(spec.name, spec.name).toMatch(/_total$/);
      else expect(spec.name, spec.name).not.toMatch(/_total$/);
      expect(spec.help.length, spec.name).toBeGreaterThan(10);
    }
  });

  it('no name is declared twice across process kinds', () => {
    const names = catalogues.flatMap(([, c]) => Object.values(c).map((s) => s.name));
    expect(new Set(names).size).toBe(names.length);
  });

  it.each(['ops/prometheus/sf-database-rules.yaml', 'ops/grafana/sf-database.json'])('every metric %s names is declared', (file) => {
    const declared = new Set(catalogues.flatMap(([, c]) => Object.values(c).map((s) => s.name)));
    const histograms = new Set(catalogues.flatMap(([, c]) => Object.values(c).filter((s) => s.kind === 'histogram').map((s) => s.name)));
    const text = readFileSync(file, 'utf8');
    // Metric names, not the `database_` inside a recording rule's level:metric:operation name.
    const used = new Set([...text.matchAll(/(?<![\w:])database_[a-z0-9_]+(?![\w:])/g)].map((m) => m[0]));
    expect(used.size).toBeGreaterThan(5);
    const unknown = [...used].filter((n) => !declared.has(n) && !histograms.has(n.replace(/_(bucket|sum|count)$/, '')));
    expect(unknown).toEqual([]);
  });
});

