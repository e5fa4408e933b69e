// Waiting on and reading the change feed's metrics of a tier (the parsing is the
// harness's: harness/scrape.ts).
import { metricSum, metricValue } from '../../harness/scrape.js';

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
