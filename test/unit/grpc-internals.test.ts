// The parts of grpc-js the tier relies on beyond its public API, checked in one place, so
// that an upgrade which moves one fails here, by name, before any behaviour test does.
// They all live in server/grpc/grpc-js/ (its README.md says what each is for):
//
//   request-metadata.ts  wraps Metadata.fromHttp2Headers, for request headers (with :path)
//   server-call.ts       deep-imports BaseServerInterceptingCall and wraps three methods
//   server-fields.ts     writes Server.commonServerOptions, reads Server.http2Servers
//   log.ts               rewrites grpc-js's own log text
//
// grpc-js is pinned to one exact version in every package that depends on it; moving the
// pin means reading that folder against the new version, then this test.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as grpc from '@grpc/grpc-js';
import { BaseServerInterceptingCall } from '@grpc/grpc-js/build/src/server-interceptors.js';
import { describe, expect, it } from 'vitest';
import { ConnectionGuard } from '../../server/grpc/connections.js';
import { redactGrpcLine } from '../../server/grpc/grpc-js/log.js';
import { droppedKeys, installRequestMetadataChecks } from '../../server/grpc/grpc-js/request-metadata.js';
import { installServerCallFaults } from '../../server/grpc/grpc-js/server-call.js';
import { limitHeaderList } from '../../server/grpc/grpc-js/server-fields.js';
import { systemClock } from '@sfdb/proto/runtime/clock';
import { createLogger } from '@sfdb/proto/runtime/log';

const require = createRequire(import.meta.url);
const root = new URL('../../', import.meta.url);

function declared(manifest: string): string | undefined {
  const pkg = JSON.parse(readFileSync(new URL(manifest, root), 'utf8')) as { dependencies?: Record<string, string> };
  return pkg.dependencies?.['@grpc/grpc-js'];
}

describe('grpc-js, where the tier reaches past its public API', () => {
  it('is pinned to one exact version everywhere, and that version is the one installed', () => {
    const installed = (require('@grpc/grpc-js/package.json') as { version: string }).version;
    for (const manifest of ['package.json', 'proto/package.json', 'client/package.json']) {
      expect(declared(manifest), manifest).toBe(installed);
    }
    expect(installed).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("still builds a server call's metadata from the request headers through Metadata.fromHttp2Headers, which request-metadata.ts wraps", () => {
    expect(typeof grpc.Metadata.fromHttp2Headers).toBe('function');
    // The server call hands it the request's headers (:path among them); the client, a response's.
    const source = (file: string): string => readFileSync(require.resolve(`@grpc/grpc-js/build/src/${file}`), 'utf8');
    expect(source('server-interceptors.js')).toMatch(/Metadata\.fromHttp2Headers\(headers\)/);
    expect(source('subchannel-call.js')).toMatch(/Metadata\.fromHttp2Headers\(headers\)/);
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

  it('still words the log line of a dropped metadata entry the way the redaction expects', () => {
    // grpc-js's own text (metadata.js): the redaction keys on its start.
    const source = readFileSync(require.resolve('@grpc/grpc-js/build/src/metadata.js'), 'utf8');
    expect(source).toContain('Failed to add metadata entry ');
    expect(redactGrpcLine('Failed to add metadata entry x-k: secret')).not.toContain('secret');
  });
});
