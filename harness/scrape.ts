// Reading a replica's /metrics, for every bench and test: one GET, parsed by the one
// parser of Prometheus text (ops/prom.ts, which sf-ctl uses on the same endpoint).
import { get } from 'node:http';
import { parseProm } from '../ops/prom.js';
import type { PromSample } from '../ops/prom.js';

export type { PromSample };

/**
 * GET /metrics on 127.0.0.1:`httpPort`, on a new connection each time: a bench's load
 * can keep a replica's event loop busy for seconds, and a kept-alive socket may have been
 * closed by the server unnoticed meanwhile. Fails on any status but 200, or after `timeoutMs`.
 */
export function scrapeText(httpPort: number, timeoutMs = 30_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = get({ host: '127.0.0.1', port: httpPort, path: '/metrics', agent: false, timeout: timeoutMs }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => (res.statusCode === 200 ? resolve(body) : reject(new Error(`/metrics on port ${httpPort} answered ${res.statusCode}`))));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`/metrics on port ${httpPort}: no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
  });
}

/** A replica's /metrics as samples. */
export async function scrape(httpPort: number, timeoutMs?: number): Promise<PromSample[]> {
  return parseProm(await scrapeText(httpPort, timeoutMs));
}

function samplesOf(source: string | readonly PromSample[]): readonly PromSample[] {
  return typeof source === 'string' ? parseProm(source) : source;
}

/** The value of `name{labels}` (labels matched exactly, any order), or 0 when absent. */
export function metricValue(source: string | readonly PromSample[], name: string, labels: Record<string, string> = {}): number {
  const want = Object.entries(labels);
  const found = samplesOf(source).find(
    (s) => s.name === name && Object.keys(s.labels).length === want.length && want.every(([k, v]) => s.labels[k] === v),
  );
  return found?.value ?? 0;
}

/** Sum of `name` over every series whose labels include `labels`. */
export function metricSum(source: string | readonly PromSample[], name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const s of samplesOf(source)) {
    if (s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)) sum += s.value;
  }
  return sum;
}
