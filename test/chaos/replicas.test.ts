// Several tier replicas on one MariaDB, as real processes: a client (p2c) spreads over
// them through a rolling restart without a failed idempotent call (six replica starts: on
// a loaded 2-core machine each can take many seconds, so every step is bounded on its own
// and fails with what it saw; the test's own timeout stands above them); a replica stalled past
// its liveness window loses its id to a new replica, cannot touch the new row, and exits.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../client/index.js';
import type { DatabaseClient } from '../../client/index.js';
import { recordFigure } from '../helpers/figures.js';
import { metricSum } from '../../harness/scrape.js';
import type { ClusterReplica, ProcessCluster } from '../../harness/cluster.js';
import { spawnTier, testCluster } from '../helpers/process.js';
import mysql from 'mysql2/promise';
import { loadavg } from 'node:os';

/**
 * How long a step of the rolling restart may take to see its calls succeed. A replica's
 * start and drain each take a few seconds on a loaded 2-core machine; the client's own
 * bound per call is its 10 s deadline. A step past this has stalled, and says how.
 */
const PROGRESS_BOUND_MS = 30_000;

/** The replicas, on a database of their own, stopped (and the database dropped) after the file. */
let cluster: ProcessCluster;

beforeAll(async () => {
  cluster = testCluster([], { timeoutMs: 180_000 });
  await cluster.start();
});
afterAll(async () => {
  await cluster?.stop();
});

/** How long each replica took from spawn to ready: on a loaded machine, most of this file's time. */
const startsMs: number[] = [];

/** Replica `name` (its id unless told) started, or restarted with its id on its ports, and timed. */
async function replica(name: string, env: Record<string, string> = {}, how: { id?: string; restart?: boolean } = {}): Promise<ClusterReplica> {
  const t0 = Date.now();
  const p = how.restart ? await cluster.restart(name, { ports: 'same' }) : await cluster.add({ name, id: how.id ?? name, env });
  startsMs.push(Date.now() - t0);
  return p;
}

/** The replica's exit, or a failure with its log when a drain outlasts `ms`. */
async function exitedWithin(p: ClusterReplica, ms = PROGRESS_BOUND_MS): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the replica did not exit within ${ms} ms of SIGTERM; its log:\n${p.stderr().slice(-2000)}`)), ms);
  });
  try {
    return await Promise.race([p.exited, late]);
  } finally {
    clearTimeout(timer);
  }
}

async function requestsServed(p: ClusterReplica): Promise<number> {
  return metricSum(await p.metrics(), 'database_requests_total');
}

/** Idempotent calls in closed loops until stopped; counts successes and failures. */
function load(db: DatabaseClient, node: string, loops: number) {
  const stats = { ok: 0, failed: 0, errors: [] as string[] };
  let running = true;
  const one = async (i: number): Promise<void> => {
    switch (i % 4) {
      case 0:
        await db.getNode(node);
        break;
      case 1:
        await db.setNodeDaemonState(node, 'queues', 'RUNNING', `tick ${i}`);
        break;
      case 2:
        await db.enqueue({ id: randomUUID(), nodeUuid: node, queue: 'rolling', payload: { i } });
        break;
      default:
        await db.getNodeDaemonState(node, 'queues');
    }
  };
  const workers = Array.from({ length: loops }, async (_, w) => {
    for (let i = w; running; i++) {
      try {
        await one(i);
        stats.ok += 1;
      } catch (err) {
        stats.failed += 1;
        if (stats.errors.length < 10) stats.errors.push(`${(err as Error).name}: ${(err as Error).message}`);
      }
    }
  });
  return {
    stats,
    /**
     * Resolves once `n` more calls have succeeded (progress, not time); fails after
     * `boundMs` with what it saw, so a stalled client is told from a slow machine: calls
     * that fail say so, calls that neither succeed nor fail mean the client hangs.
     */
    async progress(n: number, what: string, boundMs = PROGRESS_BOUND_MS): Promise<void> {
      const target = stats.ok + n;
      const from = { ok: stats.ok, failed: stats.failed, at: Date.now() };
      while (stats.ok < target) {
        if (Date.now() - from.at > boundMs) {
          const seen = { succeeded: stats.ok - from.ok, failed: stats.failed - from.failed, errors: stats.errors, loadavg: loadavg().map((x) => x.toFixed(2)) };
          throw new Error(`${what}: ${n} more calls did not succeed within ${boundMs} ms; saw ${JSON.stringify(seen)}`);
        }
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    async stop(): Promise<void> {
      running = false;
      await Promise.all(workers);
    },
  };
}

describe('chaos: replicas', () => {
  it('serves a client through a rolling restart of three replicas with no failed idempotent call', async () => {
    const replicas = [await replica('r1'), await replica('r2'), await replica('r3')];
    const ports = replicas.map((p) => ({ grpc: p.grpcPort, http: p.httpPort }));
    const db = createClient({ targets: ports.map((p) => `127.0.0.1:${p.grpc}`), callerDaemon: 'test', deadlineMs: 10_000, maxAttempts: 8 });
    const node = randomUUID();
    await db.createNode({ uuid: node, fqdn: `rolling-${node.slice(0, 8)}.example.com` });
    const l = load(db, node, 8);
    await l.progress(300, 'before the restart');

    const started = Date.now();
    for (let i = 0; i < replicas.length; i++) {
      const old = replicas[i] as ClusterReplica;
      old.kill('SIGTERM');
      expect(await exitedWithin(old)).toEqual({ code: 0, signal: null });
      await l.progress(100, `r${i + 1} down`); // the others carry the load while it is down
      // The same id on the same ports.
      replicas[i] = await replica(`r${i + 1}`, {}, { restart: true });
      await l.progress(200, `r${i + 1} back`);
    }
    const restartMs = Date.now() - started;
    // Every restarted replica takes calls again: the client reconnects and rebalances
    // onto it (bounded wait while the load runs).
    const rebalanceStarted = Date.now();
    for (const deadline = Date.now() + 20_000; ; ) {
      const served = await Promise.all(replicas.map(requestsServed));
      if (served.every((n) => n > 0)) break;
      if (Date.now() > deadline) throw new Error(`replicas served ${served.join(', ')} calls after the restart`);
      await l.progress(50, 'rebalancing');
    }
    const rebalanceMs = Date.now() - rebalanceStarted;
    await l.stop();
    db.close();

    recordFigure('rolling-restart', { replicas: 3, calls: l.stats.ok, failed: l.stats.failed, restartMs, rebalanceMs, replicaStartsMs: startsMs.join(' ') });
    expect(l.stats.errors).toEqual([]);
    expect(l.stats.failed).toBe(0);
    for (const p of replicas) {
      p.kill('SIGTERM');
      expect((await p.exited).code).toBe(0);
    }
    // Bounded by its steps (PROGRESS_BOUND_MS each, the replicas' own start bounds), not by this.
  }, 300_000);

  it('a replica stalled past its liveness window loses its id to a new one, cannot touch its row, and exits', async () => {
    const fast = { SFDB_REPLICA_HEARTBEAT_MS: '200', SFDB_REPLICA_LIVE_MS: '1000', SFDB_REPLICA_SWEEP_AFTER_MS: '5000' };
    const old = await replica('stalled', fast);
    const direct = await mysql.createConnection(cluster.urlFor(0));
    const ownerOf = async (): Promise<string | undefined> => {
      const [rows] = await direct.query("SELECT owner_token FROM tier_replicas WHERE replica_id = 'stalled'");
      return (rows as { owner_token: string }[])[0]?.owner_token;
    };
    const oldToken = await ownerOf();

    // While it runs, a second replica with its id is refused.
    const refused = spawnTier({ env: { SFDB_DATABASE_URL: cluster.urlFor(0), SFDB_REPLICA_ID: 'stalled', ...fast } });
    expect((await refused.exited).code).toBe(4);
    expect(refused.stderr()).toContain('replica id "stalled" is live');

    old.kill('SIGSTOP');
    // Wait (bounded) until its heartbeat is older than the window, by database time.
    for (const deadline = Date.now() + 20_000; ; ) {
      const [rows] = await direct.query(
        "SELECT TIMESTAMPDIFF(MICROSECOND, heartbeat_at, UTC_TIMESTAMP(6)) AS age FROM tier_replicas WHERE replica_id = 'stalled'",
      );
      if (Number((rows as { age: string }[])[0]?.age) > 1_000_000) break;
      if (Date.now() > deadline) throw new Error('the stalled replica still looks live');
      await new Promise((r) => setTimeout(r, 50));
    }
    const fresh = await replica('stalled-again', fast, { id: 'stalled' });
    const freshToken = await ownerOf();
    expect(freshToken).not.toBe(oldToken);

    const resumedAt = Date.now();
    old.kill('SIGCONT');
    const { code } = await old.exited;
    const exitMs = Date.now() - resumedAt;
    expect(code).toBe(5);
    expect(old.stderr()).toContain('lost the registry row');
    // The new replica's row is untouched, and it keeps heartbeating.
    expect(await ownerOf()).toBe(freshToken);
    const health = (await (await fetch(`http://127.0.0.1:${fresh.httpPort}/healthz`)).json()) as Record<string, unknown>;
    expect(health).toMatchObject({ status: 'serving', registry: 'registered' });
    recordFigure('stalled-replica-exit', { heartbeatMs: 200, liveMs: 1000, exitAfterResumeMs: exitMs });

    await direct.end();
    fresh.kill('SIGTERM');
    expect((await fresh.exited).code).toBe(0);
  });
});
