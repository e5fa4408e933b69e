// The cluster-size gauges read MariaDB only when scraped, at most once per interval, and a
// scrape never waits out a stalled database (fake clock, fake statement).
import { describe, expect, it } from 'vitest';
import type { Sql } from '../../server/db/sql.js';
import { createLogger } from '../../proto/runtime/log.js';
import { Metrics } from '../../server/metrics.js';
import { ClusterSizeSampler } from '../../server/registry/cluster-size.js';
import { FakeClock, flush } from '../helpers/fake-clock.js';
import { metricValue } from '../../harness/scrape.js';

interface Pending {
  resolve: (rows: unknown[]) => void;
}

function fakeSql(): { sql: Sql; pending: Pending[] } {
  const pending: Pending[] = [];
  const sql = {
    rows: () => new Promise<unknown[]>((resolve) => pending.push({ resolve })),
  } as unknown as Sql;
  return { sql, pending };
}

const row = (nodesLive: number, nodesAll: number, instances: number) => ({
  replicas_live: '2',
  nodes_live: String(nodesLive),
  nodes_all: String(nodesAll),
  instances: String(instances),
});

function setup() {
  const clock = new FakeClock();
  const { sql, pending } = fakeSql();
  const metrics = new Metrics('r1');
  const sampler = new ClusterSizeSampler(sql, { everyMs: 30_000, replicaLiveMs: 15_000, nodeLiveMs: 30_000, scrapeWaitMs: 500 }, metrics, createLogger('silent'), clock);
  metrics.onClusterScrape(() => sampler.onScrape());
  return { clock, pending, metrics };
}

describe('cluster size sampler', () => {
  it('reads on the first scrape and not again until the interval has passed', async () => {
    const { clock, pending, metrics } = setup();
    const first = metrics.registry.metrics();
    await flush();
    expect(pending).toHaveLength(1);
    pending.shift()?.resolve([row(3, 4, 8)]);
    const text = await first;
    expect(metricValue(text, 'database_cluster_nodes', { state: 'live' })).toBe(3);
    expect(metricValue(text, 'database_cluster_nodes', { state: 'stale' })).toBe(1);
    expect(metricValue(text, 'database_cluster_instances')).toBe(8);
    expect(metricValue(text, 'database_cluster_replicas_live')).toBe(2);

    await clock.advance(29_999);
    await metrics.registry.metrics();
    expect(pending).toHaveLength(0); // within the interval: no statement

    await clock.advance(1);
    const again = metrics.registry.metrics();
    await flush();
    expect(pending).toHaveLength(1);
    pending.shift()?.resolve([row(5, 5, 9)]);
    expect(metricValue(await again, 'database_cluster_nodes', { state: 'live' })).toBe(5);
  });

  it('a scrape waits at most scrapeWaitMs for a stalled read and reports the last reading', async () => {
    const { clock, pending, metrics } = setup();
    const first = metrics.registry.metrics();
    await flush();
    pending.shift()?.resolve([row(3, 3, 1)]);
    await first;

    await clock.advance(30_000);
    let answered = false;
    const stalled = metrics.registry.metrics().then((text) => {
      answered = true;
      return text;
    });
    await flush();
    expect(pending).toHaveLength(1); // the read is in flight and MariaDB does not answer
    await clock.advance(499);
    expect(answered).toBe(false);
    await clock.advance(1);
    const text = await stalled;
    expect(metricValue(text, 'database_cluster_nodes', { state: 'live' })).toBe(3);

    // Scrapes meanwhile start no second read.
    await clock.advance(60_000);
    void metrics.registry.metrics();
    await flush();
    expect(pending).toHaveLength(1);
  });
});
