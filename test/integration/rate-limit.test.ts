// Per-caller rate limits against the real server: over the limit a call is refused before
// its handler (RESOURCE_EXHAUSTED with grpc-retry-pushback-ms), the client waits out the
// pushback and succeeds, other nodes are not affected, and refusals are counted.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DatabaseUnavailable, NotFound } from '../../client/index.js';
import { metricValue } from '../../harness/scrape.js';
import { useTestTier } from '../helpers/tier.js';

const { t } = useTestTier({
  env: { SFDB_RATE_LIMIT_DAEMON_RPS: '5', SFDB_RATE_LIMIT_DAEMON_BURST: '3', SFDB_RATE_LIMIT_NODE_RPS: '1000', SFDB_RATE_LIMIT_NODE_BURST: '1000' },
});

describe('per-caller rate limits', () => {
  it('refuses a daemon over its burst with a pushback; the client honours it and gets through', async () => {
    const node = randomUUID();
    const once = t.client({ callerDaemon: 'net', callerNode: node, maxAttempts: 1, cache: false });
    const before = await t.metrics();
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => once.getNode(node)));
    const refused = results.filter((r) => r.status === 'rejected');
    expect(results.filter((r) => r.status === 'fulfilled').length).toBeGreaterThanOrEqual(3);
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) {
      const err = (r as PromiseRejectedResult).reason as DatabaseUnavailable;
      expect(err).toBeInstanceOf(DatabaseUnavailable);
      expect(err.code).toBe(8); // RESOURCE_EXHAUSTED
      expect(err.message).toMatch(/rate limit: this daemon of its node/);
    }
    const after = await t.metrics();
    expect(metricValue(after, 'database_rate_limited_total', { limit: 'daemon', caller_daemon: 'net' }) - metricValue(before, 'database_rate_limited_total', { limit: 'daemon', caller_daemon: 'net' })).toBe(refused.length);
    // Each refusal is one RESOURCE_EXHAUSTED answer of GetNode, and nothing else.
    expect(metricValue(after, 'database_request_errors_total', { operation: 'GetNode', code: 'RESOURCE_EXHAUSTED' }) - metricValue(before, 'database_request_errors_total', { operation: 'GetNode', code: 'RESOURCE_EXHAUSTED' })).toBe(refused.length);

    // A daemon's loop over its rate: with retries every call gets through, each refused
    // attempt waiting its pushback (refusals counted, none surfaced).
    const patient = t.client({ callerDaemon: 'net', callerNode: node, cache: false });
    const mid = await t.metrics();
    for (let i = 0; i < 12; i++) expect(await patient.getNode(node)).toBeUndefined();
    const end = await t.metrics();
    expect(metricValue(end, 'database_rate_limited_total', { limit: 'daemon', caller_daemon: 'net' })).toBeGreaterThan(
      metricValue(mid, 'database_rate_limited_total', { limit: 'daemon', caller_daemon: 'net' }),
    );
  });

  it('retries even a call that must not run twice (Dequeue): the refusal ran nothing, and says so', async () => {
    const node = randomUUID();
    const patient = t.client({ callerDaemon: 'net', callerNode: node, cache: false, maxAttempts: 20, deadlineMs: 30_000 });
    const refused = (text: string): number => metricValue(text, 'database_request_errors_total', { operation: 'Dequeue', code: 'RESOURCE_EXHAUSTED' });
    const before = await t.metrics();
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => patient.call('Dequeue', { nodeUuid: node, queues: ['jobs'], limit: 1 })));
    // Every call reached its handler in the end (no such node), none surfaced the refusal.
    for (const r of results) expect((r as PromiseRejectedResult).reason).toBeInstanceOf(NotFound);
    expect(refused(await t.metrics()) - refused(before)).toBeGreaterThan(0);
  });

  it('limits one node without touching another', async () => {
    const busy = t.client({ callerDaemon: 'queues', callerNode: randomUUID(), maxAttempts: 1, cache: false });
    const quiet = t.client({ callerDaemon: 'queues', callerNode: randomUUID(), maxAttempts: 1, cache: false });
    // 30 at once against a burst of 3 at 5/s: refused unless they spread over 5 s, however
    // loaded the machine (one more call after the burst would pass once 200 ms had gone by).
    const burst = await Promise.allSettled(Array.from({ length: 30 }, () => busy.getClusterConfig('k')));
    expect(burst.filter((r) => r.status === 'rejected' && r.reason instanceof DatabaseUnavailable).length).toBeGreaterThan(0);
    await expect(quiet.getClusterConfig('k')).resolves.toBeUndefined();
  });
});
