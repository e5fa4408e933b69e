// Does a replica started after the clients connected receive traffic? Clients dial a
// name (resolver.ts: like DNS, re-read only when a channel asks), the replicas recycle
// connections after SFDB_MAX_CONNECTION_AGE_MS; a third replica is started and added to
// the name; the time until its database_requests_total from these clients rises is the
// answer. Bound: the age-out of the oldest connection (age + grpc-js's 10 % jitter),
// then one re-resolution and one connect. The control: with replicas that keep their
// connections (the default age, 5 min), the same new replica gets no call at all.
import { randomUUID } from 'node:crypto';
import { createClient } from '../../client/index.js';
import type { DatabaseClient } from '../../client/index.js';
import { Ledger } from './ledger.js';
import type { FaultProcesses } from './processes.js';
import { resolutions, setPool } from './resolver.js';

export interface NewReplicaResult {
  /** SFDB_MAX_CONNECTION_AGE_MS of the replicas the clients were connected to. */
  ageMs: number;
  graceMs: number;
  /** Added to the name → its first request from the clients (undefined: none within the wait). */
  firstTrafficMs: number | undefined;
  boundMs: number;
  /** Re-resolutions the channels asked for after the replica was added. */
  resolutionsAfterAdd: number;
  /** Requests the new replica served from the clients by the end of the wait. */
  served: number;
  /** Calls of the clients that failed meanwhile. */
  failedCalls: number;
}

/** Caller label of the check's clients (counted apart from the fault load's). */
const CALLER = 'test';

export interface NewReplicaOptions {
  /** The replicas the clients connect to first, and their max connection age. */
  existing: readonly string[];
  ageMs: number;
  graceMs: number;
  /** The replica to start and add to the name. */
  name: string;
  env: Record<string, string>;
  boundMs: number;
  /** How long to watch for its first call (default: three bounds, at least 15 s). */
  waitMs?: number;
  clients: number;
  deadlineMs: number;
  log: (m: string) => void;
}

export async function checkNewReplica(procs: FaultProcesses, opts: NewReplicaOptions): Promise<NewReplicaResult> {
  const pool = `faults-${process.pid}-${opts.name}`;
  const target = setPool(pool, opts.existing.map((n) => procs.replica(n).grpcAddress));
  const clients: DatabaseClient[] = [];
  for (let i = 0; i < opts.clients; i++) {
    clients.push(createClient({ targets: target, callerDaemon: CALLER, callerNode: randomUUID(), deadlineMs: opts.deadlineMs, maxAttempts: 8, retryBaseMs: 25, retryCapMs: 250, cache: false, feed: false }));
  }
  let running = true;
  let ok = 0;
  let failed = 0;
  const loops = clients.map(async (db) => {
    while (running) {
      try {
        await db.getClusterConfig('faults-0');
        ok += 1;
      } catch {
        failed += 1;
      }
      await new Promise((r) => setTimeout(r, 5));
    }
  });
  try {
    // Connected and calling: every existing replica has served these clients.
    await Ledger.until(() => ok >= 50, 30_000, 'the check clients to make calls');
    for (const name of opts.existing) {
      const deadline = Date.now() + 20_000;
      while ((await procs.requestsServed(name, CALLER)) === 0) {
        if (Date.now() > deadline) throw new Error(`replica ${name} served no call of the check clients`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    opts.log(`new replica: clients connected to ${opts.existing.join(', ')} (max connection age ${opts.ageMs} ms); starting ${opts.name}`);
    const added = await procs.startReplica(opts.name, opts.env);
    // Its own health probes and peer pokes are not these clients' calls: only CALLER counts.
    const before = await procs.requestsServed(opts.name, CALLER);
    const resolvedBefore = resolutions(pool);
    setPool(pool, [...opts.existing.map((n) => procs.replica(n).grpcAddress), added.grpcAddress]);
    const addedAt = Date.now();
    const boundMs = opts.boundMs;
    const waitUntil = addedAt + (opts.waitMs ?? Math.max(boundMs * 3, 15_000));
    let firstTrafficMs: number | undefined;
    let served = 0;
    while (Date.now() < waitUntil) {
      served = (await procs.requestsServed(opts.name, CALLER)) - before;
      if (served > 0) {
        firstTrafficMs = Date.now() - addedAt;
        break;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    return { ageMs: opts.ageMs, graceMs: opts.graceMs, firstTrafficMs, boundMs, resolutionsAfterAdd: resolutions(pool) - resolvedBefore, served, failedCalls: failed };
  } finally {
    running = false;
    await Promise.all(loops);
    for (const c of clients) c.close();
  }
}
