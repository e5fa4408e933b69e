// The network between the tier and MariaDB cut (harness/tcp-proxy.ts blackholes
// it, sockets open, nothing crossing): a statement past its call's deadline that MariaDB
// cannot be told to stop has its connection reset — the pool slot comes back, and the
// statement does not run when the network heals, long after its caller was answered —
// and the pool's idle connections, handed over to calls, do not count as MariaDB
// answering, so the replica judges it unreachable SFDB_DATABASE_DOWN_AFTER_MS into the
// partition however many calls come (server/db/watchdog.ts, server/db/reachability.ts).
import { randomUUID } from 'node:crypto';
import mysql from 'mysql2/promise';
import type { Connection } from 'mysql2/promise';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { DatabaseUnavailable } from '../../client/index.js';
import type { DatabaseClient } from '../../client/index.js';
import { poolOccupancy } from '../../server/db/pool-internals.js';
import { STOP_GRACE_MS } from '../../server/db/watchdog.js';
import { TcpProxy } from '../../harness/tcp-proxy.js';
import { newNode } from '../helpers/targets.js';
import { startTestTier } from '../helpers/tier.js';
import type { TestTier } from '../helpers/tier.js';

const DOWN_AFTER_MS = 1500;
/** Scheduling slack of a loaded 2-core machine on top of a bound the tier keeps. */
const SLACK_MS = 2500;

let proxy: TcpProxy;
let t: TestTier;
let db: DatabaseClient;
/** MariaDB itself, not through the proxy: what it holds, whatever the network does. */
let direct: Connection;

beforeAll(async () => {
  proxy = new TcpProxy({ host: '127.0.0.1', port: inject('mariadbPort') });
  await proxy.start();
  t = await startTestTier({ port: proxy.port, env: { SFDB_DATABASE_DOWN_AFTER_MS: String(DOWN_AFTER_MS) } });
  db = t.client({ cache: false, maxAttempts: 1, deadlineMs: 1000 });
  direct = await mysql.createConnection({ host: '127.0.0.1', port: inject('mariadbPort'), user: 'root', database: t.database, dateStrings: true });
});

afterEach(() => proxy.blackhole(false));

afterAll(async () => {
  proxy?.blackhole(false);
  await direct?.end();
  await t?.stop();
  await proxy?.stop();
});

async function until(what: string, cond: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const readyz = async (): Promise<{ status: number; body: string }> => {
  const res = await fetch(`http://127.0.0.1:${t.tier.httpPort}/readyz`, { signal: AbortSignal.timeout(5_000) });
  return { status: res.status, body: await res.text() };
};

describe('MariaDB cut off by the network', () => {
  it('a write past its deadline that cannot be stopped has its connection reset, and does not run when the network heals', async () => {
    const nodeUuid = await newNode(db);
    const busy = (): number => poolOccupancy(t.tier.db.pool).busy;
    await until('the pool idle', () => busy() === 0);
    proxy.blackhole(true);
    const id = randomUUID();
    const sent = Date.now();
    const err = await db.enqueue({ id, nodeUuid, queue: 'partition' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DatabaseUnavailable);
    expect(Date.now() - sent).toBeLessThan(1000 + SLACK_MS);
    // Its KILL cannot reach MariaDB; STOP_GRACE_MS after the deadline the tier gives the
    // connection up: the pool holds no busy connection, the network still cut.
    await until('the stuck connection given back', () => busy() === 0, 1000 + STOP_GRACE_MS + 10_000);
    expect(await t.metrics()).toMatch(/^database_statements_abandoned_total [1-9]/m);
    proxy.blackhole(false);
    // The pool works again without a restart, and the write held in the partition was
    // thrown away with its connection: it never reached MariaDB.
    await until('a write through the tier', () => db.enqueue({ id: randomUUID(), nodeUuid, queue: 'partition' }).then(() => true, () => false));
    const [rows] = await direct.query('SELECT COUNT(*) AS n FROM work_items WHERE id = ?', [id]);
    expect(Number((rows as { n: number }[])[0]?.n)).toBe(0);
    // Timing: a bounded wait, as the probe's SELECT 1 has 1 s, which a loaded machine can miss once.
    await until('readyz 200 after the network healed', async () => (await readyz()).status === 200);
  });

  it('is judged unreachable within SFDB_DATABASE_DOWN_AFTER_MS, while calls keep taking the idle pooled connections', async () => {
    const nodeUuid = await newNode(db);
    // Open the pool's connections: reads of different rows, each its own statement.
    await Promise.all(Array.from({ length: 16 }, () => db.getNode(randomUUID())));
    const idle = poolOccupancy(t.tier.db.pool).idle;
    expect(idle).toBeGreaterThan(4);
    proxy.blackhole(true);
    const cutAt = Date.now();
    // A write every 250 ms: each takes an idle connection for its transaction.
    let writing = true;
    const writes = (async () => {
      while (writing) {
        void db.enqueue({ id: randomUUID(), nodeUuid, queue: 'partition' }).catch(() => undefined);
        await new Promise((r) => setTimeout(r, 250));
      }
    })();
    try {
      // When the replica judged it, from its own words: "unreachable for N ms" means the
      // judgement (at N = DOWN_AFTER_MS) came N - DOWN_AFTER_MS before it answered. Timing:
      // the answer's arrival alone is up to a probe late, and a probe before the judgement
      // waits its 1 s for MariaDB: that second is not the replica's.
      let judgedMs: number | undefined;
      await until(
        'readyz: database unreachable',
        async () => {
          const r = await readyz();
          const unreachable = /unreachable for (\d+) ms/.exec(r.body);
          if (unreachable) judgedMs = Date.now() - cutAt - (Number(unreachable[1]) - DOWN_AFTER_MS);
          return judgedMs !== undefined;
        },
        30_000,
      );
      expect(judgedMs).toBeLessThanOrEqual(DOWN_AFTER_MS + SLACK_MS);
    } finally {
      writing = false;
      await writes;
    }
    proxy.blackhole(false);
    await until('readyz 200 after the network healed', async () => (await readyz()).status === 200);
  });
});
