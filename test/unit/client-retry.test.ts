// The client's retry policy, against a stand-in server that fails on cue (an exact
// number of transient failures cannot be made with a real MariaDB).
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseUnavailable, Fenced, createClient } from '../../client/index.js';
import { jitteredDelay, pushbackDelay } from '../../client/retry.js';
import { ERROR_TRAILERS } from '../../proto/errors.js';
import { loadDatabaseProto } from '../../proto/load.js';

const calls: Record<string, number> = {};
const failures: Record<string, { code: grpc.status; times: number; pushbackMs?: string; noEffect?: boolean }> = {};
let server: grpc.Server;
let port: number;

function handler(name: string, answer: unknown): grpc.handleUnaryCall<unknown, unknown> {
  return (call, callback) => {
    calls[name] = (calls[name] ?? 0) + 1;
    const f = failures[name];
    if (f && f.times > 0) {
      f.times -= 1;
      const metadata = new grpc.Metadata();
      if (f.pushbackMs !== undefined) metadata.set(ERROR_TRAILERS.pushbackMs, f.pushbackMs);
      if (f.noEffect) metadata.set(ERROR_TRAILERS.noEffect, '1');
      callback({ code: f.code, details: 'injected', metadata } as grpc.ServiceError);
      return;
    }
    callback(null, answer);
  };
}

beforeAll(async () => {
  server = new grpc.Server();
  server.addService(loadDatabaseProto().proto.sfdb.v1.Database.service, {
    GetNode: handler('GetNode', { found: false }),
    Dequeue: handler('Dequeue', { claims: [] }),
    Resolve: handler('Resolve', {}),
  });
  port = await new Promise((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
});
afterAll(() => {
  server.forceShutdown();
});

function reset(): void {
  for (const k of Object.keys(calls)) delete calls[k];
  for (const k of Object.keys(failures)) delete failures[k];
}

const client = () => createClient({ targets: `127.0.0.1:${port}`, callerDaemon: 'test', retryBaseMs: 5, retryCapMs: 20, maxAttempts: 4 });

describe('client retries', () => {
  it('retries a read on UNAVAILABLE and succeeds', async () => {
    reset();
    failures['GetNode'] = { code: grpc.status.UNAVAILABLE, times: 2 };
    const db = client();
    expect(await db.getNode('00000000-0000-4000-8000-000000000000')).toBeUndefined();
    expect(calls['GetNode']).toBe(3);
    db.close();
  });

  it('gives DatabaseUnavailable, not "not found", once the attempts are spent', async () => {
    reset();
    failures['GetNode'] = { code: grpc.status.UNAVAILABLE, times: 10 };
    const db = client();
    await expect(db.getNode('00000000-0000-4000-8000-000000000000')).rejects.toBeInstanceOf(DatabaseUnavailable);
    expect(calls['GetNode']).toBe(4);
    db.close();
  });

  it("does not retry a read the tier answered DEADLINE_EXCEEDED (its caller's own deadline, not an outage)", async () => {
    reset();
    failures['GetNode'] = { code: grpc.status.DEADLINE_EXCEEDED, times: 1 };
    const db = client();
    const err = await db.getNode('00000000-0000-4000-8000-000000000000').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DatabaseUnavailable);
    expect((err as DatabaseUnavailable).code).toBe(grpc.status.DEADLINE_EXCEEDED);
    expect(calls['GetNode']).toBe(1);
    db.close();
  });

  it('honours grpc-retry-pushback-ms on RESOURCE_EXHAUSTED', async () => {
    reset();
    failures['GetNode'] = { code: grpc.status.RESOURCE_EXHAUSTED, times: 1, pushbackMs: '1' };
    const db = client();
    expect(await db.getNode('00000000-0000-4000-8000-000000000000')).toBeUndefined();
    expect(calls['GetNode']).toBe(2);
    db.close();
  });

  it('waits at least the pushback and at most twice it, spread at random, so refused callers do not return together', () => {
    expect(pushbackDelay(200, () => 0)).toBe(200);
    expect(pushbackDelay(200, () => 0.5)).toBe(300);
    expect(pushbackDelay(200, () => 0.999)).toBe(400);
  });

  it('does not retry a non-idempotent write that reached the server', async () => {
    reset();
    failures['Dequeue'] = { code: grpc.status.UNAVAILABLE, times: 1 };
    const db = client();
    await expect(db.call('Dequeue', { nodeUuid: '00000000-0000-4000-8000-000000000000', queues: ['q'], limit: 1 })).rejects.toBeInstanceOf(
      DatabaseUnavailable,
    );
    expect(calls['Dequeue']).toBe(1);
    db.close();
  });

  it('does not retry a non-idempotent write refused RESOURCE_EXHAUSTED without the no-effect mark', async () => {
    reset();
    failures['Dequeue'] = { code: grpc.status.RESOURCE_EXHAUSTED, times: 1, pushbackMs: '1' };
    const db = client();
    await expect(db.call('Dequeue', { nodeUuid: '00000000-0000-4000-8000-000000000000', queues: ['q'], limit: 1 })).rejects.toBeInstanceOf(
      DatabaseUnavailable,
    );
    expect(calls['Dequeue']).toBe(1);
    db.close();
  });

  it('retries a non-idempotent write whose refusal says it took no effect (RESOURCE_EXHAUSTED or UNAVAILABLE)', async () => {
    reset();
    failures['Dequeue'] = { code: grpc.status.RESOURCE_EXHAUSTED, times: 2, pushbackMs: '1', noEffect: true };
    const db = client();
    expect(await db.call('Dequeue', { nodeUuid: '00000000-0000-4000-8000-000000000000', queues: ['q'], limit: 1 })).toMatchObject({ claims: [] });
    expect(calls['Dequeue']).toBe(3);
    failures['Dequeue'] = { code: grpc.status.UNAVAILABLE, times: 1, noEffect: true };
    expect(await db.call('Dequeue', { nodeUuid: '00000000-0000-4000-8000-000000000000', queues: ['q'], limit: 1 })).toMatchObject({ claims: [] });
    expect(calls['Dequeue']).toBe(5);
    // The attempts are still bounded: marked refusals past them give DatabaseUnavailable.
    failures['Dequeue'] = { code: grpc.status.RESOURCE_EXHAUSTED, times: 10, pushbackMs: '1', noEffect: true };
    await expect(db.call('Dequeue', { nodeUuid: '00000000-0000-4000-8000-000000000000', queues: ['q'], limit: 1 })).rejects.toBeInstanceOf(
      DatabaseUnavailable,
    );
    expect(calls['Dequeue']).toBe(9);
    db.close();
  });

  it('retries an epoch-asserting write, and never retries FAILED_PRECONDITION', async () => {
    reset();
    failures['Resolve'] = { code: grpc.status.UNAVAILABLE, times: 1 };
    const db = client();
    await db.call('Resolve', { id: '00000000-0000-4000-8000-000000000000', epoch: '1', outcome: 'SUCCEEDED' });
    expect(calls['Resolve']).toBe(2);
    failures['Resolve'] = { code: grpc.status.FAILED_PRECONDITION, times: 5 };
    await expect(db.call('Resolve', { id: '00000000-0000-4000-8000-000000000000', epoch: '1', outcome: 'SUCCEEDED' })).rejects.toBeInstanceOf(Fenced);
    expect(calls['Resolve']).toBe(3);
    db.close();
  });

  it('gives DatabaseUnavailable when no tier listens', async () => {
    const db = createClient({ targets: '127.0.0.1:1', deadlineMs: 500, retryBaseMs: 5, retryCapMs: 20 });
    await expect(db.getNode('00000000-0000-4000-8000-000000000000')).rejects.toBeInstanceOf(DatabaseUnavailable);
    db.close();
  });
});

describe('jittered delay', () => {
  it('stays within [base/2, min(cap, base·2^attempt)]', () => {
    expect(jitteredDelay(0, 50, 1000, () => 0)).toBe(25);
    expect(jitteredDelay(0, 50, 1000, () => 1)).toBe(50);
    expect(jitteredDelay(3, 50, 1000, () => 1)).toBe(400);
    expect(jitteredDelay(10, 50, 1000, () => 1)).toBe(1000);
  });
});
