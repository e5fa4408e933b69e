// The static-object cache of a simulated process, counting its reads for the cluster
// benchmark's cache figures (protocol.ts CacheFigures): each object's first read in the
// process apart from the later ones, which the cache should answer (issue 38). All the
// processes of a simulator add to one tally; evictions and clears are read from the
// client's own counters (clientRegistry: every cache of the simulator reports there).
import { StaticObjectCache, clientRegistry, CLIENT_METRIC_NAMES } from '../../../client/index.js';
import type { CachedType } from '../../../client/index.js';
import type { CacheFigures } from '../protocol.js';

const tally = { firstReads: 0, laterHits: 0, laterMisses: 0 };

export class CountingCache extends StaticObjectCache {
  private readonly seen = new Set<string>();

  override get<T extends object>(type: CachedType, uuid: string): Readonly<T> | undefined {
    const value = super.get<T>(type, uuid);
    const key = `${type}:${uuid}`;
    if (!this.seen.has(key)) {
      this.seen.add(key);
      tally.firstReads += 1;
    } else if (value !== undefined) tally.laterHits += 1;
    else tally.laterMisses += 1;
    return value;
  }
}

/** Every counting cache's reads so far, and the evictions and clears of this simulator's caches by reason. */
export async function cacheFigures(): Promise<CacheFigures> {
  const byReason = async (name: string): Promise<Record<string, number>> => {
    const out: Record<string, number> = {};
    const metric = clientRegistry.getSingleMetric(name);
    for (const v of metric ? (await metric.get()).values : []) {
      const reason = String(v.labels['reason']);
      out[reason] = (out[reason] ?? 0) + v.value;
    }
    return out;
  };
  return { ...tally, evictions: await byReason(CLIENT_METRIC_NAMES.cacheEvictions), clears: await byReason(CLIENT_METRIC_NAMES.cacheClears) };
}
