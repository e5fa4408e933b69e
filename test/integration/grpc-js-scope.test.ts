// The tier's changes to grpc-js (server/grpc/grpc-js/) reach the calls its server
// accepts and no client call of the same process: the tier's own peer client and the
// tests' clients get grpc-js as it is. The tier runs in this process (its patches are
// installed); a plain node:http2 server stands for a peer that answers with what the
// patches would change: response headers and trailers with values grpc-js drops, and a
// compressed message that does not decompress.
import { randomUUID } from 'node:crypto';
import * as http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../proto/runtime/log.js';
import { routeGrpcLogs } from '../../server/grpc/grpc-js/log.js';
import { droppedKeys } from '../../server/grpc/grpc-js/request-metadata.js';
import { useTestTier } from '../helpers/tier.js';
import { frame, h2call } from '../property/http2.js';
import { encode } from '../property/raw.js';

const { t } = useTestTier();

/** 'café' as node:http2 puts a UTF-8 value on the wire (one char per byte). */
const NOT_ASCII = Buffer.from('caf\u00e9', 'utf8').toString('latin1');

/** What the stand-in peer answers, by :path. */
function answer(stream: http2.ServerHttp2Stream, path: string): void {
  if (path === '/peer.Test/Headers') {
    // node:http2 joins a repeated header into one value, set-cookie excepted: of its two
    // values grpc-js keeps the one it can, where the request wrapper drops the key whole.
    const headers = { 'x-one': NOT_ASCII, 'set-cookie': ['fine', NOT_ASCII] };
    stream.respond({ ':status': 200, 'content-type': 'application/grpc', ...headers }, { waitForTrailers: true });
    stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0', ...headers }));
    stream.end(frame(Buffer.from('hello')));
    return;
  }
  // Bytes flagged as gzip that are not: grpc-js's client answers this itself.
  stream.respond({ ':status': 200, 'content-type': 'application/grpc', 'grpc-encoding': 'gzip' }, { waitForTrailers: true });
  stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
  stream.end(frame(Buffer.from('not gzip at all'), { compressed: true }));
}

let peer: http2.Http2Server;
let client: grpc.Client;
/** grpc-js's own log lines, as it writes them (the tier's route would redact them). */
const grpcLines: string[] = [];

beforeAll(async () => {
  grpc.setLogger({ error: (line: string) => grpcLines.push(line), info: () => undefined, debug: () => undefined });
  grpc.setLogVerbosity(grpc.logVerbosity.ERROR);
  peer = http2.createServer();
  peer.on('stream', (stream, headers) => {
    stream.on('data', () => undefined);
    stream.on('end', () => answer(stream, String(headers[':path'])));
  });
  await new Promise<void>((resolve) => peer.listen(0, '127.0.0.1', resolve));
  client = new grpc.Client(`127.0.0.1:${(peer.address() as AddressInfo).port}`, grpc.credentials.createInsecure());
});
afterAll(async () => {
  // grpc-js's logger is a process global: leave a silent one for the other tests of this worker.
  routeGrpcLogs(createLogger('silent'));
  client?.close();
  await new Promise((resolve) => peer?.close(resolve));
});

interface ClientSide {
  headers?: grpc.Metadata;
  status: grpc.StatusObject;
  response?: Buffer;
}

function callPeer(path: string): Promise<ClientSide> {
  return new Promise((resolve) => {
    const seen: Partial<ClientSide> = {};
    const call = client.makeUnaryRequest(path, (b: Buffer) => b, (b: Buffer) => b, Buffer.alloc(0), (_err, response) => {
      seen.response = response;
    });
    call.on('metadata', (metadata: grpc.Metadata) => (seen.headers = metadata));
    call.on('status', (status: grpc.StatusObject) => resolve({ ...seen, status }));
  });
}

describe("the tier's grpc-js patches, on a client call of the same process", () => {
  it("leave a response's headers and trailers to grpc-js: it keeps what it can and logs what it drops", async () => {
    grpcLines.length = 0;
    const { headers, status, response } = await callPeer('/peer.Test/Headers');
    expect(status.code, status.details).toBe(grpc.status.OK);
    expect(response?.toString()).toBe('hello');
    for (const metadata of [headers as grpc.Metadata, status.metadata]) {
      expect(metadata.get('set-cookie')).toEqual(['fine']);
      expect(metadata.get('x-one')).toEqual([]);
      expect(droppedKeys(metadata)).toEqual([]);
    }
    // grpc-js itself met the values it dropped (the request wrapper takes them out before it).
    for (const key of ['x-one', 'set-cookie']) {
      expect(grpcLines.filter((line) => line.startsWith(`Failed to add metadata entry ${key}:`)), key).toHaveLength(2);
    }
  });

  it("leave an answer that does not decompress to grpc-js's client, which fails the call itself", async () => {
    const { status, response } = await callPeer('/peer.Test/Gzip');
    // Not handed on as a message: grpc-js's client answers INTERNAL, as without the tier.
    expect(status.code, status.details).toBe(grpc.status.INTERNAL);
    expect(response).toBeUndefined();
  });
});

describe("the tier's grpc-js patches, on a call its server accepts in the same process", () => {
  const getNode = (headers: Record<string, string>): ReturnType<typeof h2call> =>
    h2call(t.tier.grpcPort, { path: '/sfdb.v1.Database/GetNode', headers, body: [frame(encode('GetNode', { uuid: randomUUID() }) as Buffer)] });

  it('still refuse a caller header grpc-js would drop, and a grpc-timeout it would answer INTERNAL', async () => {
    const node = await getNode({ 'x-sfdb-caller-node': NOT_ASCII, 'x-sfdb-caller-daemon': 'queues' });
    expect(node.grpcStatus, node.grpcMessage).toBe(grpc.status.INVALID_ARGUMENT);
    expect(node.grpcMessage).toBe('x-sfdb-caller-node: not printable ASCII');
    const timeout = await getNode({ 'grpc-timeout': 'soon', 'x-sfdb-caller-daemon': 'queues' });
    expect(timeout.grpcStatus, timeout.grpcMessage).toBe(grpc.status.INVALID_ARGUMENT);
    expect(timeout.grpcMessage).toMatch(/^grpc-timeout: "soon" is not a gRPC timeout/);
  });
});
