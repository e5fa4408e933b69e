// Chaos with real processes: SIGKILL the lease holder of a singleton job, and SIGKILL a
// daemon that holds a claim. Recovery must come within the documented bounds, and the
// dead process's fencing token or epoch must be refused afterwards.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Fenced } from '../../client/index.js';
import type { DatabaseClient } from '../../client/index.js';
import { recordFigure } from '../helpers/figures.js';
import { spawnFixture } from '../helpers/fixture.js';
import type { Fixture } from '../helpers/fixture.js';
import { newNode } from '../helpers/targets.js';
import { startTestTier } from '../helpers/tier.js';
import type { TestTier } from '../helpers/tier.js';

let t: TestTier;
let db: DatabaseClient;
const fixtures: Fixture[] = [];

beforeAll(async () => {
  t = await startTestTier();
  db = t.client();
});
afterAll(async () => {
  for (const f of fixtures) f.proc.kill('SIGKILL');
  await t.stop();
});

function worker(name: string, holder: string, ttlMs: number, sweepMs: number): Fixture {
  const f = spawnFixture('lease-worker.ts', {
    SFDB_TARGETS: `127.0.0.1:${t.tier.grpcPort}`,
    LEASE_NAME: name,
    HOLDER: holder,
    TTL_MS: String(ttlMs),
    SWEEP_MS: String(sweepMs),
  });
  fixtures.push(f);
  return f;
}

describe('chaos: SIGKILL', () => {
  it('the lease holder: another holder runs the job within lease + one renew period; the dead token is refused', async () => {
    const ttlMs = 2000;
    const renewMs = Math.floor(ttlMs / 3);
    const sweepMs = 200;
    const a = worker('chaos/sweep', 'worker-a', ttlMs, sweepMs);
    const first = await a.next((e) => e.event === 'swept');
    const b = worker('chaos/sweep', 'worker-b', ttlMs, sweepMs);
    await b.next((e) => e.event === 'started');
    // b stands by while a holds.
    expect(b.events.some((e) => e.event === 'acquired')).toBe(false);

    a.proc.kill('SIGKILL');
    const killedAt = Date.now();
    const taken = await b.next((e) => e.event === 'swept', 20_000);
    const takeoverMs = taken.at - killedAt;
    recordFigure('lease-takeover', { ttlMs, renewMs, sweepMs, takeoverMs, boundMs: ttlMs + renewMs });
    expect(BigInt(taken['token'] as string)).toBeGreaterThan(BigInt(first['token'] as string));
    // Lease + one renew period, plus the job's own tick and process scheduling slack.
    expect(takeoverMs).toBeLessThanOrEqual(ttlMs + renewMs + sweepMs + 1000);

    // The dead holder's token is refused.
    await expect(db.requeueExpiredClaims({ name: 'chaos/sweep', holder: 'worker-a', token: first['token'] as string })).rejects.toBeInstanceOf(
      Fenced,
    );
    b.proc.kill('SIGTERM');
    await b.exited;
  });

  it('a daemon holding a claim: the item is requeued within claim lease + sweep interval; its late Resolve is fenced', async () => {
    const leaseMs = 1000;
    const sweepMs = 500;
    const node = await newNode(db);
    const id = randomUUID();
    await db.enqueue({ id, nodeUuid: node, queue: 'jobs', payload: { chaos: true } });
    worker('chaos/recovery', 'sweeper', 3000, sweepMs);

    const holder = spawnFixture('claim-holder.ts', { SFDB_TARGETS: `127.0.0.1:${t.tier.grpcPort}`, NODE_UUID: node, QUEUE: 'jobs', LEASE_MS: String(leaseMs) });
    fixtures.push(holder);
    const claim = await holder.next((e) => e.event === 'claimed');
    expect(claim['id']).toBe(id);
    holder.proc.kill('SIGKILL');
    await holder.exited;

    // Watch the row (a bounded poll of the database, not a sleep).
    const deadline = Date.now() + 20_000;
    let requeuedAt = 0;
    while (Date.now() < deadline) {
      const [rows] = await t.direct.query('SELECT state, epoch FROM work_items WHERE id = ?', [id]);
      const row = (rows as { state: string; epoch: string }[])[0];
      if (row?.state === 'QUEUED' && row.epoch !== claim['epoch']) {
        requeuedAt = Date.now();
        break;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(requeuedAt).toBeGreaterThan(0);
    const requeueMs = requeuedAt - claim.at;
    recordFigure('claim-requeue', { leaseMs, sweepMs, requeueMs, boundMs: leaseMs + sweepMs });
    expect(requeueMs).toBeLessThanOrEqual(leaseMs + sweepMs + 1000);

    await expect(db.resolve(id, claim['epoch'] as string, 'SUCCEEDED')).rejects.toBeInstanceOf(Fenced);
    const [rows] = await t.direct.query('SELECT state FROM work_items WHERE id = ?', [id]);
    expect(rows).toEqual([{ state: 'QUEUED' }]);
  });
});
