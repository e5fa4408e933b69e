// The metrics interceptor counts exactly one request per call, with the operation and
// caller labels; a caller off the configured list is counted under its own name while the
// replica admits new names (SFDB_CALLER_DAEMONS_MAX, 1 here), then as `other`; a call that
// names no daemon as `unknown`.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { InvalidArgument } from '../../client/index.js';
import { metricValue } from '../../harness/scrape.js';
import { startTestTier } from '../helpers/tier.js';
import type { TestTier } from '../helpers/tier.js';

let t: TestTier;

beforeAll(async () => {
  t = await startTestTier({ env: { SFDB_CALLER_DAEMONS_MAX: '1' } });
});
afterAll(async () => {
  await t.stop();
});

const REQUESTS = 'database_requests_total';

describe('request metrics', () => {
  it('counts one request per call with operation and caller_daemon', async () => {
    const queues = t.client({ callerDaemon: 'queues', callerNode: randomUUID() });
    const before = await t.metrics();
    const uuid = randomUUID();
    await queues.getNode(uuid);
    await queues.getNode(uuid);
    await queues.getNode(uuid);
    await queues.getNodeDaemonState(uuid, 'queues');
    const after = await t.metrics();
    const delta = (labels: Record<string, string>): number => metricValue(after, REQUESTS, labels) - metricValue(before, REQUESTS, labels);
    expect(delta({ operation: 'GetNode', caller_daemon: 'queues' })).toBe(3);
    expect(delta({ operation: 'GetNodeDaemonState', caller_daemon: 'queues' })).toBe(1);
    expect(delta({ operation: 'GetNode', caller_daemon: 'unknown' })).toBe(0);
    // Each call's duration is observed once.
    const count = (text: string): number => metricValue(text, 'database_request_duration_seconds_count', { operation: 'GetNode' });
    expect(count(after) - count(before)).toBe(3);
  });

  it('counts a new daemon under its own name, the next new one as other (the cap is 1), none as unknown', async () => {
    const imager = t.client({ callerDaemon: 'imager' });
    const later = t.client({ callerDaemon: 'not-a-daemon-we-know' });
    const anonymous = t.client({ callerDaemon: '' });
    const before = await t.metrics();
    expect(metricValue(before, 'database_caller_daemons_admitted')).toBe(0);
    await imager.listNodes();
    await imager.listNodes();
    await later.listNodes();
    await anonymous.listNodes();
    const after = await t.metrics();
    const delta = (caller: string): number => metricValue(after, REQUESTS, { operation: 'ListNodes', caller_daemon: caller }) - metricValue(before, REQUESTS, { operation: 'ListNodes', caller_daemon: caller });
    expect(delta('imager')).toBe(2);
    expect(delta('other')).toBe(1);
    expect(delta('unknown')).toBe(1);
    expect(after).not.toContain('not-a-daemon-we-know');
    expect(metricValue(after, 'database_caller_daemons_admitted')).toBe(1);
    // The configured names are never displaced by admitted ones.
    await t.client({ callerDaemon: 'cleaner' }).listNodes();
    expect(metricValue(await t.metrics(), REQUESTS, { operation: 'ListNodes', caller_daemon: 'cleaner' })).toBe(1);
  });

  it('counts failed calls once, with the error code', async () => {
    const db = t.client({ callerDaemon: 'net' });
    const before = await t.metrics();
    await expect(db.getNode('bad')).rejects.toBeInstanceOf(InvalidArgument);
    const after = await t.metrics();
    expect(metricValue(after, REQUESTS, { operation: 'GetNode', caller_daemon: 'net' }) - metricValue(before, REQUESTS, { operation: 'GetNode', caller_daemon: 'net' })).toBe(1);
    const errors = (text: string): number => metricValue(text, 'database_request_errors_total', { operation: 'GetNode', code: 'INVALID_ARGUMENT' });
    expect(errors(after) - errors(before)).toBe(1);
  });

  it('refuses a malformed caller-node claim before the handler runs', async () => {
    const db = t.client({ callerDaemon: 'net' });
    // The client refuses to be built with a bad node, so send the header by hand.
    const { Metadata, credentials, Client } = await import('@grpc/grpc-js');
    const { loadDatabaseProto } = await import('../../proto/load.js');
    const def = loadDatabaseProto().proto.sfdb.v1.Database.service.GetNode;
    const raw = new Client(`127.0.0.1:${t.tier.grpcPort}`, credentials.createInsecure());
    const md = new Metadata();
    md.set('x-sfdb-caller-node', 'not-a-uuid');
    md.set('x-sfdb-caller-daemon', 'net');
    const before = await t.metrics();
    const err = await new Promise<{ code?: number; details?: string }>((resolve) => {
      raw.makeUnaryRequest(def.path, def.requestSerialize, def.responseDeserialize, { uuid: randomUUID() }, md, (e) => resolve(e ?? {}));
    });
    raw.close();
    expect(err.code).toBe(3);
    expect(err.details).toContain('x-sfdb-caller-node');
    const after = await t.metrics();
    // Counted once; no database statement ran for it.
    expect(metricValue(after, REQUESTS, { operation: 'GetNode', caller_daemon: 'net' }) - metricValue(before, REQUESTS, { operation: 'GetNode', caller_daemon: 'net' })).toBe(1);
    expect(metricValue(after, 'database_queries_total', { source: 'rpc' })).toBe(metricValue(before, 'database_queries_total', { source: 'rpc' }));
    expect(await db.getNode(randomUUID())).toBeUndefined();
  });

  it('answers bytes that are no request message INVALID_ARGUMENT, counted once, and the in-flight gauge falls back', async () => {
    const { Metadata, credentials, Client } = await import('@grpc/grpc-js');
    const { loadDatabaseProto } = await import('../../proto/load.js');
    const def = loadDatabaseProto().proto.sfdb.v1.Database.service.CreateNode;
    const raw = new Client(`127.0.0.1:${t.tier.grpcPort}`, credentials.createInsecure());
    const md = new Metadata();
    md.set('x-sfdb-caller-daemon', 'net');
    const before = await t.metrics();
    // A varint field cut off, and a tag with wire type 7 (there is none).
    const garbage = [Buffer.from([0x08]), Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01])];
    for (const bytes of garbage) {
      const err = await new Promise<{ code?: number; details?: string }>((resolve) => {
        raw.makeUnaryRequest(def.path, (b: Buffer) => b, def.responseDeserialize, bytes, md, (e) => resolve(e ?? {}));
      });
      expect(err.code).toBe(3);
      expect(err.details).toMatch(/^request: not a valid CreateNode request message/);
    }
    raw.close();
    const after = await t.metrics();
    const delta = (name: string, labels: Record<string, string>): number => metricValue(after, name, labels) - metricValue(before, name, labels);
    expect(delta(REQUESTS, { operation: 'CreateNode', caller_daemon: 'net' })).toBe(2);
    expect(delta('database_request_errors_total', { operation: 'CreateNode', code: 'INVALID_ARGUMENT' })).toBe(2);
    // Back where it was (an earlier test's client, whose static read joined its cache to the
    // feed, holds a long-poll on this tier).
    expect(metricValue(after, 'database_requests_in_flight')).toBe(metricValue(before, 'database_requests_in_flight'));
    expect(metricValue(after, 'database_queries_total', { source: 'rpc' })).toBe(metricValue(before, 'database_queries_total', { source: 'rpc' }));
  });

  it('a call the client cancels leaves the in-flight gauge once, counted CANCELLED, and its handler hears of it', async () => {
    const db = t.client({ callerDaemon: 'net' });
    const topic = `test/cancel/${randomUUID()}`;
    const { cursor } = await db.waitForChanges({ topics: [topic], cursor: '' });
    const cancelled = (text: string): number => metricValue(text, 'database_request_errors_total', { operation: 'WaitForChanges', code: 'CANCELLED' });
    const before = await t.metrics();
    const waiters = (text: string): number => metricValue(text, 'database_changefeed_waiters');
    const abort = new AbortController();
    const poll = db.waitForChanges({ topics: [topic], cursor, timeoutMs: 30_000 }, { signal: abort.signal });
    // The long-poll is held by the tier (its waiter is counted), then the client cancels it.
    await vi.waitFor(async () => expect(waiters(await t.metrics())).toBe(waiters(before) + 1), { timeout: 10_000, interval: 20 });
    abort.abort();
    await expect(poll).rejects.toThrow();
    await vi.waitFor(
      async () => {
        const now = await t.metrics();
        expect(metricValue(now, 'database_requests_in_flight')).toBe(metricValue(before, 'database_requests_in_flight'));
        // The handler's signal fired: its waiter is gone too.
        expect(waiters(now)).toBe(waiters(before));
      },
      { timeout: 10_000, interval: 20 },
    );
    expect(cancelled(await t.metrics()) - cancelled(before)).toBe(1);
  });
});
