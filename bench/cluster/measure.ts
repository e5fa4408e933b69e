// What the benchmark reads at the edges of a window: every replica's /metrics, MariaDB's
// SHOW GLOBAL STATUS counters and mariadbd's CPU; and what its own reads and injections
// cost MariaDB, measured once so it can be taken off the window's figures.
import { randomUUID } from 'node:crypto';
import mysql from 'mysql2/promise';
import type { Connection, RowDataPacket } from 'mysql2/promise';
import type { DatabaseClient } from '../../client/index.js';
import type { Injection } from './duties.js';
import { Injector } from './inject.js';
import type { PlannedInjection } from './inject.js';
import { processCpuSeconds } from '../../harness/children.js';
import { total } from '../../ops/prom.js';
import { scrape as scrapeReplica } from '../../harness/scrape.js';
import type { PromSample } from '../../ops/prom.js';
import type { NoticeDuty, SimConfig } from './protocol.js';

// Com_stmt_prepare / Com_stmt_execute: whether statements stay prepared (issue 39: the
// sqlcommenter comment must not make every execution a new PREPARE).
export const STATUS_COUNTERS = ['Questions', 'Com_select', 'Com_insert', 'Com_update', 'Com_delete', 'Com_stmt_prepare', 'Com_stmt_execute'] as const;
export type StatusCounter = (typeof STATUS_COUNTERS)[number];
export type StatusCounts = Record<StatusCounter, number>;

export function zeroCounts(): StatusCounts {
  return { Questions: 0, Com_select: 0, Com_insert: 0, Com_update: 0, Com_delete: 0, Com_stmt_prepare: 0, Com_stmt_execute: 0 };
}

export function mapCounts(f: (c: StatusCounter) => number): StatusCounts {
  const out = zeroCounts();
  for (const c of STATUS_COUNTERS) out[c] = f(c);
  return out;
}

/** SHOW GLOBAL STATUS on one connection of its own, held for the whole run. */
/** MariaDB's statement counters, summed over every server of the backend (one, or each Galera node). */
export class StatusReader {
  private constructor(private readonly conns: Connection[]) {}

  static async open(urls: string | readonly string[]): Promise<StatusReader> {
    const list = typeof urls === 'string' ? [urls] : urls;
    return new StatusReader(await Promise.all(list.map((uri) => mysql.createConnection({ uri }))));
  }

  async read(): Promise<StatusCounts> {
    const names = STATUS_COUNTERS.map((c) => `'${c}'`).join(',');
    const out = zeroCounts();
    for (const conn of this.conns) {
      const [rows] = await conn.query<RowDataPacket[]>(`SHOW GLOBAL STATUS WHERE Variable_name IN (${names})`);
      for (const row of rows) {
        const name = String(row['Variable_name']) as StatusCounter;
        if (name in out) out[name] += Number(row['Value']);
      }
    }
    return out;
  }

  async close(): Promise<void> {
    await Promise.all(this.conns.map((c) => c.end()));
  }
}

/** The replicas a scrape reads: their /metrics ports. */
export interface ScrapeTarget {
  id: string;
  httpPort: number;
}

export interface Scrape {
  at: number;
  /** Every replica's /metrics, in the order of the targets. */
  replicas: PromSample[][];
  status: StatusCounts;
  /** mariadbd's CPU seconds so far (NaN when it is not our child). */
  mariadbCpuS: number;
}

/** One scrape of everything, the reads started together. */
export async function scrape(targets: readonly ScrapeTarget[], status: StatusReader, mariadbPids: readonly (number | undefined)[]): Promise<Scrape> {
  const at = Date.now();
  const [replicas, counts] = await Promise.all([Promise.all(targets.map((t) => scrapeReplica(t.httpPort))), status.read()]);
  return { at, replicas, status: counts, mariadbCpuS: mariadbPids.reduce((sum: number, pid) => sum + processCpuSeconds(pid), 0) };
}

/** What one SHOW GLOBAL STATUS adds to the counters: the least over back-to-back reads. */
export async function calibrateShow(status: StatusReader, reads = 5): Promise<StatusCounts> {
  const values: StatusCounts[] = [await status.read()];
  for (let i = 0; i < reads; i++) values.push(await status.read());
  return mapCounts((c) => Math.min(...values.slice(1).map((v, i) => v[c] - (values[i] as StatusCounts)[c])));
}

/** The statements the tier ran outside RPCs (registry, maintenance, ...), summed over replicas. */
function backgroundStatements(samples: readonly PromSample[][]): number {
  let sum = 0;
  for (const s of samples) for (const x of s) if (x.name === 'database_queries_total' && x.labels['source'] !== 'rpc') sum += x.value;
  return sum;
}

function rpcStatements(samples: readonly PromSample[][]): number {
  let sum = 0;
  for (const s of samples) for (const x of s) if (x.name === 'database_queries_total' && x.labels['source'] === 'rpc') sum += x.value;
  return sum;
}

export interface InjectionCost {
  /** MariaDB counters one injection of the kind moves. */
  counts: StatusCounts;
  /** The statements the tier counted for it (database_queries_total{source="rpc"}), a cross-check of Questions. */
  tierStatements: number;
  /** false: no repetition ran without other tier work beside it; the least seen is used. */
  clean: boolean;
}

export type InjectionCosts = Partial<Record<NoticeDuty, InjectionCost>>;

/**
 * What each kind of injection costs MariaDB, measured before any simulator runs (the
 * bench client is the only caller): each kind is sent a few times between two scrapes,
 * on targets no daemon will act on (a daemon name and a queue nobody uses, a transfer
 * failed at once, an instance state changed and put back); a repetition counts when the
 * tier did no other work in it, and the least of those is kept.
 */
export async function calibrateInjections(
  db: DatabaseClient,
  targets: readonly ScrapeTarget[],
  status: StatusReader,
  showCost: StatusCounts,
  cluster: Pick<SimConfig, 'nodes' | 'instances'>,
  reps = 3,
): Promise<InjectionCosts> {
  const node = cluster.nodes[0]?.uuid;
  if (node === undefined) return {};
  const injector = new Injector(db);
  /** Each kind: the measured call, and what puts things right after (not measured). */
  const kinds: { duty: NoticeDuty; run: () => Promise<void>; after?: () => Promise<void> }[] = [];
  kinds.push({ duty: 'operator-stop', run: async () => void (await db.setNodeDaemonState(node, 'bench-calibration', 'STOPPING', 'bench: calibration')) });
  kinds.push({
    duty: 'work-item',
    run: async () => void (await db.enqueue({ id: randomUUID(), nodeUuid: node, queue: 'bench-calibration', payload: { bench: true } })),
  });
  let transferId = '';
  // A transfer names a blob that exists.
  const blob = randomUUID();
  await db.createBlob({ uuid: blob, staticValues: { name: 'bench-calibration' } });
  kinds.push({
    duty: 'transfer',
    run: async () => {
      transferId = randomUUID();
      await db.createBlobTransfer({ id: transferId, blobUuid: blob, nodeUuid: node, bytesTotal: 1024 });
    },
    // Failed at once, so no transfers daemon ever starts it.
    after: async () => void (await db.updateBlobTransfer(transferId, { state: 'TRANSFER_FAILED', message: 'bench: calibration' })),
  });
  const instance = cluster.instances[0];
  if (instance) {
    const plan: PlannedInjection = { duty: 'instance-state', node: instance.nodeUuid, daemon: 'sidechannel', instance: instance.uuid };
    await injector.prepare([plan]);
    kinds.push({
      duty: 'instance-state',
      run: async () => {
        const r = await injector.inject(plan);
        if (r.error !== undefined) throw new Error(r.error);
      },
    });
  }

  const costs: InjectionCosts = {};
  for (const { duty, run, after: putRight } of kinds) {
    const clean: StatusCounts[] = [];
    const all: StatusCounts[] = [];
    let tierStatements = Infinity;
    for (let attempt = 0; attempt < reps * 3 && clean.length < reps; attempt++) {
      const before = await scrape(targets, status, []);
      await run();
      const after = await scrape(targets, status, []);
      await putRight?.();
      const counts = mapCounts((c) => after.status[c] - before.status[c] - showCost[c]);
      all.push(counts);
      tierStatements = Math.min(tierStatements, rpcStatements(after.replicas) - rpcStatements(before.replicas));
      if (backgroundStatements(after.replicas) === backgroundStatements(before.replicas)) clean.push(counts);
    }
    const pool = clean.length > 0 ? clean : all;
    costs[duty] = { counts: mapCounts((c) => Math.max(0, Math.min(...pool.map((p) => p[c])))), tierStatements, clean: clean.length > 0 };
  }
  await injector.restore();
  return costs;
}

/** The benchmark's own statements in a window: one SHOW per scrape after the first, and the injections. */
export function ownStatements(showCost: StatusCounts, showsInWindow: number, costs: InjectionCosts, injections: readonly Pick<Injection, 'duty'>[]): StatusCounts {
  return mapCounts((c) => showCost[c] * showsInWindow + injections.reduce((sum, inj) => sum + (costs[inj.duty]?.counts[c] ?? 0), 0));
}

/** Sum over replicas of a metric's increase from `a` to `b`. */
export function replicaIncrease(a: Scrape, b: Scrape, metric: string): number[] {
  return a.replicas.map((samples, i) => {
    const before = total(samples, metric);
    const after = total(b.replicas[i] ?? [], metric);
    return after >= before ? after - before : after;
  });
}
