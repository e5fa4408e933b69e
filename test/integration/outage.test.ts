// MariaDB stopped mid-test: calls fail with DatabaseUnavailable (never "not found"),
// and succeed again once it is back, with no acknowledged write lost. This file runs its
// own mariadbd (durable settings), so killing it disturbs no other test file.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { service as healthService } from 'grpc-health-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseUnavailable } from '../../client/index.js';
import type { DatabaseClient } from '../../client/index.js';
import { EmbeddedMariaDb } from '../../server/embedded/mariadb.js';
import { freeze, thaw } from '../../harness/freeze.js';
import { waitFor } from '../helpers/wait.js';
import type { Look } from '../helpers/wait.js';
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

/** /readyz answers 200; what it answered. */
async function readyz(httpPort: number): Promise<Look> {
  const r = await fetch(`http://127.0.0.1:${httpPort}/readyz`, { signal: AbortSignal.timeout(5_000) });
  return { ok: r.status === 200, seen: `${r.status} ${(await r.text()).trim()}` };
}

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
    await expect(db.getWorkItem(randomUUID())).rejects.toBeInstanceOf(DatabaseUnavailable);
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
    // Ready again: each probe is one SELECT 1 given SFDB_READYZ_TIMEOUT_MS (1 s), which a
    // loaded machine can miss once; wait for it, bounded.
    await waitFor('/readyz answers 200 after the restart', 15_000, () => readyz(t.tier.httpPort));
  });
});

/** The gRPC health status of `service` on a tier ('' = the server as a whole). */
async function healthOf(port: number, service: string): Promise<string> {
  const Health = grpc.makeGenericClientConstructor(healthService, 'Health');
  const client = new Health(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  try {
    return await new Promise<string>((resolve, reject) => {
      (client as unknown as { Check: (req: object, opts: object, cb: (err: Error | null, res?: { status: string }) => void) => void }).Check(
        { service },
        { deadline: Date.now() + 2_000 },
        (err, res) => (err ? reject(err) : resolve(res?.status ?? '')),
      );
    });
  } finally {
    client.close();
  }
}

describe('MariaDB stalled (SIGSTOP): probes answer, health moves clients away', () => {
  it('/readyz and /healthz answer within their bound, health goes NOT_SERVING, and SERVING again after SIGCONT', async () => {
    // Its own replica: a short bound, a short down threshold, a heartbeat to notice by.
    const stalled = await startTestTier({
      port: mariadb.port,
      env: { SFDB_READYZ_TIMEOUT_MS: '300', SFDB_DATABASE_DOWN_AFTER_MS: '1500', SFDB_REPLICA_HEARTBEAT_MS: '500', SFDB_REPLICA_ID: 'stall-replica' },
    });
    const http = `http://127.0.0.1:${stalled.tier.httpPort}`;
    const health = async (service: string, expected: string): Promise<Look> => {
      const seen = await healthOf(stalled.tier.grpcPort, service);
      return { ok: seen === expected, seen };
    };
    try {
      // Ready first: the probe's SELECT 1 has 300 ms here, which a loaded machine can miss once.
      await waitFor('/readyz answers 200 before the stall', 15_000, () => readyz(stalled.tier.httpPort));
      expect(await healthOf(stalled.tier.grpcPort, 'sfdb.v1.Database')).toBe('SERVING');
      const pid = mariadb.pid as number;
      try {
        // Frozen, seen so in /proc: SIGSTOP alone does not stop MariaDB at once, and it
        // answered the probe's SELECT 1 sent right after (test/helpers/freeze.ts).
        await freeze(pid);
        // Before the down threshold: /readyz waits for its bound, then says so.
        const ready = await fetch(`${http}/readyz`, { signal: AbortSignal.timeout(5_000) });
        expect(`${ready.status} ${await ready.text()}`).toMatch(/^503 not ready: database: (no answer within 300 ms|unreachable for)/);
        const summary = await fetch(`${http}/healthz`, { signal: AbortSignal.timeout(5_000) });
        expect(((await summary.json()) as { database: string }).database).toMatch(/no answer within 300 ms|down/);
        // The heartbeat hangs: after the threshold, health is NOT_SERVING for both names.
        await waitFor('health NOT_SERVING while MariaDB is frozen', 10_000, () => health('sfdb.v1.Database', 'NOT_SERVING'));
        expect(await healthOf(stalled.tier.grpcPort, '')).toBe('NOT_SERVING');
        const again = await fetch(`${http}/readyz`, { signal: AbortSignal.timeout(5_000) });
        expect(`${again.status} ${await again.text()}`).toMatch(/^503 not ready: database: unreachable for \d+ ms/);
      } finally {
        thaw(pid);
      }
      await waitFor('health SERVING after SIGCONT', 15_000, () => health('sfdb.v1.Database', 'SERVING'));
      expect(await healthOf(stalled.tier.grpcPort, '')).toBe('SERVING');
      await waitFor('/readyz answers 200 after SIGCONT', 15_000, () => readyz(stalled.tier.httpPort));
    } finally {
      await stalled.stop();
    }
  });
});

