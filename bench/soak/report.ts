// The soak as text: one line per sample while it runs, and at the end a Markdown report
// (per-sample table, what the calls did, the verdicts) that is saved beside the JSON.
import type { Machine } from '../../harness/machine.js';
import type { EntryCounts } from './load.js';
import type { SoakOptions } from './options.js';
import type { SoakSample } from './sample.js';
import type { SeriesVerdict } from './verdict.js';

/** The JSON file of a run. */
export interface SavedSoak {
  command: string;
  date: string;
  machine: Machine;
  loadBefore: string;
  loadAfter: string;
  options: Omit<SoakOptions, 'argv'>;
  seeded: { nodes: number; instances: number };
  samples: SoakSample[];
  verdicts: SeriesVerdict[];
  /** Why it ended early, if it did. */
  ended?: string;
}

const f1 = (n: number): string => (Number.isFinite(n) ? n.toFixed(1) : '–');
const f2 = (n: number): string => (Number.isFinite(n) ? n.toFixed(2) : '–');
const int = (n: number): string => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '–');

const spread = (lo: number, hi: number): string => `${Math.round(lo)}–${Math.round(hi)}`;

function unexpectedCount(s: SoakSample): number {
  return Object.values(s.calls.unexpected).reduce((a, b) => a + b, 0);
}

/** The line printed for each sample. */
export function sampleLine(s: SoakSample): string {
  const q = s.quiet;
  const l = s.load;
  return (
    `min ${s.minute.toFixed(2).padStart(6)} | RSS ${f1(q.rssMb)} MB (${spread(s.memory.rssMin, s.memory.rssMax)}) | fds ${q.openFds} | handles ${q.activeHandles} | ` +
    `in-flight ${l.inFlight}/${q.inFlight} | heap ${f1(q.heapUsedMb)} MB (${spread(s.memory.heapMin, s.memory.heapMax)}) | pool ${l.poolConnections} (busy ${l.poolBusy}/${q.poolBusy}) | ` +
    `MariaDB conns ${q.mariadbConnections} | waiters ${l.waiters}/${q.waiters} | window ${int(q.windowChanges)} | ` +
    `p99 ${f1(s.calls.p99Ms)} ms | ${int(s.tier.requestsPerS)} RPC/s | shed ${s.calls.shed} | unexpected ${unexpectedCount(s)}` +
    (q.inFlight !== 0 ? ` | in flight drained after ${s.inFlightDrainMs === undefined ? 'NOT within 5 s' : `${Math.round(s.inFlightDrainMs)} ms`}` : '')
  );
}

export function samplesTable(samples: readonly SoakSample[]): string {
  const head =
    '| min | RSS MB quiet (min–max) | open fds | active handles | in flight load / quiet | heap used MB quiet (min–max) | heap total MB | pool conns load (busy) / quiet busy | MariaDB conns | waiters load / quiet | window rows | p99 ms | p50 ms | tier RPC/s | tier CPU s/s | unexpected |';
  const rows = samples.map((s) => {
    const q = s.quiet;
    const l = s.load;
    return (
      `| ${f2(s.minute)} | ${f1(q.rssMb)} (${spread(s.memory.rssMin, s.memory.rssMax)}) | ${q.openFds} | ${q.activeHandles} | ${l.inFlight} / ${q.inFlight} | ` +
      `${f1(q.heapUsedMb)} (${spread(s.memory.heapMin, s.memory.heapMax)}) | ${f1(q.heapTotalMb)} | ` +
      `${l.poolConnections} (${l.poolBusy}) / ${q.poolBusy} | ${q.mariadbConnections} | ${l.waiters} / ${q.waiters} | ${int(q.windowChanges)} | ` +
      `${f1(s.calls.p99Ms)} | ${f2(s.calls.p50Ms)} | ${int(s.tier.requestsPerS)} | ${f2(s.tier.cpuSecondsPerS)} | ${unexpectedCount(s)} |`
    );
  });
  return [head, `|${' ---: |'.repeat(16)}`, ...rows].join('\n');
}

export function verdictTable(verdicts: readonly SeriesVerdict[]): string {
  const rows = verdicts.map(
    (v) => `| ${v.label} | ${v.n} | ${f2(v.slopePerMin)} | ${f1(v.median)} | ${f1(v.final)} | ${v.rule} | **${v.verdict}** |`,
  );
  return ['| series | samples | slope /min | median | final | flat when | verdict |', '| --- | ---: | ---: | ---: | ---: | --- | --- |', ...rows].join(
    '\n',
  );
}

/** Every sample's client counts, summed per mix entry. */
function entryTotals(samples: readonly SoakSample[]): [string, EntryCounts][] {
  const out = new Map<string, EntryCounts>();
  for (const s of samples) {
    for (const [name, c] of Object.entries(s.calls.entries)) {
      const t = out.get(name) ?? { issued: 0, expected: 0, completedFirst: 0, unexpected: 0 };
      t.issued += c.issued;
      t.expected += c.expected;
      t.completedFirst += c.completedFirst;
      t.unexpected += c.unexpected;
      out.set(name, t);
    }
  }
  return [...out];
}

function sumRecords(records: readonly Record<string, number>[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of records) for (const [k, v] of Object.entries(r)) out[k] = (out[k] ?? 0) + v;
  return out;
}

function listed(r: Record<string, number>): string {
  const entries = Object.entries(r).sort((a, b) => b[1] - a[1]);
  return entries.length === 0 ? 'none' : entries.map(([k, v]) => `${k} ${int(v)}`).join(', ');
}

export function callsSection(samples: readonly SoakSample[]): string {
  const rows = entryTotals(samples).map(
    ([name, c]) => `| ${name} | ${int(c.issued)} | ${int(c.expected)} | ${int(c.completedFirst)} | ${int(c.unexpected)} |`,
  );
  const longPolls = sumRecords(samples.map((s) => s.calls.longPolls));
  const shed = samples.reduce((a, s) => a + s.calls.shed, 0);
  const scheduled = samples.reduce((a, s) => a + s.calls.scheduled, 0);
  const unexpected = sumRecords(samples.map((s) => s.calls.unexpected));
  return [
    '| call | issued | ended as intended | completed before its abort / deadline | unexpected |',
    '| --- | ---: | ---: | ---: | ---: |',
    ...rows,
    '',
    `- Scheduled ${int(scheduled)}, shed ${int(shed)} (over --max-outstanding).`,
    `- Long-poll loops: ${listed(longPolls)}; the per-phase daemon client's ChangeWaiter woke ${int(samples.reduce((a, s) => a + s.calls.daemonWakes, 0))} times.`,
    `- The tier's database_request_errors_total by code: ${listed(sumRecords(samples.map((s) => s.tier.errors)))}.`,
    `- The tier's database_changefeed_waits_total by outcome: ${listed(sumRecords(samples.map((s) => s.tier.waits)))}.`,
    `- Unexpected endings: ${listed(unexpected)}.`,
  ].join('\n');
}

export function renderSoak(saved: SavedSoak, files: readonly string[]): string {
  const o = saved.options;
  const m = saved.machine;
  return [
    `- Command: \`${saved.command}\``,
    `- Date: ${saved.date}`,
    `- Machine: ${m.nproc} cores (nproc), ${m.cpu}; Node ${m.node}; ${m.mariadb}`,
    `- Load average (1 min) before / after: ${saved.loadBefore} / ${saved.loadAfter}`,
    ...(files.length > 0 ? [`- Files: ${files.map((x) => `\`${x}\``).join(', ')} (not committed)`] : []),
    `- Setup: one replica (shipped defaults but SFDB_CHANGEFEED_WINDOW=${o.window}) on a private MariaDB; ${saved.seeded.nodes} nodes, ${saved.seeded.instances} instances; ` +
      `${o.clients} load clients + 1 cached client, ${o.rate} scheduled calls/s (open loop), ${o.waiters} long-poll loops (10 s timeout) ` +
      `and one short-lived daemon client per phase; a sample every ${o.sampleS} s (memory also every ${o.scrapeS} s under load), warm-up ${f2(o.warmupMin)} min left out of the verdicts.`,
    ...(saved.ended ? [`- **Ended early**: ${saved.ended}`] : []),
    '',
    samplesTable(saved.samples),
    '',
    verdictTable(saved.verdicts),
    '',
    callsSection(saved.samples),
  ].join('\n');
}
