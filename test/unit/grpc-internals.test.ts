// The parts of grpc-js the tier reaches by name beyond its public API, checked in one
// place, so that an upgrade which moves one fails here, by name, before a behaviour test
// does. They all live in server/grpc/grpc-js/; its README.md says what each is for and
// which behaviour test guards it (what grpc-js does with them, on real calls and in its
// real log: test/integration/grpc-js-boundary.test.ts, test/unit/grpc-call-layer.test.ts).
//
//   request-metadata.ts  wraps Metadata.fromHttp2Headers, for request headers (with :path)
//   server-call.ts       deep-imports BaseServerInterceptingCall and wraps three methods
//   server-fields.ts     writes Server.commonServerOptions, reads Server.http2Servers
//   status-details.ts    wraps BaseServerInterceptingCall.sendStatus and Server._respondWithError,
//                        and knows grpc-js's INTERNAL "Error deserializing request" by its words
//
// grpc-js is pinned to one exact version in every package that depends on it, protobufjs
// in the tier's; moving a pin means reading that folder against the new version, then
// these tests.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as grpc from '@grpc/grpc-js';
import { BaseServerInterceptingCall } from '@grpc/grpc-js/build/src/server-interceptors.js';
import { describe, expect, it } from 'vitest';
import { ConnectionGuard } from '../../server/grpc/connections.js';
import { droppedKeys, installRequestMetadataChecks } from '../../server/grpc/grpc-js/request-metadata.js';
import { installServerCallFaults } from '../../server/grpc/grpc-js/server-call.js';
import { limitHeaderList } from '../../server/grpc/grpc-js/server-fields.js';
import { boundGrpcJsStatuses } from '../../server/grpc/grpc-js/status-details.js';
import { frame, h2call } from '../property/http2.js';
import { systemClock } from '@sfdb/proto/runtime/clock';
import { createLogger } from '@sfdb/proto/runtime/log';

const require = createRequire(import.meta.url);
const root = new URL('../../', import.meta.url);

function declared(manifest: string, name = '@grpc/grpc-js'): string | undefined {
  const pkg = JSON.parse(readFileSync(new URL(manifest, root), 'utf8')) as { dependencies?: Record<string, string> };
  return pkg.dependencies?.[name];
}

describe('grpc-js, where the tier reaches past its public API', () => {
  it('is pinned to one exact version everywhere, and that version is the one installed', () => {
    const installed = (require('@grpc/grpc-js/package.json') as { version: string }).version;
    for (const manifest of ['package.json', 'proto/package.json', 'client/package.json']) {
      expect(declared(manifest), manifest).toBe(installed);
    }
    expect(installed).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('protobufjs, whose decoding protobufjs-utf8.ts re-walks, is pinned exactly, and proto-loader decodes with that copy', () => {
    const installed = (require('protobufjs/package.json') as { version: string }).version;
    expect(declared('package.json', 'protobufjs')).toBe(installed);
    expect(installed).toMatch(/^\d+\.\d+\.\d+$/);
    // The copy proto-loader (which makes the tier's deserializers) resolves is the pinned one.
    const fromLoader = createRequire(require.resolve('@grpc/proto-loader')).resolve('protobufjs/package.json');
    expect(fromLoader).toBe(require.resolve('protobufjs/package.json'));
  });

  it('still has Metadata.fromHttp2Headers, which request-metadata.ts wraps for a request and leaves alone for a response', () => {
    // That grpc-js's server builds a call's metadata through it: grpc-js-boundary.test.ts.
    expect(typeof grpc.Metadata.fromHttp2Headers).toBe('function');
    expect(() => installRequestMetadataChecks()).not.toThrow();
    // The wrapper keeps what grpc-js keeps and leaves out what it would drop, on a request.
    const request = grpc.Metadata.fromHttp2Headers({ ':path': '/x', 'x-ok': 'fine', 'x-bad': 'caf\u00e9' });
    expect(request.get('x-ok')).toEqual(['fine']);
    expect(request.get('x-bad')).toEqual([]);
    expect(droppedKeys(request)).toEqual(['x-bad']);
    // A response's headers are grpc-js's alone: of two values it keeps the one it can,
    // and logs the other (here to a silent logger).
    grpc.setLogVerbosity(grpc.logVerbosity.NONE);
    const response = grpc.Metadata.fromHttp2Headers({ ':status': '200', 'set-cookie': ['fine', 'caf\u00e9'] });
    expect(response.get('set-cookie')).toEqual(['fine']);
    expect(droppedKeys(response)).toEqual([]);
  });

  it('still has BaseServerInterceptingCall with the three methods server-call.ts wraps', () => {
    const proto = BaseServerInterceptingCall.prototype as unknown as Record<string, unknown>;
    for (const name of ['handleTimeoutHeader', 'start', 'decompressMessage']) expect(typeof proto[name], name).toBe('function');
    expect(() => installServerCallFaults()).not.toThrow();
  });

  it('still keeps commonServerOptions and http2Servers on Server, which server-fields.ts reaches', () => {
    const server = new grpc.Server();
    const internals = server as unknown as { commonServerOptions?: { settings?: { maxHeaderListSize?: number } }; http2Servers?: unknown };
    expect(typeof internals.commonServerOptions).toBe('object');
    expect(internals.http2Servers).toBeInstanceOf(Map);
    limitHeaderList(server, 12_345);
    expect(internals.commonServerOptions?.settings?.maxHeaderListSize).toBe(12_345);
    const guard = new ConnectionGuard({ log: createLogger('silent'), clock: systemClock });
    expect(() => guard.start(server)).not.toThrow();
    guard.stop();
    server.forceShutdown();
  });
});

describe("status-details.ts: grpc-js's own answer to a request its deserializer throws on", () => {
  /** A bare grpc-js server (no tier) with one method whose request never decodes. */
  async function undecodable(): Promise<{ port: number; server: grpc.Server }> {
    const server = new grpc.Server();
    const method = {
      path: '/boundary.Details/Echo',
      requestStream: false,
      responseStream: false,
      requestSerialize: (b: Buffer) => b,
      requestDeserialize: (): Buffer => {
        throw new Error('bad bytes');
      },
      responseSerialize: (b: Buffer) => b,
      responseDeserialize: (b: Buffer) => b,
    };
    server.addService({ Echo: method }, { Echo: (_call: unknown, done: grpc.sendUnaryData<Buffer>) => done(null, Buffer.alloc(0)) });
    const port = await new Promise<number>((resolve, reject) => server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))));
    return { port, server };
  }

  // Fails if grpc-js rewords its "Error deserializing request" (status-details.ts knows it by
  // those words: health and reflection would answer INTERNAL again), answers it with another
  // code, or stops sending it through BaseServerInterceptingCall.sendStatus (the wrapper
  // would not see it). The same on the tier's own port: grpc-js-boundary.test.ts.
  it('is INTERNAL "Error deserializing request" from grpc-js, and INVALID_ARGUMENT naming request once status-details.ts wraps it', async () => {
    const { port, server } = await undecodable();
    try {
      const call = (): ReturnType<typeof h2call> => h2call(port, { path: '/boundary.Details/Echo', body: [frame(Buffer.from([0x0a, 0xff]))] });
      const plain = await call();
      expect(plain.grpcStatus, plain.grpcMessage ?? plain.error).toBe(grpc.status.INTERNAL);
      expect(plain.grpcMessage).toMatch(/^Error deserializing request/);
      boundGrpcJsStatuses();
      const wrapped = await call();
      expect(wrapped.grpcStatus, wrapped.grpcMessage ?? wrapped.error).toBe(grpc.status.INVALID_ARGUMENT);
      expect(wrapped.grpcMessage).toBe("request: does not decode as the method's request message");
    } finally {
      server.forceShutdown();
    }
  });

  it('still has BaseServerInterceptingCall.sendStatus and Server._respondWithError, which it wraps', () => {
    expect(typeof (BaseServerInterceptingCall.prototype as unknown as Record<string, unknown>)['sendStatus']).toBe('function');
    expect(typeof (grpc.Server.prototype as unknown as Record<string, unknown>)['_respondWithError']).toBe('function');
    expect(() => boundGrpcJsStatuses()).not.toThrow();
  });
});
