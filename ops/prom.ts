// Prometheus text as samples, and rates from two scrapes of it. Pure: the unit tests
// feed it text.

export interface PromSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})?\s+(\S+)(\s+\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

function unescape(value: string): string {
  return value.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
}

/** Every sample of a text exposition (comments and blank lines skipped). */
export function parseProm(text: string): PromSample[] {
  const samples: PromSample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = LINE.exec(line.trim());
    if (!m) continue;
    const labels: Record<string, string> = {};
    for (const pair of (m[3] ?? '').matchAll(LABEL)) labels[pair[1] as string] = unescape(pair[2] as string);
    const raw = m[4] as string;
    const value = raw === '+Inf' ? Infinity : raw === '-Inf' ? -Infinity : Number(raw);
    samples.push({ name: m[1] as string, labels, value });
  }
  return samples;
}

/**
 * The samples of `name`, summed by the values of `by` (joined with '\u0000'); series
 * without one of those labels count under ''.
 */
export function sumBy(samples: readonly PromSample[], name: string, by: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const s of samples) {
    if (s.name !== name) continue;
    const key = by.map((l) => s.labels[l] ?? '').join('\u0000');
    out.set(key, (out.get(key) ?? 0) + s.value);
  }
  return out;
}

/** The sum of every series of `name`. */
export function total(samples: readonly PromSample[], name: string): number {
  let sum = 0;
  for (const s of samples) if (s.name === name) sum += s.value;
  return sum;
}

/**
 * Counter increase from `before` to `after`, key by key. A key that is new in `after`
 * started from 0; a value that went down means the counter restarted (its process did),
 * so the increase is the new value.
 */
export function counterDelta(before: ReadonlyMap<string, number>, after: ReadonlyMap<string, number>): Map<string, number> {
  const out = new Map<string, number>();
  for (const [key, value] of after) {
    const was = before.get(key) ?? 0;
    out.set(key, value >= was ? value - was : value);
  }
  return out;
}

/** One counter's increase (same restart rule as counterDelta). */
export function increase(before: number, after: number): number {
  return after >= before ? after - before : after;
}

/** Adds the maps key by key (e.g. the same counter from every replica). */
export function addMaps(maps: readonly ReadonlyMap<string, number>[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of maps) for (const [k, v] of m) out.set(k, (out.get(k) ?? 0) + v);
  return out;
}

export interface PairRate {
  operation: string;
  callerDaemon: string;
  perSecond: number;
}

/**
 * Per (operation, caller_daemon) RPC rates over a window, from database_requests_total
 * scraped on every replica at its start and end (summed over replicas), highest first.
 * Pairs that did not move are left out.
 */
export function pairRates(
  before: readonly (readonly PromSample[])[],
  after: readonly (readonly PromSample[])[],
  seconds: number,
  metric = 'database_requests_total',
): PairRate[] {
  const by = ['operation', 'caller_daemon'];
  const deltas = before.map((b, i) => counterDelta(sumBy(b, metric, by), sumBy(after[i] ?? [], metric, by)));
  const rates: PairRate[] = [];
  for (const [key, delta] of addMaps(deltas)) {
    if (delta <= 0) continue;
    const [operation = '', callerDaemon = ''] = key.split('\u0000');
    rates.push({ operation, callerDaemon, perSecond: delta / seconds });
  }
  return rates.sort((a, b) => b.perSecond - a.perSecond || a.operation.localeCompare(b.operation) || a.callerDaemon.localeCompare(b.callerDaemon));
}
