// Cancellation through CallOptions.signal, against a stand-in server that holds calls or
// fails them on cue: an aborted call is cancelled on the wire, rejects with an AbortError
// and is never retried. Also the typed change-feed calls' mapping, and a client whose
// tier predates the feed (UNIMPLEMENTED) falling back.
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changesApi } from '../../client/api/changes.js';
import { createClient } from '../../client/index.js';
import type { CallOptions, Transport } from '../../client/transport.js';
import { loadDatabaseProto } from '../../proto/load.js';
import { until } from '../helpers/fake-clock.js';

const calls: Record<string, number> = {};
let cancelled = 0;
let waitMode: 'hold' | 'answer' | 'unimplemented' = 'hold';
const held: grpc.sendUnaryData<unknown>[] = [];
let server: grpc.Server;
let port: number;

function count(name: string): void {
  calls[name] = (calls[name] ?? 0) + 1;
}

beforeAll(async () => {
  server = new grpc.Server();
  server.addService(loadDatabaseProto().proto.sfdb.v1.Database.service, {
    WaitForChanges: (call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) => {
      count('WaitForChanges');
      call.on('cancelled', () => (cancelled += 1));
      if (waitMode === 'hold') held.push(callback);
      else if (waitMode === 'unimplemented') callback({ code: grpc.status.UNIMPLEMENTED, details: 'not here' });
      else
        callback(null, {
          cursor: 'c7',
          resync: false,
          changes: [{ seq: '42', topic: 'static/instance', objectType: 'instance', id: 'u1', kind: 'CHANGE_DELETED' }],
        });
    },
    GetChangesSince: (_call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) => {
      count('GetChangesSince');
      callback(null, { cursor: 'c8', resync: true, more: true, changes: [{ seq: '1', topic: 'cluster-config', objectType: 'cluster_config', id: 'k', kind: 'CHANGE_STATE' }] });
    },
    PruneChanges: (_call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) => {
      count('PruneChanges');
      callback(null, { deleted: '1000', more: true, retiredFolded: '7' });
    },
    GetNode: (_call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) => {
      count('GetNode');
      const metadata = new grpc.Metadata();
      metadata.set('grpc-retry-pushback-ms', '5000');
      callback({ code: grpc.status.UNAVAILABLE, details: 'injected', metadata });
    },
  });
  port = await new Promise((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
});
afterAll(() => {
  for (const callback of held.splice(0)) callback({ code: grpc.status.UNAVAILABLE, details: 'shutting down' });
  server.forceShutdown();
});

function reset(): void {
  for (const k of Object.keys(calls)) delete calls[k];
  cancelled = 0;
}

const client = () => createClient({ targets: `127.0.0.1:${port}`, callerDaemon: 'test', retryBaseMs: 5, retryCapMs: 20, maxAttempts: 4, deadlineMs: 20_000 });
const uuid = '00000000-0000-4000-8000-000000000000';

describe('cancellation', () => {
  it('cancels a call in flight on abort: it rejects with an AbortError and the server sees the cancel', async () => {
    reset();
    waitMode = 'hold';
    const db = client();
    const ac = new AbortController();
    const pending = db.waitForChanges({ topics: ['cluster-config'], cursor: 'c1', timeoutMs: 30_000 }, { signal: ac.signal });
    await until(() => calls['WaitForChanges'] === 1);
    const startedAt = Date.now();
    ac.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(Date.now() - startedAt).toBeLessThan(1000);
    await until(() => cancelled === 1);
    expect(calls['WaitForChanges']).toBe(1); // a read, yet not retried
    db.close();
  });

  it("rejects with the signal's reason when the aborter gave one", async () => {
    reset();
    waitMode = 'hold';
    const db = client();
    const ac = new AbortController();
    const reason = new Error('topics changed');
    const pending = db.call('WaitForChanges', { topics: ['cluster-config'], cursor: 'c1' }, { signal: ac.signal, deadlineMs: 40_000 });
    await until(() => calls['WaitForChanges'] === 1);
    ac.abort(reason);
    await expect(pending).rejects.toBe(reason);
    db.close();
  });

  it('rejects before sending when the signal is already aborted', async () => {
    reset();
    const db = client();
    await expect(db.getNode(uuid, { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
    expect(calls['GetNode']).toBeUndefined();
    db.close();
  });

  it('drops a retry pending when aborted during the backoff', async () => {
    reset();
    const db = client();
    const ac = new AbortController();
    const pending = db.getNode(uuid, { signal: ac.signal }); // UNAVAILABLE, pushback 5 s
    await until(() => calls['GetNode'] === 1);
    const startedAt = Date.now();
    ac.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(Date.now() - startedAt).toBeLessThan(1000);
    expect(calls['GetNode']).toBe(1);
    db.close();
  });
});

describe('change-feed calls', () => {
  it('map the proto answers into plain objects', async () => {
    reset();
    waitMode = 'answer';
    const db = client();
    expect(await db.waitForChanges({ topics: ['static/instance'], cursor: 'c6', timeoutMs: 1000 })).toEqual({
      cursor: 'c7',
      resync: false,
      changes: [{ seq: '42', topic: 'static/instance', objectType: 'instance', id: 'u1', kind: 'deleted' }],
    });
    expect(await db.getChangesSince({ cursor: 'c7', topics: ['cluster-config'] })).toEqual({
      cursor: 'c8',
      resync: true,
      more: true,
      changes: [{ seq: '1', topic: 'cluster-config', objectType: 'cluster_config', id: 'k', kind: 'state' }],
    });
    expect(await db.pruneChanges({ name: 'maintenance/changes', holder: 'h', token: '1' })).toEqual({ deleted: 1000, more: true, retiredFolded: 7 });
    db.close();
  });

  it("give a long-poll a deadline past its timeout (timeout + 10 s) unless the caller sets one", async () => {
    const seen: (CallOptions | undefined)[] = [];
    const fake = { call: async (_m: string, _r: unknown, opts?: CallOptions) => (seen.push(opts), { changes: [], cursor: 'c', resync: false }) };
    const api = changesApi(fake as unknown as Transport);
    const signal = new AbortController().signal;
    await api.waitForChanges({ topics: ['cluster-config'], cursor: 'c', timeoutMs: 5000 }, { signal });
    await api.waitForChanges({ topics: ['cluster-config'], cursor: 'c' });
    await api.waitForChanges({ topics: ['cluster-config'], cursor: 'c', timeoutMs: 5000 }, { deadlineMs: 7000 });
    expect(seen).toEqual([{ signal, deadlineMs: 15_000 }, { deadlineMs: 40_000 }, { deadlineMs: 7000 }]);
  });

  it("a client's waiter falls back when the tier answers UNIMPLEMENTED, and close() cancels everything", async () => {
    reset();
    waitMode = 'unimplemented';
    const db = client();
    const sub = db.changes.subscribe(['cluster-config']);
    expect(await db.changes.ready()).toBe('fallback');
    expect(db.changes.snapshot()).toMatchObject({ mode: 'fallback', errors: 1 });
    expect(sub.pending).toBe(false);
    db.close();
    expect(db.changes.closed).toBe(true);
  });
});
