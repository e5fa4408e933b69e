// One reading of the replica: its memory from /proc, its gauges and counters from its
// /metrics, and MariaDB's own count of connections (SHOW GLOBAL STATUS, on a connection
// of ours that is subtracted).
import { createConnection } from 'mysql2/promise';
import type { RowDataPacket } from 'mysql2/promise';
import { sumBy, total } from '../../ops/prom.js';
import { scrape } from '../../harness/scrape.js';
import type { PromSample } from '../../ops/prom.js';
import { processCpuSeconds, processRssMb } from '../../harness/children.js';
import type { IntervalLoad } from './load.js';

export interface Gauges {
  /** VmRSS of the replica's process, MB (2^20 bytes). */
  rssMb: number;
  /** process_open_fds. */
  openFds: number;
  /** nodejs_active_handles_total: sockets, timers, servers held by the event loop. */
  activeHandles: number;
  /** database_requests_in_flight. */
  inFlight: number;
  /** nodejs_heap_size_used_bytes, MB. */
  heapUsedMb: number;
  /** nodejs_heap_size_total_bytes, MB: what V8 has reserved for its heap. */
  heapTotalMb: number;
  /** nodejs_external_memory_bytes, MB (Buffers outside the V8 heap). */
  externalMb: number;
  /** database_pool_connections, busy + idle; and busy alone. */
  poolConnections: number;
  poolBusy: number;
  poolQueued: number;
  /** database_changefeed_waiters. */
  waiters: number;
  /** database_changefeed_window_changes: rows in the replica's window (bounded by SFDB_CHANGEFEED_WINDOW). */
  windowChanges: number;
  /** MariaDB Threads_connected, less the connection that asked. */
  mariadbConnections: number;
}

/** Memory alone: read every few seconds under load, for the minute's floor and peak. */
export interface Memory {
  rssMb: number;
  heapUsedMb: number;
}

/** The lowest and highest of an interval's memory readings (the floor is what survives GC). */
export interface MemorySpread {
  readings: number;
  rssMin: number;
  rssMax: number;
  heapMin: number;
  heapMax: number;
}

export function spreadOf(readings: readonly Memory[]): MemorySpread {
  const rss = readings.map((r) => r.rssMb);
  const heap = readings.map((r) => r.heapUsedMb);
  return { readings: readings.length, rssMin: Math.min(...rss), rssMax: Math.max(...rss), heapMin: Math.min(...heap), heapMax: Math.max(...heap) };
}

export interface Counters {
  requests: number;
  /** database_request_errors_total by code. */
  errors: Record<string, number>;
  /** database_changefeed_waits_total by outcome. */
  waits: Record<string, number>;
  cpuSeconds: number;
}

export interface Reading {
  at: number;
  gauges: Gauges;
  counters: Counters;
}

function byLabel(samples: readonly PromSample[], name: string, label: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [key, value] of sumBy(samples, name, [label])) if (value !== 0) out[key] = value;
  return out;
}

async function mariadbConnections(url: string): Promise<number> {
  const conn = await createConnection(url);
  try {
    const [rows] = await conn.query<RowDataPacket[]>("SHOW GLOBAL STATUS LIKE 'Threads_connected'");
    return Number(rows[0]?.['Value'] ?? Number.NaN) - 1;
  } finally {
    await conn.end();
  }
}

export class ReplicaReader {
  constructor(
    private readonly pid: number,
    private readonly httpPort: number,
    private readonly mariadbUrl: string,
  ) {}

  metrics(): Promise<PromSample[]> {
    return scrape(this.httpPort);
  }

  async memory(): Promise<Memory> {
    const m = await this.metrics();
    return { rssMb: processRssMb(this.pid), heapUsedMb: total(m, 'nodejs_heap_size_used_bytes') / 2 ** 20 };
  }

  /** The in-flight gauge alone (cheap to poll while waiting for it to drop). */
  async inFlight(): Promise<number> {
    return total(await this.metrics(), 'database_requests_in_flight');
  }

  async read(): Promise<Reading> {
    const [m, connections] = await Promise.all([this.metrics(), mariadbConnections(this.mariadbUrl)]);
    const pool = sumBy(m, 'database_pool_connections', ['state']);
    const mb = (name: string): number => total(m, name) / 2 ** 20;
    return {
      at: Date.now(),
      gauges: {
        rssMb: processRssMb(this.pid),
        openFds: total(m, 'process_open_fds'),
        activeHandles: total(m, 'nodejs_active_handles_total'),
        inFlight: total(m, 'database_requests_in_flight'),
        heapUsedMb: mb('nodejs_heap_size_used_bytes'),
        heapTotalMb: mb('nodejs_heap_size_total_bytes'),
        externalMb: mb('nodejs_external_memory_bytes'),
        poolConnections: (pool.get('busy') ?? 0) + (pool.get('idle') ?? 0),
        poolBusy: pool.get('busy') ?? 0,
        poolQueued: total(m, 'database_pool_queued'),
        waiters: total(m, 'database_changefeed_waiters'),
        windowChanges: total(m, 'database_changefeed_window_changes'),
        mariadbConnections: connections,
      },
      counters: {
        requests: total(m, 'database_requests_total'),
        errors: byLabel(m, 'database_request_errors_total', 'code'),
        waits: byLabel(m, 'database_changefeed_waits_total', 'outcome'),
        cpuSeconds: processCpuSeconds(this.pid),
      },
    };
  }
}

/** Counter increases from `a` to `b`, key by key (zeros left out). */
export function deltas(a: Record<string, number>, b: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(b)) {
    const d = v - (a[k] ?? 0);
    if (d !== 0) out[k] = d;
  }
  return out;
}

/** One sample of the soak: the replica under load, then in the quiet gap, and what happened meanwhile. */
export interface SoakSample {
  index: number;
  /** Minutes of load so far, at the quiet reading. */
  minute: number;
  /** Read just before the pause, with the load running. */
  load: Gauges;
  /** Read in the quiet gap: every call of ours settled, then --quiet-ms more. */
  quiet: Gauges;
  /** Every memory reading of the interval (every --scrape-s under load, and the two above). */
  memory: MemorySpread;
  /** ms from the pause until every call of ours had settled; calls still pending then. */
  settleMs: number;
  stillPending: number;
  /** When the quiet in-flight gauge was not 0: ms more until it was (undefined: not within 5 s). */
  inFlightDrainMs?: number;
  /** What the clients saw since the previous sample. */
  calls: IntervalLoad;
  /** The tier's counters over the same interval (quiet gap included). */
  tier: { requestsPerS: number; cpuSecondsPerS: number; errors: Record<string, number>; waits: Record<string, number> };
}
