// The committed Grafana dashboard is what ops/grafana/dashboard.ts builds, and every
// metric and label its queries name is one the processes export: a renamed metric or
// label fails here, not as an empty panel in production.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Dashboard, Panel, RowPanel } from '@grafana/grafana-foundation-sdk/dashboard';
import { describe, expect, it } from 'vitest';
import { CLIENT_METRICS } from '../../client/metrics.js';
import { DAEMON_METRICS } from '../../daemons/metrics.js';
import { buildDashboard, DASHBOARD_FILE, GENERATE_COMMAND, panelQueries } from '../../ops/grafana/dashboard.js';
import type { MetricSpec } from '../../proto/runtime/metrics.js';
import { SERVER_METRICS } from '../../server/metric-catalog.js';

/** Every metric the tier, the client and the daemon framework export: their catalogues. */
const DECLARED_METRICS: Readonly<Record<string, MetricSpec>> = Object.fromEntries(
  [SERVER_METRICS, CLIENT_METRICS, DAEMON_METRICS].flatMap((catalog) => Object.values(catalog).map((spec): [string, MetricSpec] => [spec.name, spec])),
);

/** Labels Prometheus gives every scraped series. */
const TARGET_LABELS = ['instance', 'job'];
const HISTOGRAM_SERIES = /_(bucket|sum|count)$/;

// A metric name on its own, not the `database_…` inside a recording rule's `a:b:c` name.
const METRIC = /(?<![\w:])database_[a-z0-9_]+(?![\w:])/g;
const MATCHERS = /(?<![\w:])(database_[a-z0-9_]+)\{([^}]*)\}/g;
const MATCHER_LABEL = /([a-zA-Z_]\w*)\s*(?:=~|!~|!=|=)\s*"/g;
const BY_CLAUSE = /\bby\s*\(([^)]*)\)/g;

interface Resolved {
  name: string;
  labels: string[];
}

/** The declared metric a series name belongs to (a histogram's _bucket/_sum/_count too), with the labels it may carry. */
function resolve(series: string): Resolved | undefined {
  const own = DECLARED_METRICS[series];
  if (own) return { name: series, labels: [...own.labels, ...TARGET_LABELS] };
  const base = series.replace(HISTOGRAM_SERIES, '');
  const histogram = DECLARED_METRICS[base];
  if (base === series || histogram?.kind !== 'histogram') return undefined;
  return { name: base, labels: [...histogram.labels, ...TARGET_LABELS, ...(series.endsWith('_bucket') ? ['le'] : [])] };
}

const metricsIn = (text: string): string[] => [...text.matchAll(METRIC)].map((m) => m[0]);
const labelList = (text: string): string[] =>
  text
    .split(',')
    .map((l) => l.trim())
    .filter((l) => l !== '');

/** The text inside the parentheses that open at `open`. */
function balanced(expr: string, open: number): string {
  let depth = 0;
  for (let i = open; i < expr.length; i++) {
    if (expr[i] === '(') depth++;
    if (expr[i] === ')' && --depth === 0) return expr.slice(open + 1, i);
  }
  throw new Error(`unbalanced parentheses in ${expr}`);
}

/** `[label, series]` for every label an expression asks of a series, by a matcher or a `by (…)`. */
function labelUses(expr: string): [string, string][] {
  const uses: [string, string][] = [];
  for (const [, series = '', matchers = ''] of expr.matchAll(MATCHERS)) {
    for (const [, label = ''] of matchers.matchAll(MATCHER_LABEL)) uses.push([label, series]);
  }
  for (const clause of expr.matchAll(BY_CLAUSE)) {
    const after = (clause.index ?? 0) + clause[0].length;
    const open = expr.slice(after).search(/\S/) + after;
    // The dashboard writes `sum by (…) (…)`; the postfix form would slip past this check.
    if (expr[open] !== '(') throw new Error(`write the aggregation as "op by (…) (…)": ${expr}`);
    const body = balanced(expr, open);
    for (const label of labelList(clause[1] ?? '')) for (const series of metricsIn(body)) uses.push([label, series]);
  }
  return uses;
}

function allPanels(board: Dashboard): (Panel | RowPanel)[] {
  return (board.panels ?? []).flatMap((p) => (p.type === 'row' ? [p, ...(p as RowPanel).panels] : [p]));
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('Grafana dashboard', () => {
  const board = buildDashboard();
  const queries = panelQueries(board);

  it('the committed JSON is what the code builds', () => {
    const committed = JSON.parse(readFileSync(join(ROOT, DASHBOARD_FILE), 'utf8')) as unknown;
    expect(committed, `${DASHBOARD_FILE} is out of date: run \`${GENERATE_COMMAND}\``).toEqual(board);
  });

  it('every panel has queries, and every metric they name is declared', () => {
    expect(queries.length).toBeGreaterThan(0);
    const undeclared = queries.flatMap(({ panel, expr }) => metricsIn(expr).filter((m) => !resolve(m)).map((m) => `${panel}: ${m}`));
    expect(undeclared).toEqual([]);
  });

  it('every label a query filters or groups on is one its metric has', () => {
    const unknown = queries.flatMap(({ panel, expr }) =>
      labelUses(expr)
        .filter(([label, series]) => !resolve(series)?.labels.includes(label))
        .map(([label, series]) => `${panel}: ${series} has no label ${label}`),
    );
    expect(unknown).toEqual([]);
  });

  it('has the replica, caller_daemon and Prometheus data source variables, and a unique id per panel', () => {
    const variables = board.templating.list ?? [];
    const byName = new Map(variables.map((v) => [v.name, v]));
    expect(byName.get('replica')).toMatchObject({ type: 'query', query: 'label_values(database_replica_info, instance)', multi: true, includeAll: true });
    expect(byName.get('caller_daemon')).toMatchObject({
      type: 'query',
      query: 'label_values(database_requests_total, caller_daemon)',
      multi: true,
      includeAll: true,
    });
    expect(variables.filter((v) => v.type === 'datasource' && v.query === 'prometheus')).toHaveLength(1);

    const ids = allPanels(board).map((p) => p.id);
    expect(ids.every((id) => typeof id === 'number')).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('every panel says what it shows and queries through the data source variable', () => {
    const panels = allPanels(board).filter((p): p is Panel => p.type !== 'row');
    const datasource = board.templating.list?.find((v) => v.type === 'datasource')?.name;
    for (const panel of panels) {
      expect(panel.description?.length ?? 0, `${panel.title} has no description`).toBeGreaterThan(40);
      expect(panel.datasource, panel.title).toEqual({ type: 'prometheus', uid: `\${${datasource}}` });
      expect(panel.targets?.length ?? 0, `${panel.title} has no query`).toBeGreaterThan(0);
    }
  });
});
