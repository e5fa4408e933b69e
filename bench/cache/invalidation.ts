// Cross-process invalidation: how long another process's cached copy survives an update
// or a delete. A reader client (its own channel, its own StaticObjectCache, the change
// feed on — what a daemon process has) holds every blob cached; a writer client (its own
// channel, no cache: another process as the tier sees it) updates or deletes them one at
// a time. Latency = the moment the reader's cache no longer holds the blob − the moment
// just before the writer's RPC was sent (an upper bound of "after the commit": the write
// RPC is inside it). One machine clock. Tier RPCs of the reader during the run show the
// cost: its long-poll, no reads.
import { randomUUID } from 'node:crypto';
import { StaticObjectCache, createClient, topics } from '../../client/index.js';
import { percentile } from '../../harness/stats.js';

export interface InvalidationResult {
  kind: 'update' | 'delete';
  samples: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Writes whose eviction was not seen within the timeout. */
  missed: number;
}

const TIMEOUT_MS = 5000;

export async function measureInvalidation(targets: string, count: number): Promise<InvalidationResult[]> {
  const cache = new StaticObjectCache();
  const reader = createClient({ targets, callerDaemon: 'bench', cache, feed: true });
  const writer = createClient({ targets, callerDaemon: 'bench', cache: false, feed: false });
  try {
    const uuids = Array.from({ length: count }, () => randomUUID());
    for (const uuid of uuids) await writer.createBlob({ uuid, staticValues: { size: 1 } });
    // Every blob read once: cached, and the cache attaches to the reader's change feed.
    for (const uuid of uuids) await reader.getBlob(uuid);
    await reader.changes.ready();
    // Told right after the cache's own listener (subscriptions are served in order).
    const gone = new Map<string, () => void>();
    // `held: () => []`: the topic stays narrowed to what the cache holds (its interest summary).
    const sub = reader.changes.subscribe(
      [topics.staticValues('blob')],
      (batch) => {
        for (const c of batch.changes) if (!cache.has('BLOB', c.id)) gone.get(c.id)?.();
      },
      { held: () => [] },
    );
    await new Promise((r) => setTimeout(r, 200));
    const results: InvalidationResult[] = [];
    for (const kind of ['update', 'delete'] as const) {
      const latencies: number[] = [];
      let missed = 0;
      for (const uuid of uuids) {
        if (!cache.has('BLOB', uuid)) await reader.getBlob(uuid);
        const evicted = new Promise<number>((resolve) => gone.set(uuid, () => resolve(Date.now())));
        const timeout = new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), TIMEOUT_MS).unref());
        const sentAt = Date.now();
        if (kind === 'update') await writer.updateBlob(uuid, { size: 2 });
        else await writer.deleteBlob(uuid);
        const at = await Promise.race([evicted, timeout]);
        gone.delete(uuid);
        if (at === undefined) missed += 1;
        else latencies.push(at - sentAt);
      }
      latencies.sort((a, b) => a - b);
      results.push({
        kind,
        samples: latencies.length,
        p50Ms: percentile(latencies, 0.5),
        p99Ms: percentile(latencies, 0.99),
        maxMs: latencies[latencies.length - 1] ?? Number.NaN,
        missed,
      });
    }
    sub.close();
    return results;
  } finally {
    reader.close();
    writer.close();
  }
}

export function renderInvalidation(results: readonly InvalidationResult[]): string {
  const ms = (v: number): string => (Number.isFinite(v) ? `${v.toFixed(1)} ms` : '—');
  return [
    '',
    '### Cross-process invalidation (change feed)',
    '',
    "A reader client with its own channel, cache and change feed (a daemon process) holds every blob cached; a writer client with its own channel and no cache (another process, as the tier sees it) updates, then deletes, each blob in turn. Latency: from just before the writer's RPC is sent until the reader's cache no longer holds the blob (an upper bound of the time after the commit: the write RPC is inside it).",
    '',
    '| write | samples | p50 | p99 | max | not evicted within 5 s |',
    '|---|---:|---:|---:|---:|---:|',
    ...results.map((r) => `| ${r.kind} | ${r.samples} | ${ms(r.p50Ms)} | ${ms(r.p99Ms)} | ${ms(r.maxMs)} | ${r.missed} |`),
  ].join('\n');
}
