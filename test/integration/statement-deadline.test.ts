// A call's remaining deadline bounds its statements: a write blocked on a row lock is
// stopped when its call's deadline passes, instead of holding a pool connection for the
// lock wait timeout (50 s) after its client has gone. A call whose deadline passed before
// its statement could start (sent with one already spent, or waiting for a pool
// connection past it) is answered DEADLINE_EXCEEDED and counted so: the caller's own
// bound, never an outage (UNAVAILABLE "database unavailable", which a client retries).
import * as grpc from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { DatabaseUnavailable } from '../../client/index.js';
import { metricValue } from '../../harness/scrape.js';
import { startTestTier, useTestTier } from '../helpers/tier.js';
import type { TestTier } from '../helpers/tier.js';
import { frame, h2call } from '../property/http2.js';
import { encode } from '../property/raw.js';

const { t } = useTestTier();

async function blockedStatements(tier: TestTier = t): Promise<number> {
  const [rows] = await tier.direct.query("SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE ID <> CONNECTION_ID() AND INFO LIKE '%cluster_config%'");
  return Number((rows as { n: string }[])[0]?.n);
}

async function until(what: string, cond: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within 15 s`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('statements bounded by the call deadline', () => {
  it('stops a statement blocked past its deadline; the connection is free again, the lock untouched', async () => {
    const db = t.client({ callerDaemon: 'net', cache: false, maxAttempts: 1 });
    await db.setClusterConfig('locked', 'v0');
    const before = metricValue(await t.metrics(), 'database_statements_stopped_total');
    await t.direct.query('BEGIN');
    try {
      await t.direct.query("SELECT * FROM cluster_config WHERE config_key = 'locked' FOR UPDATE");
      const err = await db.setClusterConfig('locked', 'v1', { deadlineMs: 800 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DatabaseUnavailable);
      // The tier stops its statement at the call's deadline: no statement of it waits on.
      await until('the blocked statement is gone', async () => (await blockedStatements()) === 0);
      expect(metricValue(await t.metrics(), 'database_statements_stopped_total') - before).toBeGreaterThanOrEqual(1);
    } finally {
      await t.direct.query('ROLLBACK');
    }
    // Nothing was written by the stopped call, and the tier serves the row normally.
    expect((await db.getClusterConfig('locked'))?.value).toBe('v0');
    await db.setClusterConfig('locked', 'v2');
    expect((await db.getClusterConfig('locked'))?.value).toBe('v2');
  });
});

/** PruneEvents's answers by grpc-status (or error), and the tier's count of them by code. */
async function pruneErrors(tier: TestTier): Promise<{ deadline: number; unavailable: number; cancelled: number }> {
  const text = await tier.metrics();
  const count = (code: string): number => metricValue(text, 'database_request_errors_total', { operation: 'PruneEvents', code });
  return { deadline: count('DEADLINE_EXCEEDED'), unavailable: count('UNAVAILABLE'), cancelled: count('CANCELLED') };
}

/** A PruneEvents request as a gRPC message frame. */
const PRUNE = [frame(encode('PruneEvents', { olderThanMs: 86_400_000, limit: 10 }) as Buffer)];

describe('a passed deadline is not an outage', () => {
  it('a call sent with its deadline already spent (grpc-timeout 1n) is answered DEADLINE_EXCEEDED, counted so', async () => {
    const before = await pruneErrors(t);
    const answers = [];
    // One after the other: each its own connection, the tier's deferred start and the
    // statement's deadline check both met (40 of 40 answered UNAVAILABLE before the fix).
    for (let i = 0; i < 20; i++) {
      answers.push(await h2call(t.tier.grpcPort, { path: '/sfdb.v1.Database/PruneEvents', headers: { 'grpc-timeout': '1n', 'x-sfdb-caller-daemon': 'test' }, body: PRUNE }));
    }
    const statuses = answers.map((a) => a.grpcStatus ?? a.error);
    expect(statuses).toEqual(Array.from({ length: 20 }, () => grpc.status.DEADLINE_EXCEEDED));
    const after = await pruneErrors(t);
    expect(after.unavailable - before.unavailable).toBe(0);
    expect(after.deadline - before.deadline).toBe(20);
  });

  it('a call whose deadline passes while it waits for a pool connection: DEADLINE_EXCEEDED, counted so, never UNAVAILABLE', async () => {
    const one = await startTestTier({ env: { SFDB_POOL_SIZE: '1' } });
    try {
      const db = one.client({ callerDaemon: 'net', cache: false, maxAttempts: 1 });
      await db.setClusterConfig('held', 'v0');
      const before = await pruneErrors(one);
      await one.direct.query('BEGIN');
      let blocked: Promise<unknown> | undefined;
      try {
        await one.direct.query("SELECT * FROM cluster_config WHERE config_key = 'held' FOR UPDATE");
        // The pool's one connection waits on the row lock, for up to 20 s.
        blocked = db.setClusterConfig('held', 'v1', { deadlineMs: 20_000 }).catch((e: unknown) => e);
        await until('the write holds the pool connection', async () => (await blockedStatements(one)) === 1);
        // Over raw HTTP/2, so that no client cancels the call at its deadline (a grpc-js
        // client's RST_STREAM could reach the tier just before the tier's own timer fires).
        const answer = await h2call(one.tier.grpcPort, { path: '/sfdb.v1.Database/PruneEvents', headers: { 'grpc-timeout': '300m', 'x-sfdb-caller-daemon': 'test' }, body: PRUNE });
        expect(answer.grpcStatus, answer.grpcMessage ?? answer.error).toBe(grpc.status.DEADLINE_EXCEEDED);
      } finally {
        await one.direct.query('ROLLBACK');
      }
      // The write gets the lock; the prune then gets the connection, past its deadline.
      expect(await blocked).not.toBeInstanceOf(Error);
      expect((await db.getClusterConfig('held'))?.value).toBe('v1');
      await until('the prune is counted', async () => {
        const now = await pruneErrors(one);
        return now.deadline + now.unavailable + now.cancelled > before.deadline + before.unavailable + before.cancelled;
      });
      const after = await pruneErrors(one);
      expect({ deadline: after.deadline - before.deadline, unavailable: after.unavailable - before.unavailable, cancelled: after.cancelled - before.cancelled }).toEqual({
        deadline: 1,
        unavailable: 0,
        cancelled: 0,
      });
    } finally {
      await one.stop();
    }
  });
});
