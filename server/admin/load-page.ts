// The Load page: (operation, caller_daemon) rates of the last minute summed over the live
// replicas, against the load budget for the live cluster size and churn, with a small inline SVG
// chart (measured bar, expected and ceiling marks) above the same numbers as a table.
import { esc, formatRate, table, td } from './html.js';
import type { LoadReport, LoadRow } from './load.js';

/** Pairs drawn in the chart (the table lists them all). */
const CHART_ROWS = 12;
const WIDTH = 720;
const LABEL_W = 300;
const ROW_H = 24;

const STATUS_CLASS: Record<string, string> = { ok: 'ok', OVER: 'over', unbudgeted: 'unbudgeted', rare: 'rare', '-': 'unjudged' };

export function chart(rows: readonly LoadRow[]): string {
  const shown = rows.slice(0, CHART_ROWS);
  if (shown.length === 0) return '';
  const max = Math.max(...shown.map((r) => Math.max(r.rate, r.ceiling ?? 0))) * 1.1 || 1;
  const plot = WIDTH - LABEL_W - 70;
  const x = (v: number): number => LABEL_W + (v / max) * plot;
  const height = shown.length * ROW_H + 28;
  const bars = shown.map((r, i) => {
    const y = 8 + i * ROW_H;
    const label = `${r.operation} · ${r.caller_daemon}`;
    const marks = [
      r.expected !== null ? `<line class="expected" x1="${x(r.expected).toFixed(1)}" x2="${x(r.expected).toFixed(1)}" y1="${y}" y2="${y + ROW_H - 6}"/>` : '',
      r.ceiling !== null ? `<line class="ceiling" x1="${x(r.ceiling).toFixed(1)}" x2="${x(r.ceiling).toFixed(1)}" y1="${y - 2}" y2="${y + ROW_H - 4}"/>` : '',
    ].join('');
    return `<g class="${STATUS_CLASS[r.status] ?? 'unjudged'}"><text x="${LABEL_W - 8}" y="${y + 13}" text-anchor="end">${esc(label.length > 40 ? `${label.slice(0, 39)}…` : label)}</text>
<rect x="${LABEL_W}" y="${y + 2}" width="${Math.max(1, x(r.rate) - LABEL_W).toFixed(1)}" height="${ROW_H - 10}"/>${marks}
<text class="value" x="${(Math.max(x(r.rate), r.ceiling !== null ? x(r.ceiling) : 0) + 6).toFixed(1)}" y="${y + 13}">${esc(formatRate(r.rate))}/s</text></g>`;
  });
  const axisY = shown.length * ROW_H + 14;
  return `<figure class="chart">
<svg viewBox="0 0 ${WIDTH} ${height}" width="100%" role="img" aria-labelledby="chart-title chart-desc">
<title id="chart-title">Calls per second by operation and caller, last minute</title>
<desc id="chart-desc">Bars are measured rates; a solid mark is the budget's expected rate, a dashed mark its ceiling. The table below holds the same numbers.</desc>
${bars.join('\n')}
<line class="axis" x1="${LABEL_W}" x2="${LABEL_W + plot}" y1="${axisY}" y2="${axisY}"/>
<text class="muted" x="${LABEL_W}" y="${axisY + 12}">0</text><text class="muted" x="${LABEL_W + plot}" y="${axisY + 12}" text-anchor="end">${esc(formatRate(max))}/s</text>
</svg>
<figcaption>Top ${shown.length} pairs by rate. Bar: measured; solid mark: expected by the budget; dashed mark: its ceiling.</figcaption>
</figure>`;
}

/** The cluster's change rate over the window and the churn the pairs are judged at. */
function changes(r: LoadReport): string {
  const churn = `churn ${formatRate(r.shape.churn ?? 0)}/s`;
  if (r.changesPerSecond === undefined) {
    return `${r.seconds === 0 ? 'change rate measuring' : 'change rate unknown (no replica reports database_changefeed_changes_total)'}: ${churn}`;
  }
  const rate = `${formatRate(r.changesPerSecond)} changes/s`;
  return r.budget.churnModel ? `${rate} (${churn} above a quiet cluster of this size)` : `${rate} (${churn}: the budget has no change-rate model)`;
}

export function loadMain(r: LoadReport, refreshMs: number): string {
  const replicas = r.replicas
    .map((x) => (x.error ? `${esc(x.id)} (<span class="warn">not scraped: ${esc(x.error)}</span>)` : esc(x.id)))
    .join(', ');
  const over = r.rows.filter((x) => x.status === 'OVER' || x.status === 'unbudgeted');
  const budget = r.budget.error
    ? `<p class="warn">Budget ${esc(r.budget.path)} unavailable (${esc(r.budget.error)}): rates are shown unjudged; ${esc(changes(r))}.</p>`
    : `<p>Budget <code>${esc(r.budget.path)}</code>${r.budget.mode ? ` (${esc(r.budget.mode)} mode)` : ''} for ${r.shape.nodes} live node${
        r.shape.nodes === 1 ? '' : 's'
      }, ${r.shape.instances} standing instance${r.shape.instances === 1 ? '' : 's'} and <span class="churn">${esc(changes(r))}</span>: expected = cluster + perNode·nodes + perInstance·instances + perChurn·churn + perNodeChurn·nodes·churn; ceiling = max(factor × expected, expected + floor).</p>`;
  const measuring =
    r.seconds === 0
      ? `<p class="note">Measuring: rates appear at the next sample (every ${refreshMs / 1000} s while this page is open) and cover up to a minute.</p>`
      : `<p>Rates over the last ${Math.round(r.seconds)} s, summed over ${r.replicas.length} live replica${r.replicas.length === 1 ? '' : 's'}: ${replicas}.</p>`;
  const rows = r.rows.map(
    (x) =>
      `<tr class="${STATUS_CLASS[x.status] ?? 'unjudged'}"><th scope="row">${esc(x.operation)}</th>${td(x.caller_daemon)}${td(formatRate(x.rate), true)}${td(x.calls, true)}${td(
        formatRate(x.expected),
        true,
      )}${td(formatRate(x.ceiling), true)}<td><span class="status">${esc(x.status)}</span></td></tr>`,
  );
  return `<h1>Load</h1>
${measuring}
${budget}
${over.length > 0 ? `<p class="warn" role="alert">${over.length} pair${over.length === 1 ? '' : 's'} outside the budget.</p>` : ''}
${chart(r.rows)}
${table(
  'Calls per second by (operation, caller daemon); status: ok within the ceiling, OVER above it, unbudgeted a steady pair the budget lacks, rare such a pair below the steady rate, - a caller the budget does not cover',
  [{ label: 'operation' }, { label: 'caller' }, { label: 'rate/s', num: true }, { label: 'calls', num: true }, { label: 'expected/s', num: true }, { label: 'ceiling/s', num: true }, { label: 'status' }],
  rows,
  r.seconds === 0 ? 'measuring…' : 'no call in the window',
  'load',
)}`;
}
