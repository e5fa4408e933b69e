// What every panel of the sf-database dashboard is made of: the dashboard's variables as
// PromQL matchers, query builders, and one factory per visualisation that applies this
// dashboard's defaults (data source, legend, units), so a panel module only says what a
// panel shows.
import type * as cog from '@grafana/grafana-foundation-sdk/cog';
import * as bargauge from '@grafana/grafana-foundation-sdk/bargauge';
import * as common from '@grafana/grafana-foundation-sdk/common';
import * as dashboard from '@grafana/grafana-foundation-sdk/dashboard';
import * as prometheus from '@grafana/grafana-foundation-sdk/prometheus';
import * as stat from '@grafana/grafana-foundation-sdk/stat';
import * as timeseries from '@grafana/grafana-foundation-sdk/timeseries';

/** The data source variable's name; every panel and query reads through it. */
export const DATASOURCE_VARIABLE = 'datasource';
export const DATASOURCE: common.DataSourceRef = { type: 'prometheus', uid: `\${${DATASOURCE_VARIABLE}}` };

// Prometheus gives every scraped series the `instance` of its target: a tier replica's
// address is its instance, so the `replica` variable filters on that label.
export const BY_REPLICA = 'instance=~"$replica"';
export const BY_CALLER = 'caller_daemon=~"$caller_daemon"';
/** The daemon framework labels its own metrics `daemon` with the name it calls the tier as. */
export const BY_DAEMON = 'daemon=~"$caller_daemon"';

/** `metric{m1,m2}`, or the bare name without matchers. */
export function selector(metric: string, ...matchers: string[]): string {
  return matchers.length === 0 ? metric : `${metric}{${matchers.join(',')}}`;
}

/** A per-second rate over Grafana's interval, which is never shorter than four scrapes. */
export const rate = (series: string): string => `rate(${series}[$__rate_interval])`;

/** One series of a tier metric on the chosen replicas. */
export const onReplicas = (metric: string, ...matchers: string[]): string => selector(metric, BY_REPLICA, ...matchers);

export interface Query {
  expr: string;
  /** Grafana's legend template, e.g. `{{operation}}`. */
  legend: string;
  /** Also ask Prometheus for the exemplars of the query's series (trace ids, drawn as points). */
  exemplar?: boolean;
}

export interface PanelText {
  title: string;
  /** What the panel shows and what to look for; Grafana shows it on the panel's (i). */
  description: string;
  queries: Query[];
  /** A Grafana unit id: reqps, s, percentunit, short, … */
  unit: string;
  /** Grid columns of 24. */
  width: number;
  height?: number;
}

/** What the layout needs of any panel builder: its object, and a place for its id. */
export type PanelBuilder = cog.Builder<dashboard.Panel> & { id(id: number): unknown };

export interface Section {
  title: string;
  panels: PanelBuilder[];
}

const DEFAULT_HEIGHT = 8;

/** How a query's result is asked for: a series over the range, or one value per series now. */
export type QueryShape = 'range' | 'instant' | 'table';

function target(query: Query, index: number, shape: QueryShape): prometheus.DataqueryBuilder {
  const builder = new prometheus.DataqueryBuilder()
    .datasource(DATASOURCE)
    .editorMode(prometheus.QueryEditorMode.Code)
    .expr(query.expr)
    .legendFormat(query.legend)
    .refId(String.fromCharCode(65 + index));
  if (query.exemplar) builder.exemplar(true);
  if (shape === 'range') return builder.range();
  builder.instant();
  return shape === 'table' ? builder.format(prometheus.PromQueryFormat.Table) : builder;
}

/** The setters every visualisation's builder has; each returns the builder itself. */
interface Basics<B> {
  title(title: string): B;
  description(description: string): B;
  datasource(datasource: common.DataSourceRef): B;
  unit(unit: string): B;
  span(w: number): B;
  height(h: number): B;
  withTarget(target: cog.Builder<cog.Dataquery>): B;
}

/** Title, text, data source, unit, size and queries: the part all panels share. */
export function withBasics<B extends Basics<B>>(builder: B, text: PanelText, shape: QueryShape): B {
  builder
    .title(text.title)
    .description(text.description)
    .datasource(DATASOURCE)
    .unit(text.unit)
    .span(text.width)
    .height(text.height ?? DEFAULT_HEIGHT);
  text.queries.forEach((query, i) => builder.withTarget(target(query, i, shape)));
  return builder;
}

/** Absolute thresholds from `[from, colour]` steps; the first step starts at -∞. */
export function thresholds(...steps: [number, string][]): dashboard.ThresholdsConfigBuilder {
  return new dashboard.ThresholdsConfigBuilder()
    .mode(dashboard.ThresholdsMode.Absolute)
    .steps(steps.map(([value, color], i) => ({ value: i === 0 ? null : value, color })));
}

export interface TimeSeriesOptions {
  stacked?: boolean;
  /** Draws the thresholds as dashed lines: where the panel's alert or cap sits. */
  thresholds?: dashboard.ThresholdsConfigBuilder;
}

export function timeSeries(text: PanelText, options: TimeSeriesOptions = {}): timeseries.PanelBuilder {
  const panel = withBasics(new timeseries.PanelBuilder(), text, 'range')
    .legend(new common.VizLegendOptionsBuilder().showLegend(true).displayMode(common.LegendDisplayMode.List).placement(common.LegendPlacement.Bottom))
    .tooltip(new common.VizTooltipOptionsBuilder().mode(common.TooltipDisplayMode.Multi).sort(common.SortOrder.Descending))
    .fillOpacity(options.stacked ? 30 : 10)
    .min(0);
  if (options.stacked) panel.stacking(new common.StackingConfigBuilder().mode(common.StackingMode.Normal));
  if (options.thresholds) {
    panel.thresholds(options.thresholds).thresholdsStyle(new common.GraphThresholdsStyleConfigBuilder().mode(common.GraphThresholdsStyleMode.Dashed));
  }
  return panel;
}

/** A dashed red series: a limit drawn beside the values it limits. */
export function limitLine(panel: timeseries.PanelBuilder, seriesName: string): timeseries.PanelBuilder {
  return panel.overrideByName(seriesName, [
    { id: 'color', value: { mode: dashboard.FieldColorModeId.Fixed, fixedColor: 'red' } },
    { id: 'custom.lineStyle', value: { fill: 'dash', dash: [10, 10] } },
    { id: 'custom.fillOpacity', value: 0 },
  ]);
}

/** One number per query, now (the last value of the range), coloured by `colours`. */
export function singleStat(text: PanelText, colours: dashboard.ThresholdsConfigBuilder): stat.PanelBuilder {
  return withBasics(new stat.PanelBuilder(), text, 'instant')
    .reduceOptions(new common.ReduceDataOptionsBuilder().calcs(['lastNotNull']).values(false))
    .graphMode(common.BigValueGraphMode.None)
    .colorMode(common.BigValueColorMode.Value)
    .thresholds(colours);
}

/** One horizontal bar per series of an instant query, in the order the query returns them. */
export function bars(text: PanelText): bargauge.PanelBuilder {
  return withBasics(new bargauge.PanelBuilder(), text, 'instant')
    .reduceOptions(new common.ReduceDataOptionsBuilder().calcs(['lastNotNull']).values(false))
    .orientation(common.VizOrientation.Horizontal)
    .displayMode(common.BarGaugeDisplayMode.Basic)
    .min(0);
}
