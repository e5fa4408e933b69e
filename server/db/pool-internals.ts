// What a mysql2 pool holds, read from its private queues: the one place the tier reaches
// past mysql2's public API.
//
// mysql2 (3.x, lib/base/pool.js) keeps a pool's connections in three queues it does not
// export or type: `_allConnections` (open or opening), `_freeConnections` (idle, ready
// for a statement) and `_connectionQueue` (statements waiting for a connection). The
// pool's public events cannot stand in for them: a connection handed straight from a
// release to a waiting statement emits neither 'release' nor 'acquire', a waiter taken
// off the queue emits nothing, and neither does a connection the pool drops (an error,
// the idle timeout). mysql2 offers no counts (sidorares/node-mysql2#3434, open).
//
// So the read is kept, and made loud: checkPoolInternals() runs when a pool is made
// (createPool) and throws if any queue is gone, so a mysql2 upgrade that moves one stops
// the tier at start instead of the pool gauge reading 0; poolOccupancy() throws the same
// way at a scrape. mysql2 is pinned to one exact version (package.json), and
// test/integration/pool-internals.test.ts holds, borrows and queues connections of a real
// pool and checks each count, so an upgrade that moves or changes a queue fails there.
import type { Pool } from 'mysql2/promise';
import type { PoolOccupancy } from '../metrics.js';

/** The queues read here, by their private names. */
const QUEUES = ['_allConnections', '_freeConnections', '_connectionQueue'] as const;
type Queues = Record<(typeof QUEUES)[number], { length: number }>;

function queues(pool: Pool): Queues {
  const inner = pool.pool as unknown as Partial<Record<(typeof QUEUES)[number], { length?: unknown }>>;
  for (const name of QUEUES) {
    if (typeof inner[name]?.length !== 'number') {
      throw new Error(`mysql2's pool no longer has ${name}: server/db/pool-internals.ts needs updating (the pool gauges read it)`);
    }
  }
  return inner as Queues;
}

/** Throws if the pool lacks a queue poolOccupancy reads. Call when the pool is made. */
export function checkPoolInternals(pool: Pool): void {
  queues(pool);
}

/** Busy and idle connections and waiting statements, read from the pool when scraped. */
export function poolOccupancy(pool: Pool): PoolOccupancy {
  const q = queues(pool);
  const all = q._allConnections.length;
  const idle = q._freeConnections.length;
  return { busy: all - idle, idle, queued: q._connectionQueue.length };
}
