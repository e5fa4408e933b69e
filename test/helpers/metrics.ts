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
