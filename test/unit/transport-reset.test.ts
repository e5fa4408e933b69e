// A connection that fails under a call — the stream reset with HTTP/2 INTERNAL_ERROR, or
// the whole session closed by a GOAWAY with INTERNAL_ERROR (what the tier's nghttp2 does
// to a connection over its stream-reset rate) — reaches the client as UNAVAILABLE, not as
// grpc-js's INTERNAL: retried where UNAVAILABLE is (reads, idempotent writes), and
// otherwise DatabaseUnavailable. A server's own INTERNAL answer stays INTERNAL. The stand-in
// server is plain node:http2, so each failure is made on cue on a real connection. Also:
// each client instance holds its own connection (grpc-js would share one per process).
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseError, DatabaseUnavailable, createClient } from '../../client/index.js';
import { transportStatus } from '../../client/errors.js';

type Fault = 'reset' | 'goaway' | 'internal-answer';

/** Faults to make, in order, per gRPC path; an empty list answers an empty message (OK). */
const faults = new Map<string, Fault[]>();
const seen = new Map<string, number>();
let sessions = 0;
let server: http2.Http2Server;
let port: number;

function answerOk(stream: http2.ServerHttp2Stream): void {
  stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
  stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0', 'grpc-message': '' }));
  // One length-prefixed message of zero bytes: every field at its default.
  stream.end(Buffer.from([0, 0, 0, 0, 0]));
}

beforeAll(async () => {
  server = http2.createServer();
  server.on('session', () => (sessions += 1));
  server.on('stream', (stream, headers) => {
    const path = String(headers[':path']);
    seen.set(path, (seen.get(path) ?? 0) + 1);
    // The faults end streams and sessions with an error code: expected, not thrown.
    stream.on('error', () => {});
    stream.session?.on('error', () => {});
    stream.resume();
    stream.on('end', () => {
      const fault = faults.get(path)?.shift();
      if (fault === 'reset') stream.close(http2.constants.NGHTTP2_INTERNAL_ERROR);
      else if (fault === 'goaway') stream.session?.goaway(http2.constants.NGHTTP2_INTERNAL_ERROR, stream.id);
      else if (fault === 'internal-answer') {
        stream.respond({ ':status': 200, 'content-type': 'application/grpc', 'grpc-status': '13', 'grpc-message': 'internal error' }, { endStream: true });
      } else answerOk(stream);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const NODE = '00000000-0000-4000-8000-000000000000';
const GET_NODE = '/sfdb.v1.Database/GetNode';
const DEQUEUE = '/sfdb.v1.Database/Dequeue';

function setUp(path: string, list: Fault[]): void {
  faults.set(path, list);
  seen.set(path, 0);
}

const client = () => createClient({ targets: `127.0.0.1:${port}`, callerDaemon: 'test', cache: false, feed: false, retryBaseMs: 5, retryCapMs: 20, maxAttempts: 4 });

describe('a connection failing under a call', () => {
  it('a read whose session is closed by GOAWAY(INTERNAL_ERROR) is retried on a new connection and answered', async () => {
    setUp(GET_NODE, ['goaway']);
    const db = client();
    try {
      expect(await db.getNode(NODE)).toBeUndefined();
      expect(seen.get(GET_NODE)).toBe(2);
    } finally {
      db.close();
    }
  });

  it('a read whose stream is reset with INTERNAL_ERROR is retried and answered', async () => {
    setUp(GET_NODE, ['reset', 'reset']);
    const db = client();
    try {
      expect(await db.getNode(NODE)).toBeUndefined();
      expect(seen.get(GET_NODE)).toBe(3);
    } finally {
      db.close();
    }
  });

  it('a write that may have run (Dequeue) is not retried: DatabaseUnavailable, UNAVAILABLE, grpc-js error kept as the cause', async () => {
    setUp(DEQUEUE, ['goaway']);
    const db = client();
    try {
      const err: unknown = await db.dequeue({ nodeUuid: NODE, queues: ['jobs'], limit: 1 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DatabaseUnavailable);
      expect((err as DatabaseUnavailable).code).toBe(grpc.status.UNAVAILABLE);
      expect((err as DatabaseUnavailable).message).toMatch(/Session closed with error code 2/);
      const original = ((err as Error).cause as Error).cause as grpc.ServiceError;
      expect(original.code).toBe(grpc.status.INTERNAL);
      expect(seen.get(DEQUEUE)).toBe(1);
    } finally {
      db.close();
    }
  });

  it("a server's own INTERNAL answer stays INTERNAL and is not retried", async () => {
    setUp(GET_NODE, ['internal-answer']);
    const db = client();
    try {
      const err: unknown = await db.getNode(NODE).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DatabaseError);
      expect(err).not.toBeInstanceOf(DatabaseUnavailable);
      expect((err as DatabaseError).code).toBe(grpc.status.INTERNAL);
      expect(seen.get(GET_NODE)).toBe(1);
    } finally {
      db.close();
    }
  });
});

describe('connections', () => {
  it('each client of a process holds its own connection, so one client\'s stream resets never count against another\'s', async () => {
    setUp(GET_NODE, []);
    const first = client();
    const second = client();
    try {
      const before = sessions;
      await first.getNode(NODE);
      await second.getNode(NODE);
      await first.getNode(NODE);
      expect(sessions - before).toBe(2);
    } finally {
      first.close();
      second.close();
    }
  });
});

describe('transportStatus', () => {
  const error = (code: grpc.status, details: string): grpc.ServiceError =>
    Object.assign(new Error(details), { code, details, metadata: new grpc.Metadata() });

  it('maps only grpc-js words for an INTERNAL_ERROR reset, and only on INTERNAL', () => {
    const session = error(grpc.status.INTERNAL, 'Received RST_STREAM with code 2 triggered by internal client error: Session closed with error code 2');
    expect(transportStatus(session).code).toBe(grpc.status.UNAVAILABLE);
    expect(transportStatus(session).details).toContain('Session closed with error code 2');
    expect(transportStatus(error(grpc.status.INTERNAL, 'Received RST_STREAM with code 2 (Internal server error)')).code).toBe(grpc.status.UNAVAILABLE);
    // Other reset codes (a protocol error is a bug, not an outage) and server answers stay.
    expect(transportStatus(error(grpc.status.INTERNAL, 'Received RST_STREAM with code 1')).code).toBe(grpc.status.INTERNAL);
    expect(transportStatus(error(grpc.status.INTERNAL, 'internal error')).code).toBe(grpc.status.INTERNAL);
    const notFound = error(grpc.status.NOT_FOUND, 'Received RST_STREAM with code 2');
    expect(transportStatus(notFound)).toBe(notFound);
  });
});
