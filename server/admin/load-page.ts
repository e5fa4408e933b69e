// The Load page: (operation, caller_daemon) call rates, MariaDB seconds and pool waits of
// the last minute summed over the live replicas, the costliest pair first, against the load
// budget for the live cluster size and churn, with two small inline SVG charts (the top
// pairs by MariaDB seconds and by calls; measured bar, expected and ceiling marks) above the
// same numbers as a table.
import { costTotals, statusText } from '@sfdb/proto/runtime/budget';
import { formatShare } from '@sfdb/proto/runtime/format';
import { esc, formatRate, table, td } from './html.js';
import type { LoadReport, LoadRow } from './load.js';

/** Pairs drawn in each chart (the table lists them all). */
const CHART_ROWS = 12;
const WIDTH = 720;
const LABEL_W = 300;
const ROW_H = 24;

const STATUS_CLASS: Record<string, string> = { ok: 'ok', OVER: 'over', unbudgeted: 'unbudgeted', rare: 'rare', '-': 'unjudged' };

/** What one chart draws of a row: its measured value, the budget's expected value and ceiling, and its status class for that value. */
export interface ChartMeasure {
  id: string;
  title: string;
  /** Appended to each value: '/s', ' s/s'. */
  unit: string;
  value(r: LoadRow): number;
  expected(r: LoadRow): number | null;
  ceiling(r: LoadRow): number | null;
  /** The bar's class: over only when this measure is over its ceiling. */
  status(r: LoadRow): string;
}

const overFor = (what: 'calls' | 'seconds') => (r: LoadRow): string =>
  r.status === 'OVER' ? (r.over.includes(what) ? 'over' : 'ok') : (STATUS_CLASS[r.status] ?? 'unjudged');

export const CALLS: ChartMeasure = {
  id: 'calls',
  title: 'Calls per second by operation and caller, last minute',
  unit: '/s',
  value: (r) => r.rate,
  expected: (r) => r.expected,
  ceiling: (r) => r.ceiling,
  status: overFor('calls'),
};

export const SECONDS: ChartMeasure = {
  id: 'seconds',
  title: 'MariaDB seconds per second by operation and caller, last minute',
  unit: ' s/s',
  value: (r) => r.seconds ?? 0,
  expected: (r) => r.expectedSeconds,
  ceiling: (r) => r.secondsCeiling,
  status: overFor('seconds'),
};

/** The top CHART_ROWS rows by `m`'s value (those above 0), drawn as bars with the budget's marks; '' when none. */
export function chart(rows: readonly LoadRow[], m: ChartMeasure = CALLS): string {
  const shown = rows
    .filter((r) => m.value(r) > 0)
    .sort((a, b) => m.value(b) - m.value(a))
    .slice(0, CHART_ROWS);
  if (shown.length === 0) return '';
  const max = Math.max(...shown.map((r) => Math.max(m.value(r), m.ceiling(r) ?? 0))) * 1.1 || 1;
  const plot = WIDTH - LABEL_W - 70;
  const x = (v: number): number => LABEL_W + (v / max) * plot;
  const height = shown.length * ROW_H + 28;
  const bars = shown.map((r, i) => {
    const y = 8 + i * ROW_H;
    const label = `${r.operation} · ${r.caller_daemon}`;
    const expected = m.expected(r);
    const ceiling = m.ceiling(r);
    const marks = [
      expected !== null ? `<line class="expected" x1="${x(expected).toFixed(1)}" x2="${x(expected).toFixed(1)}" y1="${y}" y2="${y + ROW_H - 6}"/>` : '',
      ceiling !== null ? `<line class="ceiling" x1="${x(ceiling).toFixed(1)}" x2="${x(ceiling).toFixed(1)}" y1="${y - 2}" y2="${y + ROW_H - 4}"/>` : '',
    ].join('');
    return `<g class="${m.status(r)}"><text x="${LABEL_W - 8}" y="${y + 13}" text-anchor="end">${esc(label.length > 40 ? `${label.slice(0, 39)}…` : label)}</text>
<rect x="${LABEL_W}" y="${y + 2}" width="${Math.max(1, x(m.value(r)) - LABEL_W).toFixed(1)}" height="${ROW_H - 10}"/>${marks}
<text class="value" x="${(Math.max(x(m.value(r)), ceiling !== null ? x(ceiling) : 0) + 6).toFixed(1)}" y="${y + 13}">${esc(formatRate(m.value(r)))}${m.unit}</text></g>`;
  });
  const axisY = shown.length * ROW_H + 14;
  return `<figure class="chart">
<svg viewBox="0 0 ${WIDTH} ${height}" width="100%" role="img" aria-labelledby="chart-${m.id}-title chart-${m.id}-desc">
<title id="chart-${m.id}-title">${esc(m.title)}</title>
<desc id="chart-${m.id}-desc">Bars are measured values; a solid mark is the budget's expected value, a dashed mark its ceiling. The table below holds the same numbers.</desc>
${bars.join('\n')}
<line class="axis" x1="${LABEL_W}" x2="${LABEL_W + plot}" y1="${axisY}" y2="${axisY}"/>
<text class="muted" x="${LABEL_W}" y="${axisY + 12}">0</text><text class="muted" x="${LABEL_W + plot}" y="${axisY + 12}" text-anchor="end">${esc(formatRate(max))}${m.unit}</text>
</svg>
<figcaption>${esc(m.title)}: the top ${shown.length}. Bar: measured; solid mark: expected by the budget; dashed mark: its ceiling.</figcaption>
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

/** The window's MariaDB seconds and pool wait over every pair; nothing while no replica reports them. */
function costs(r: LoadReport): string {
  const { seconds, poolWait } = costTotals(r.rows);
  if (seconds === null) return r.seconds === 0 ? '' : '<p class="note">MariaDB seconds unknown: no replica reports database_request_query_seconds_total.</p>';
  const top = r.rows[0];
  const costliest = top && (top.seconds ?? 0) > 0 ? `; the costliest pair is ${esc(top.operation)} · ${esc(top.caller_daemon)} (${esc(formatShare(top.share))})` : '';
  const wait = poolWait === null ? 'unknown' : `${formatRate(poolWait)} s/s`;
  return `<p class="costs">MariaDB busy ${esc(formatRate(seconds))} s/s, pool wait ${esc(wait)}${costliest}.</p>`;
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
      )}${td(formatRate(x.ceiling), true)}${td(formatRate(x.seconds), true)}${td(formatShare(x.share), true)}${td(formatRate(x.secondsCeiling), true)}${td(
        formatRate(x.poolWait),
        true,
      )}<td><span class="status">${esc(statusText(x))}</span></td></tr>`,
  );
  return `<h1>Load</h1>
${measuring}
${budget}
${over.length > 0 ? `<p class="warn" role="alert">${over.length} pair${over.length === 1 ? '' : 's'} outside the budget.</p>` : ''}
${costs(r)}
${chart(r.rows, SECONDS)}
${chart(r.rows, CALLS)}
${table(
  'Per (operation, caller daemon), the costliest first (by MariaDB seconds per second, then calls per second): calls per second against the budget, the MariaDB seconds per second its calls caused (a group-commit batch or shared read split equally among the calls it answered), their share of all, the seconds ceiling, and seconds per second waited for a pool connection. Caller sf-database is the tier\'s own work, by source. Status: ok within the ceilings, OVER above one (calls, db s or both), unbudgeted a steady pair the budget lacks, rare such a pair below the steady rate, - a caller the budget does not cover',
  [
    { label: 'operation' },
    { label: 'caller' },
    { label: 'rate/s', num: true },
    { label: 'calls', num: true },
    { label: 'expected/s', num: true },
    { label: 'ceiling/s', num: true },
    { label: 'db s/s', num: true },
    { label: 'db share', num: true },
    { label: 'db s ceiling', num: true },
    { label: 'pool wait s/s', num: true },
    { label: 'status' },
  ],
  rows,
  r.seconds === 0 ? 'measuring…' : 'no call in the window',
  'load',
)}`;
}
