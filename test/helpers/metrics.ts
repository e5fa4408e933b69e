// Reads values out of Prometheus text.

/** The value of `name{labels}` (labels matched exactly, any order), or 0 when absent. */
export function metricValue(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})?\s+(\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const found: Record<string, string> = {};
    for (const pair of (m[3] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) found[pair[1] as string] = pair[2] as string;
    const want = Object.entries(labels);
    if (want.length !== Object.keys(found).length) continue;
    if (want.every(([k, v]) => found[k] === v)) return Number(m[4]);
  }
  return 0;
}

/** Sum of `name` over every series whose labels include `labels`. */
export function metricSum(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})?\s+(\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const found: Record<string, string> = {};
    for (const pair of (m[3] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) found[pair[1] as string] = pair[2] as string;
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) sum += Number(m[4]);
  }
  return sum;
}

/** Anything whose /metrics text can be read (a TestTier). */
export interface MetricsSource {
  metrics(): Promise<string>;
}

/** Waits until the replica holds `n` long-polls (a metric read per try; fails after 10 s). */
export async function holdingLongPolls(source: MetricsSource, n: number): Promise<void> {
  for (const deadline = Date.now() + 10_000; metricSum(await source.metrics(), 'database_changefeed_waiters') !== n; ) {
    if (Date.now() > deadline) throw new Error(`the tier does not hold ${n} long-polls within 10 s`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Long-polls the replica answered with changes (at once or woken), so far. */
export async function longPollsAnsweredWithChanges(source: MetricsSource): Promise<number> {
  return metricValue(await source.metrics(), 'database_changefeed_waits_total', { outcome: 'changes' });
}
