// Wake-ups per static update (issue 17): many processes, each with its own channel, cache
// and long-poll, each caching a blob of its own. A writer (another process, no cache)
// then updates a blob nobody holds, and a blob k of them hold, one update at a time; the
// tier's own counter of long-polls answered with changes (at once or woken) tells how
// many processes each update cost. The control, in the same run, is the design before the
// interest summary: every process also subscribes to `static/blob` without saying what
// it holds, so each update wakes them all. Eviction latency of the k holders: from just
// before the writer's RPC to the holder's cache no longer holding the blob (one clock).
import { randomUUID } from 'node:crypto';
import { StaticObjectCache, createClient, topics } from '../../client/index.js';
import type { DatabaseClient, Subscription } from '../../client/index.js';
import { metricSum } from '../../harness/scrape.js';
import type { PromSample } from '../../harness/scrape.js';
import { percentile } from '../../harness/stats.js';

export interface WakeupRow {
  scenario: string;
  updates: number;
  /** Long-polls the tier answered with changes, per update. */
  wokenPerUpdate: number;
  /** Held long-polls the interest summary kept asleep, per update. */
  keptPerUpdate: number;
  evictionP50Ms?: number;
  evictionP99Ms?: number;
  /** Holder evictions not seen within 5 s. */
  missed?: number;
}

export interface WakeupResult {
  processes: number;
  holders: number;
  rows: WakeupRow[];
}

const TIMEOUT_MS = 5000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function measureWakeups(targets: string, tierMetrics: () => Promise<PromSample[]>, opts: { processes: number; holders: number; updates: number }): Promise<WakeupResult> {
  const writer = createClient({ targets, callerDaemon: 'bench', cache: false, feed: false });
  const procs: DatabaseClient[] = [];
  const counters = async () => {
    const m = await tierMetrics();
    return {
      woken: metricSum(m, 'database_changefeed_waits_total', { outcome: 'changes' }),
      kept: metricSum(m, 'database_changefeed_interest_kept_total'),
      waiters: metricSum(m, 'database_changefeed_waiters'),
    };
  };
  const settle = async (waiters: number) => {
    for (const deadline = Date.now() + 10_000; (await counters()).waiters !== waiters; ) {
      if (Date.now() > deadline) throw new Error(`the tier does not hold ${waiters} long-polls within 10 s`);
      await sleep(20);
    }
    await sleep(150); // re-polls of the last reads (50 ms after them) are in
  };
  try {
    const own = Array.from({ length: opts.processes }, () => randomUUID());
    const [cold, shared] = [randomUUID(), randomUUID()];
    for (const uuid of [...own, cold, shared]) await writer.createBlob({ uuid, staticValues: { size: 1 } });
    for (let i = 0; i < opts.processes; i++) procs.push(createClient({ targets, callerDaemon: 'bench', cache: new StaticObjectCache() }));
    await Promise.all(procs.map((p, i) => p.getBlob(own[i] as string)));
    await Promise.all(procs.map((p) => p.changes.ready()));
    // What was read before the first cursor was dropped: read again, on the feed.
    await Promise.all(procs.map((p, i) => p.getBlob(own[i] as string)));
    const holders = procs.slice(0, opts.holders);
    await Promise.all(holders.map((p) => p.getBlob(shared)));
    await settle(opts.processes);

    const rows: WakeupRow[] = [];
    const updates = async (scenario: string, uuid: string, watch: DatabaseClient[]) => {
      // Told right after each holder's cache listener (subscriptions are served in order);
      // `held: () => []` keeps the topic narrowed to what the cache holds.
      const seen = new Map<DatabaseClient, () => void>();
      const subs: Subscription[] = watch.map((p) =>
        p.changes.subscribe([topics.staticValues('blob')], () => (p.cache?.has('BLOB', uuid) === false ? seen.get(p)?.() : undefined), { held: () => [] }),
      );
      const latencies: number[] = [];
      let missed = 0;
      const before = await counters();
      for (let n = 0; n < opts.updates; n++) {
        const evicted = watch.map((p) => new Promise<number | undefined>((resolve) => {
          seen.set(p, () => resolve(Date.now()));
          setTimeout(() => resolve(undefined), TIMEOUT_MS).unref();
        }));
        const sentAt = Date.now();
        await writer.updateBlob(uuid, { size: n + 2 });
        for (const at of await Promise.all(evicted)) {
          if (at === undefined) missed += 1;
          else latencies.push(at - sentAt);
        }
        seen.clear();
        // The holders read it again (as a daemon using it would), and hold it once more.
        await Promise.all(watch.map((p) => p.getBlob(uuid)));
        await sleep(100);
      }
      const after = await counters();
      for (const s of subs) s.close();
      latencies.sort((a, b) => a - b);
      rows.push({
        scenario,
        updates: opts.updates,
        wokenPerUpdate: (after.woken - before.woken) / opts.updates,
        keptPerUpdate: (after.kept - before.kept) / opts.updates,
        ...(watch.length > 0 ? { evictionP50Ms: percentile(latencies, 0.5), evictionP99Ms: percentile(latencies, 0.99), missed } : {}),
      });
    };
    await updates('a blob no process holds', cold, []);
    await settle(opts.processes);
    await updates(`a blob ${opts.holders} processes hold`, shared, holders);
    // The control: every process also subscribes without a summary (the design before).
    const plain = procs.map((p) => p.changes.subscribe([topics.staticValues('blob')]));
    await settle(opts.processes);
    await updates('a blob no process holds, without interest summaries (control)', cold, []);
    for (const s of plain) s.close();
    return { processes: opts.processes, holders: opts.holders, rows };
  } finally {
    for (const p of procs) p.close();
    writer.close();
  }
}

export function renderWakeups(r: WakeupResult): string {
  const ms = (v: number | undefined): string => (v !== undefined && Number.isFinite(v) ? `${v.toFixed(1)} ms` : '—');
  return [
    '',
    '### Wake-ups per static update (interest summaries)',
    '',
    `${r.processes} processes on one replica, each with its own channel, static-object cache and long-poll, each caching a blob of its own; ${r.holders} of them also cache one shared blob. ` +
      "A writer (no cache) updates a blob, one update at a time, 100 ms apart (the holders read it again in between); *woken* is the tier's `database_changefeed_waits_total{outcome=\"changes\"}` over the updates, " +
      '*kept* its `database_changefeed_interest_kept_total` (long-polls a summary kept asleep). Eviction: from just before the update RPC until the holder no longer holds the blob. ' +
      'The control row is the design before: every process also subscribed to `static/blob` without a summary.',
    '',
    '| update of | updates | long-polls woken per update | kept asleep per update | eviction p50 | eviction p99 | not evicted within 5 s |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...r.rows.map(
      (w) =>
        `| ${w.scenario} | ${w.updates} | ${w.wokenPerUpdate.toFixed(2)} | ${w.keptPerUpdate.toFixed(1)} | ${ms(w.evictionP50Ms)} | ${ms(w.evictionP99Ms)} | ${w.missed ?? '—'} |`,
    ),
  ].join('\n');
}
