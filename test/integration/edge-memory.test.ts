// A client that reads nothing cannot make the replica hold its answers without bound
// (server/grpc/backlog.ts), with small caps so that a few calls show it:
// - the replica advertises its stream maximum (SETTINGS_MAX_CONCURRENT_STREAMS);
// - a slow reader (HTTP/2 window 0) gets a few answers queued, up to its connection's cap,
//   and every other call refused RESOURCE_EXHAUSTED, counted by reason; so do its later calls;
// - a second slow reader is refused for the replica's cap once both together are over it;
// - a client that reads is served all along, and the backlog gauge is back to 0 once the
//   slow readers leave;
// - calls their client cancels at once (HEADERS, DATA, RST_STREAM in one write, as raw
//   frames: rapid reset) run no handler (before the fix each of them inserted its row).
// The clients are node:http2 connections (harness/raw-grpc.ts), no gRPC library between.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { metricSum, metricValue } from '../../harness/scrape.js';
import { SlowReader, databaseRequest, resetBurst } from '../../harness/raw-grpc.js';
import { useTestTier } from '../helpers/tier.js';

const KB = 1024;
const STREAMS = 64;
const { t, db } = useTestTier({
  env: {
    SFDB_GRPC_MAX_CONCURRENT_STREAMS: String(STREAMS),
    SFDB_GRPC_MAX_CONNECTION_BACKLOG_BYTES: String(1024 * KB),
    SFDB_GRPC_MAX_REPLICA_BACKLOG_BYTES: String(1536 * KB),
    SFDB_RATE_LIMIT_NODE_RPS: '0',
    SFDB_RATE_LIMIT_DAEMON_RPS: '0',
  },
});
const target = (): string => `127.0.0.1:${t.tier.grpcPort}`;
/** 200 instances of ~2 KB: one ListInstances answer of page 200 is ~400 KB. */
const LIST = databaseRequest('ListInstances', { pageSize: 200 });

/** Waits (real time, bounded) until `cond` holds; fails with what it last saw. */
async function until(cond: () => Promise<boolean> | boolean, seen: () => unknown, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms; last seen ${JSON.stringify(seen())}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Every call sent has either ended or is waiting for a window that never opens. */
const settled = (r: SlowReader): boolean => r.open === r.tally.waiting;
const refusals = async (reason: string): Promise<number> => metricSum(await t.metrics(), 'database_grpc_refused_total', { reason });
const backlogGauge = async (): Promise<number> => metricValue(await t.metrics(), 'database_grpc_answer_backlog_bytes');

describe('the answer backlog of clients that do not read', () => {
  const readers: SlowReader[] = [];

  it('advertises the stream maximum, queues a slow reader up to its cap and refuses the rest; a reading client is served', async () => {
    const filler = 'x'.repeat(2000);
    for (let i = 0; i < 200; i += 50) {
      await Promise.all(Array.from({ length: 50 }, (_, j) => db.call('CreateInstance', { uuid: randomUUID(), staticValues: JSON.stringify({ n: i + j, filler }) })));
    }

    const a = new SlowReader(target());
    readers.push(a);
    await a.connected();
    expect(a.tally.maxConcurrentStreams).toBe(STREAMS);

    a.send('ListInstances', LIST, 20);
    await until(() => settled(a) && a.tally.sent === 20, () => a.tally);
    // ~400 KB answers against a 1 MiB cap: at most 3 fill it, one more may pass the look.
    expect(a.tally.waiting).toBeGreaterThanOrEqual(1);
    expect(a.tally.waiting).toBeLessThanOrEqual(4);
    expect(a.tally.statuses['8']).toBe(20 - a.tally.waiting);
    expect(a.tally.resets).toEqual({});
    expect(await refusals('connection_backlog')).toBe(20 - a.tally.waiting);
    expect(await backlogGauge()).toBeGreaterThanOrEqual(1024 * KB);

    // Its later calls are refused before their handlers run; the connection stays.
    a.send('ListInstances', LIST, 5);
    await until(() => settled(a) && a.tally.sent === 25, () => a.tally);
    expect(a.tally.statuses['8']).toBe(25 - a.tally.waiting);
    expect(a.tally.connectionClosed).toBe(false);

    // A client that reads: its calls have no backlog, and are answered.
    const listed = await db.call('ListInstances', { pageSize: 200 });
    expect(listed.objects).toHaveLength(200);
  });

  it('a second slow reader is refused for the replica cap; readers still served; the backlog is freed when they leave', async () => {
    const [a] = readers;
    const b = new SlowReader(target());
    readers.push(b);
    await b.connected();
    b.send('ListInstances', LIST, 10);
    await until(() => settled(b) && b.tally.sent === 10, () => b.tally);
    // a holds over 1 MiB of the replica's 1.5 MiB: b's first answer or two, then refused.
    expect(b.tally.waiting).toBeGreaterThanOrEqual(1);
    expect(b.tally.waiting).toBeLessThanOrEqual(2);
    expect(b.tally.statuses['8']).toBe(10 - b.tally.waiting);
    expect(await refusals('replica_backlog')).toBeGreaterThanOrEqual(1);

    const listed = await db.call('ListInstances', { pageSize: 200 });
    expect(listed.objects).toHaveLength(200);

    for (const r of readers) r.close();
    await until(async () => (await backlogGauge()) === 0, () => a?.tally);
  });
});

describe('stream churn', () => {
  it('calls cancelled in the same write as their request run no handler', async () => {
    // Within the stream maximum (each stream closes at once, but the reset is read with the next).
    const N = STREAMS - 4;
    const marker = `churn-${randomUUID()}`;
    let seen = 0;
    const cancelled = async (): Promise<number> => (seen = metricSum(await t.metrics(), 'database_request_errors_total', { operation: 'CreateInstance', code: 'CANCELLED' }));
    const before = await cancelled();
    const requests = Array.from({ length: N }, (_, i) => databaseRequest('CreateInstance', { uuid: randomUUID(), staticValues: JSON.stringify({ marker, i }) }));
    await resetBurst(target(), 'CreateInstance', requests);
    // Every call reached the tier and was cancelled there (counted as it ended).
    await until(async () => (await cancelled()) - before === N, () => ({ cancelled: seen - before, of: N }));
    // A statement of a reset call would have been issued by now: a read through the same
    // pool goes after it. Allow the odd call whose reset came in a later read than its
    // request (before the fix: all N wrote their row).
    await db.call('ListInstances', { pageSize: 1 });
    expect(await t.count('object_values', 'static_values LIKE ?', [`%${marker}%`])).toBeLessThan(N / 6);
    // The connection's calls are gone; a reading client is served.
    expect((await db.call('ListInstances', { pageSize: 1 })).objects).toHaveLength(1);
  });
});

