// Scraping /metrics endpoints: once, or twice a window apart, with a deadline on every
// request. A failed first scrape is "cannot scrape"; a failed second one is "went away
// between scrapes"; both exit 3. Rates use each endpoint's own measured elapsed time.
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseProm } from '../prom.js';
import type { PromSample } from '../prom.js';
import { CtlError, EXIT } from './cli.js';

/** The longest one /metrics request may take. */
export const SCRAPE_TIMEOUT_MS = 5000;

/** An endpoint to scrape: what it is called in messages, and its host:port. */
export interface Endpoint {
  id: string;
  address: string;
}

export interface Scrape {
  samples: PromSample[];
  /** Monotonic ms (performance.now) halfway between request and answer. */
  at: number;
}

export interface ScrapePair {
  endpoint: Endpoint;
  before: PromSample[];
  after: PromSample[];
  /** Seconds between the two scrapes of this endpoint. */
  seconds: number;
  /** The process behind the endpoint restarted in between (its counters began again). */
  restarted: boolean;
}

/**
 * The endpoints to scrape: `override` (--metrics) when given, else the metrics address
 * each live replica recorded in the registry. Exit 3 when there is none to scrape.
 */
export function replicaEndpoints(
  replicas: readonly { replicaId: string; live: boolean; metricsAddress: string }[],
  override: readonly string[] | undefined,
): Endpoint[] {
  if (override) return override.map((address) => ({ id: address, address }));
  const live = replicas.filter((r) => r.live);
  const missing = live.filter((r) => r.metricsAddress === '');
  if (missing.length > 0) {
    const ids = missing.map((r) => r.replicaId).join(', ');
    throw new CtlError(`cannot scrape replica ${ids}: it recorded no metrics address; pass --metrics host:port,...`, EXIT.unreachable);
  }
  if (live.length === 0) throw new CtlError('no live replica in the registry to scrape; pass --metrics host:port,...', EXIT.unreachable);
  return live.map((r) => ({ id: `replica ${r.replicaId}`, address: r.metricsAddress }));
}

export function metricsUrl(address: string): string {
  return `http://${address}/metrics`;
}

async function fetchText(url: string): Promise<string> {
  const res = await fetch(url, { signal: AbortSignal.timeout(SCRAPE_TIMEOUT_MS) });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return res.text();
}

function reason(err: unknown): string {
  const e = err as Error & { cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError') return `no answer within ${SCRAPE_TIMEOUT_MS} ms`;
  return (e.cause?.code ?? e.cause?.message ?? e.message).replace(/\s+/g, ' ');
}

/**
 * One scrape of one endpoint; a failure is a CtlError (exit 3): "cannot scrape …", or for
 * the second scrape of a window "… went away between scrapes".
 */
export async function scrape(endpoint: Endpoint, second = false): Promise<Scrape> {
  const start = performance.now();
  const url = metricsUrl(endpoint.address);
  let text: string;
  try {
    text = await fetchText(url);
  } catch (err) {
    const message = second ? `${endpoint.id} at ${url} went away between scrapes (${reason(err)})` : `cannot scrape ${endpoint.id} at ${url} (${reason(err)})`;
    throw new CtlError(message, EXIT.unreachable);
  }
  return { samples: parseProm(text), at: (start + performance.now()) / 2 };
}

/** `process_start_time_seconds` of a scrape (prom-client's default metric), if present. */
export function processStart(samples: readonly PromSample[]): number | undefined {
  return samples.find((s) => s.name === 'process_start_time_seconds')?.value;
}

/** True when the process behind two scrapes is not the same one (its start time moved). */
export function restartedBetween(before: readonly PromSample[], after: readonly PromSample[]): boolean {
  const a = processStart(before);
  const b = processStart(after);
  return a !== undefined && b !== undefined && a !== b;
}

/**
 * Scrapes every endpoint, waits `windowMs`, scrapes them again. `onFirst` runs between
 * (progress). An endpoint whose process restarted counts from zero (before = []), so a
 * reset never reads as a negative or a too-small rate.
 */
export async function scrapeTwice(endpoints: readonly Endpoint[], windowMs: number, onFirst?: () => void): Promise<ScrapePair[]> {
  const first = await Promise.all(endpoints.map((e) => scrape(e)));
  onFirst?.();
  const firstDone = Math.max(...first.map((s) => s.at));
  await sleep(Math.max(0, windowMs - (performance.now() - firstDone)));
  const second = await Promise.all(endpoints.map((e) => scrape(e, true)));
  return endpoints.map((endpoint, i) => {
    const b = first[i] as Scrape;
    const a = second[i] as Scrape;
    const restarted = restartedBetween(b.samples, a.samples);
    return { endpoint, before: restarted ? [] : b.samples, after: a.samples, seconds: (a.at - b.at) / 1000, restarted };
  });
}
