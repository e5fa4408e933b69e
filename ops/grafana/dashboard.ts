// The sf-database Grafana dashboard, as code. ops/grafana/sf-database.json is generated
// from this file by `npm run ops:dashboard` and must never be edited by hand: change the
// panels here (or in ops/grafana/panels-*.ts) and run the command again; a test fails
// when the committed JSON is not what buildDashboard() returns.
//
// Built with the Grafana foundation SDK's builders. Every panel queries Prometheus through
// the `datasource` variable; tier panels filter on `replica` (a scrape target's instance)
// and RPC panels on `caller_daemon`.
import type * as cog from '@grafana/grafana-foundation-sdk/cog';
import * as dashboard from '@grafana/grafana-foundation-sdk/dashboard';
import { budgetSection, clusterSection, latencySection, trafficSection } from './panels-rpc.js';
import { cacheSection, daemonSection, feedSection, mariadbSection } from './panels-backend.js';
import { DATASOURCE, DATASOURCE_VARIABLE } from './panels.js';
import type { Section } from './panels.js';

export const DASHBOARD_FILE = 'ops/grafana/sf-database.json';
export const GENERATE_COMMAND = 'npm run ops:dashboard';
/** Stable across Grafana instances, so links and provisioning survive a re-import. */
export const DASHBOARD_UID = 'sf-database';

const ALL: dashboard.VariableOption = { selected: true, text: ['All'], value: ['$__all'] };

function datasourceVariable(): dashboard.DatasourceVariableBuilder {
  return new dashboard.DatasourceVariableBuilder(DATASOURCE_VARIABLE).label('Prometheus').type('prometheus');
}

/** A multi-value variable over one label's values; "All" is `.*`, so it matches series without a value too. */
function labelVariable(name: string, label: string, query: string, description: string): dashboard.QueryVariableBuilder {
  return new dashboard.QueryVariableBuilder(name)
    .label(label)
    .description(description)
    .datasource(DATASOURCE)
    .query(query)
    .definition(query)
    .refresh(dashboard.VariableRefresh.OnTimeRangeChanged)
    .sort(dashboard.VariableSort.AlphabeticalAsc)
    .multi(true)
    .includeAll(true)
    .allValue('.*')
    .current(ALL);
}

function variables(): cog.Builder<dashboard.VariableModel>[] {
  return [
    datasourceVariable(),
    // Only tier replicas export database_replica_info, so its instances are exactly the
    // replicas' scrape targets, whatever the job is called.
    labelVariable(
      'replica',
      'Replica',
      'label_values(database_replica_info, instance)',
      'Tier replicas (scrape targets) whose own metrics the tier panels show.',
    ),
    labelVariable(
      'caller_daemon',
      'Caller daemon',
      'label_values(database_requests_total, caller_daemon)',
      'Daemons whose calls (and own loop metrics) the panels show.',
    ),
  ];
}

function sections(): Section[] {
  return [clusterSection(), trafficSection(), budgetSection(), latencySection(), mariadbSection(), feedSection(), cacheSection(), daemonSection()];
}

/** Rows open, each followed by its panels; ids are handed out in order, rows included. */
function layout(builder: dashboard.DashboardBuilder, all: Section[]): void {
  let id = 0;
  for (const section of all) {
    builder.withRow(new dashboard.RowBuilder(section.title).collapsed(false).id(++id));
    for (const panel of section.panels) {
      panel.id(++id);
      builder.withPanel(panel);
    }
  }
}

/** The dashboard as the JSON Grafana imports (what sf-database.json holds). */
export function buildDashboard(): dashboard.Dashboard {
  const builder = new dashboard.DashboardBuilder('sf-database')
    .uid(DASHBOARD_UID)
    .description('The sf-database tier: who calls it and how often against the load budget, latency, errors, MariaDB, the change feed and the daemons\' cache.')
    .tags(['sf-database'])
    // Provisioned from the repository: an edit made in Grafana would be lost on the next
    // provisioning, so the UI offers none.
    .readonly()
    .tooltip(dashboard.DashboardCursorSync.Crosshair)
    .time({ from: 'now-3h', to: 'now' })
    .refresh('1m')
    .variables(variables());
  layout(builder, sections());
  // The SDK's objects carry methods (a query's variant marker): keep only what JSON keeps.
  return JSON.parse(JSON.stringify(builder.build())) as dashboard.Dashboard;
}

export interface PanelQuery {
  panel: string;
  expr: string;
  /** The query asks for exemplars too. */
  exemplar: boolean;
}

function isRow(panel: dashboard.Panel | dashboard.RowPanel): panel is dashboard.RowPanel {
  return panel.type === 'row';
}

/** Every PromQL expression of every panel (collapsed rows' panels included), in layout order. */
export function panelQueries(board: dashboard.Dashboard): PanelQuery[] {
  const panels = (board.panels ?? []).flatMap((p) => (isRow(p) ? p.panels : [p]));
  return panels.flatMap((panel) =>
    (panel.targets ?? []).flatMap((target) => {
      const { expr, exemplar } = target as { expr?: unknown; exemplar?: unknown };
      return typeof expr === 'string' ? [{ panel: panel.title ?? '', expr, exemplar: exemplar === true }] : [];
    }),
  );
}
