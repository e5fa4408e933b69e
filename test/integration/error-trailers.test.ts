// A real tier's refusals carry their structured parts in trailers (proto/errors.ts): an
// INVALID_ARGUMENT or NOT_FOUND names its field in x-sfdb-error-field, and the client's
// `.field` is read from there, not from the details, which still begin with it for people.
// Both go through group commit (NodeHeartbeat) and through a handler's own statements.
// A refusal that echoes a huge value reaches a grpc-js client with default limits whole,
// bounded (the property over every RPC: test/property/error-texts.test.ts); so are
// grpc-js's own answers that repeat what the caller sent (server/grpc/grpc-js/status-details.ts).
import { randomUUID } from 'node:crypto';
import { status } from '@grpc/grpc-js';
import type { ServiceError } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { InvalidArgument, NotFound, fromServiceError } from '../../client/errors.js';
import type { DatabaseError } from '../../client/errors.js';
import { ERROR_TRAILERS, MAX_DETAILS_BYTES } from '../../proto/errors.js';
import { frame, h2call } from '../property/http2.js';
import { RawClient, codeName, encode } from '../property/raw.js';
import { newNode } from '../helpers/targets.js';
import { useTestTier } from '../helpers/tier.js';

const { t, db } = useTestTier();

async function refusal(call: Promise<unknown>): Promise<DatabaseError> {
  return call.then(
    () => {
      throw new Error('the call was accepted');
    },
    (e: unknown) => e as DatabaseError,
  );
}

/** The refusal names `field` in its trailer, and the client reads it from there alone. */
function namesField(err: DatabaseError, cls: typeof InvalidArgument | typeof NotFound, field: string): void {
  expect(err).toBeInstanceOf(cls);
  const raw = err.cause as ServiceError;
  expect(raw.metadata.get(ERROR_TRAILERS.field)).toEqual([field]);
  expect(raw.details.startsWith(`${field}: `), raw.details).toBe(true);
  expect((err as InvalidArgument | NotFound).field).toBe(field);
  // The same answer with details that name nothing: the field is still the trailer's.
  const reworded = fromServiceError(Object.assign(Object.create(raw) as ServiceError, { details: 'refused' }), err.operation);
  expect(reworded).toBeInstanceOf(cls);
  expect((reworded as InvalidArgument | NotFound).field).toBe(field);
}

describe('a refusal names its field in a trailer', () => {
  it('INVALID_ARGUMENT', async () => {
    namesField(await refusal(db.createNode({ uuid: 'not-a-uuid', fqdn: 'a.example.com' })), InvalidArgument, 'uuid');
    namesField(await refusal(db.call('NodeHeartbeat', { nodeUuid: randomUUID(), stats: '{not json' })), InvalidArgument, 'stats');
    const node = await newNode(db);
    namesField(
      await refusal(db.call('RecordEvents', { events: [{ objectType: 'NODE', objectUuid: node, eventType: 'x', message: '', extra: '{' }] })),
      InvalidArgument,
      'events[0].extra',
    );
  });

  it('NOT_FOUND', async () => {
    namesField(await refusal(db.enqueue({ id: randomUUID(), nodeUuid: randomUUID(), queue: 'jobs' })), NotFound, 'node_uuid');
    namesField(await refusal(db.call('NodeHeartbeat', { nodeUuid: randomUUID(), stats: '{}' })), NotFound, 'node_uuid');
  });

  it('no other refusal carries a field', async () => {
    const node = await newNode(db);
    const err = await refusal(db.createNode({ uuid: node, fqdn: 'other.example.com' }));
    expect(err.name).toBe('Conflict');
    expect((err.cause as ServiceError).metadata.get(ERROR_TRAILERS.field)).toEqual([]);
  });
});

describe('a refusal that echoes a huge value', () => {
  it('UpdateNode with a 70,000-character update_mask entry: INVALID_ARGUMENT to a grpc-js client with default limits', async () => {
    const node = await newNode(db);
    const raw = new RawClient(`127.0.0.1:${t.tier.grpcPort}`);
    try {
      const body = encode('UpdateNode', { uuid: node, updateMask: ['a'.repeat(70_000)], expectedVersion: '1' }) as Buffer;
      const answer = await raw.send('UpdateNode', body);
      expect(codeName(answer.code), answer.details.slice(0, 200)).toBe('INVALID_ARGUMENT');
      expect(answer.details).toBe(`update_mask: unknown field "${'a'.repeat(64)}…" (70000 characters)`);
      expect(answer.field).toBe('update_mask');
      expect(Buffer.byteLength(answer.details)).toBeLessThanOrEqual(MAX_DETAILS_BYTES);
    } finally {
      raw.close();
    }
  });

  it("grpc-js's own answers that repeat the caller's path or grpc-encoding are bounded too", async () => {
    const port = t.tier.grpcPort;
    const unknown = await h2call(port, { path: `/sfdb.v1.Database/${'x'.repeat(15_000)}`, body: [frame(Buffer.alloc(0))] });
    expect(unknown.grpcStatus, unknown.error).toBe(status.UNIMPLEMENTED);
    expect(unknown.grpcMessage?.startsWith(`The server does not implement the method /sfdb.v1.Database/${'x'.repeat(100)}`)).toBe(true);
    expect(unknown.grpcMessage?.endsWith('characters in all)')).toBe(true);
    expect(Buffer.byteLength(unknown.grpcMessage ?? '')).toBeLessThanOrEqual(MAX_DETAILS_BYTES);

    const body = encode('GetNode', { uuid: '00000000-0000-4000-8000-000000000000' }) as Buffer;
    const encoding = await h2call(port, {
      path: '/sfdb.v1.Database/GetNode',
      headers: { 'grpc-encoding': 'z'.repeat(10_000), 'x-sfdb-caller-daemon': 'test' },
      body: [frame(body, { compressed: true })],
    });
    expect(encoding.grpcStatus, encoding.error).toBe(status.UNIMPLEMENTED);
    expect(encoding.grpcMessage?.startsWith(`Received message compressed with unsupported encoding "${'z'.repeat(100)}`)).toBe(true);
    expect(Buffer.byteLength(encoding.grpcMessage ?? '')).toBeLessThanOrEqual(MAX_DETAILS_BYTES);
  });
});
