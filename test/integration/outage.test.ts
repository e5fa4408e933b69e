// MariaDB stopped mid-test: calls fail with DatabaseUnavailable (never "not found"),
// and succeed again once it is back, with no acknowledged write lost. This file runs its
// own mariadbd (durable settings), so killing it disturbs no other test file.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseUnavailable } from '../../client/index.js';
import type { DatabaseClient } from '../../client/index.js';
import { EmbeddedMariaDb } from '../../server/embedded-mariadb.js';
import { startTestTier } from '../helpers/tier.js';
import type { TestTier } from '../helpers/tier.js';

let dir: string;
let mariadb: EmbeddedMariaDb;
let t: TestTier;
let db: DatabaseClient;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sfdb-outage-'));
  mariadb = await EmbeddedMariaDb.start({ dataDir: join(dir, 'data'), database: 'outage' });
  t = await startTestTier({ port: mariadb.port });
  // No static-object cache: the reads below must reach the tier to see it down.
  db = t.client({ deadlineMs: 3000, maxAttempts: 3, retryBaseMs: 20, retryCapMs: 100, cache: false });
});

afterAll(async () => {
  await t?.stop().catch(() => undefined);
  await mariadb?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Calls `fn` until it succeeds; a bounded wait for recovery, not a sleep. */
async function eventually<T>(fn: () => Promise<T>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await fn();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

describe('MariaDB outage', () => {
  it('reports DatabaseUnavailable while MariaDB is down, recovers, and loses no acknowledged write', async () => {
    const acknowledged: string[] = [];
    for (let i = 0; i < 20; i++) {
      const uuid = randomUUID();
      await db.createNode({ uuid, fqdn: `n${i}-${uuid.slice(0, 8)}.example.com` });
      acknowledged.push(uuid);
    }
    const known = acknowledged[0] as string;
    expect(await db.getNode(known)).toBeDefined();

    await mariadb.kill();

    // A read of an existing node, a read of a missing one, and a write: all unavailable.
    await expect(db.getNode(known)).rejects.toBeInstanceOf(DatabaseUnavailable);
    await expect(db.getNode(randomUUID())).rejects.toBeInstanceOf(DatabaseUnavailable);
    await expect(db.setNodeDaemonState(known, 'queues', 'RUNNING')).rejects.toBeInstanceOf(DatabaseUnavailable);
    const ready = await fetch(`http://127.0.0.1:${t.tier.httpPort}/readyz`);
    expect(ready.status).toBe(503);

    await mariadb.restart();

    const back = await eventually(() => db.getNode(known), 30_000);
    expect(back?.uuid).toBe(known);
    for (const uuid of acknowledged) expect(await db.getNode(uuid), uuid).toBeDefined();
    // Writes work again too.
    const state = await eventually(() => db.setNodeDaemonState(known, 'queues', 'RUNNING'), 30_000);
    expect(state.state).toBe('RUNNING');
    expect((await fetch(`http://127.0.0.1:${t.tier.httpPort}/readyz`)).status).toBe(200);
  });
});
