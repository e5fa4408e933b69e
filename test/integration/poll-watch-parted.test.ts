// A client's long-poll and its replica watch placed on one replica — the only one READY
// when they were placed, the other restarting — would go silent together if that replica
// froze, and nothing would tell the poll to move. When the other replica becomes READY,
// the balancer parts them: the long-poll moves off the watch's replica (client/p2c.ts).
// Two real replicas on one MariaDB; the second starts after the client has placed both.
import { randomUUID } from 'node:crypto';
import { afterAll, expect, it } from 'vitest';
import { clientRegistry, createClient } from '../../client/index.js';
import type { DatabaseClient } from '../../client/index.js';
import { topics } from '../../proto/topics.js';
import { freePort } from '../../server/embedded/mariadb.js';
import { metricSum, metricValue } from '../../harness/scrape.js';
import { spawnTier } from '../helpers/process.js';
import type { TierProcess } from '../helpers/process.js';
import { createTestDatabase, dropTestDatabase, mariadbUrl } from '../helpers/tier.js';

const replicas: TierProcess[] = [];
let client: DatabaseClient | undefined;
let database: string | undefined;

afterAll(async () => {
  client?.close();
  for (const p of replicas) p.kill('SIGKILL');
  if (database) await dropTestDatabase(database);
});

/** This process's calls in flight on `port`, of `kind`, as its balancer counts them. */
async function inFlight(port: number, kind: string): Promise<number> {
  return metricValue(await clientRegistry.metrics(), 'database_client_p2c_in_flight', { endpoint: `127.0.0.1:${port}`, kind }) ?? 0;
}

/** Waits until `check` holds, at most `ms`; fails with what it last saw. */
async function until(what: string, ms: number, check: () => Promise<{ ok: boolean; seen: unknown }>): Promise<void> {
  let seen: unknown;
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) {
    const r = await check();
    if (r.ok) return;
    seen = r.seen;
  }
  throw new Error(`${what}: not within ${ms} ms; last seen ${JSON.stringify(seen)}`);
}

it('a long-poll placed beside the watch moves off it once another replica is READY', async () => {
  database = await createTestDatabase();
  const [portA, portB] = [await freePort(), await freePort()];
  const env = (port: number): Record<string, string> => ({ SFDB_DATABASE_URL: mariadbUrl(database as string), SFDB_LOG_LEVEL: 'warn', SFDB_GRPC_PORT: String(port), SFDB_ADVERTISE_ADDRESS: `127.0.0.1:${port}` });
  const a = spawnTier({ env: env(portA) });
  replicas.push(a);
  await a.ready();
  // B does not run yet: its connection fails, and everything goes to A.
  client = createClient({ targets: [`127.0.0.1:${portA}`, `127.0.0.1:${portB}`], callerDaemon: 'queues', callerNode: randomUUID(), cache: false, feed: true });
  client.changes.subscribe([topics.queue(randomUUID(), 'work')]);
  const snapshot = async () => ({ pollA: await inFlight(portA, 'long_poll'), watchA: await inFlight(portA, 'watch'), pollB: await inFlight(portB, 'long_poll'), watchB: await inFlight(portB, 'watch') });
  await until('the poll and the watch both on A', 20_000, async () => {
    const s = await snapshot();
    return { ok: s.pollA === 1 && s.watchA === 1, seen: s };
  });
  const moves = (): Promise<number> => clientRegistry.metrics().then((text) => metricSum(text, 'database_client_feed_moves_total', { reason: 'beside_watch' }));
  const movesBefore = await moves();

  const b = spawnTier({ env: env(portB) });
  replicas.push(b);
  await b.ready();
  // The client reconnects within its backoff (at most 2 s), then parts them. A poll is
  // re-issued by itself only when it answers (30 s): a move within 10 s is the balancer's.
  await until('the poll moved to B, the watch kept on A', 10_000, async () => {
    const s = await snapshot();
    return { ok: s.pollB === 1 && s.watchA === 1 && s.pollA === 0, seen: s };
  });
  expect((await moves()) - movesBefore).toBeGreaterThanOrEqual(1);
}, 90_000);
