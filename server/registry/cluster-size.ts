// The live cluster size on /metrics (database_cluster_*): the inputs of the load budget's
// model, so Prometheus rules and `sf-ctl load` can compute each pair's expected rate.
// Read when /metrics is scraped and the last reading is older than SFDB_CLUSTER_SIZE_MS:
// no scrape, no statement; a scrape never waits long for MariaDB (a stalled database must
// not stall monitoring) and reports the last reading instead.
import type { Sql } from '../db/sql.js';
import type { Logger } from '@sfdb/proto/runtime/log';
import type { Metrics } from '../metrics.js';
import { systemClock } from '@sfdb/proto/runtime/clock';
import type { Clock } from '@sfdb/proto/runtime/clock';
import { clusterSize } from './queries.js';

export interface ClusterSizeOptions {
  everyMs: number;
  replicaLiveMs: number;
  nodeLiveMs: number;
  /** The longest a scrape waits for a reading in flight. */
  scrapeWaitMs: number;
}

export class ClusterSizeSampler {
  private readAt = -Infinity;
  private reading: Promise<void> | undefined;

  constructor(
    private readonly sql: Sql,
    private readonly options: ClusterSizeOptions,
    private readonly metrics: Metrics,
    private readonly log: Logger,
    private readonly clock: Clock = systemClock,
  ) {}

  /** Called by the cluster gauges on every scrape. */
  async onScrape(): Promise<void> {
    const now = this.clock.now();
    if (!this.reading && now - this.readAt >= this.options.everyMs) {
      this.readAt = now;
      this.reading = this.read().finally(() => (this.reading = undefined));
    }
    if (!this.reading) return;
    const wait = new AbortController();
    await Promise.race([this.reading, this.clock.sleep(this.options.scrapeWaitMs, wait.signal)]);
    wait.abort();
  }

  private async read(): Promise<void> {
    try {
      const row = await clusterSize(this.sql, this.options.replicaLiveMs, this.options.nodeLiveMs);
      if (!row) return;
      const nodesLive = Number(row.nodes_live);
      this.metrics.setClusterSize({
        replicasLive: Number(row.replicas_live),
        nodesLive,
        nodesStale: Math.max(0, Number(row.nodes_all) - nodesLive),
        instances: Number(row.instances),
      });
    } catch (err) {
      this.log.debug({ err: (err as Error).message }, 'cluster size: read failed; /metrics keeps the last reading');
    }
  }
}
