// grpc-js's own log lines go through the tier's JSON logger, with no metadata value in
// them: a line is sent through grpc-js's internal log function, as grpc-js itself logs
// a metadata entry it drops, and read back from the tier's logger.
import { Writable } from 'node:stream';
import * as grpc from '@grpc/grpc-js';
import { log as grpcLog } from '@grpc/grpc-js/build/src/logging.js';
import { afterAll, describe, expect, it } from 'vitest';
import { redactGrpcLine, routeGrpcLogs } from '../../server/grpc/grpc-js/log.js';
import { createLogger } from '../../proto/runtime/log.js';

const SECRET = 'caf\u00c3\u00a9-4242-secret';

function capture(level: string): { lines: string[] } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString().split('\n').filter((l) => l !== ''));
      done();
    },
  });
  routeGrpcLogs(createLogger(level, { replica: 'log-test' }, sink));
  return { lines };
}

afterAll(() => {
  // grpc-js's logger is a process global: leave a silent one for the other tests of this worker.
  routeGrpcLogs(createLogger('silent'));
});

describe("grpc-js's log", () => {
  it('is JSON through the tier logger, at the matching level, without the metadata value', () => {
    const { lines } = capture('debug');
    // What grpc-js's Metadata.fromHttp2Headers logs for an entry it drops.
    grpcLog(
      grpc.logVerbosity.ERROR,
      `Failed to add metadata entry x-sfdb-caller-node: ${SECRET}. Error: Metadata string value "${SECRET}" contains illegal characters. For more information see https://github.com/grpc/grpc-node/issues/1173`,
    );
    grpcLog(grpc.logVerbosity.INFO, 'WARNING Only 1 addresses added out of total 2 resolved');
    grpcLog(grpc.logVerbosity.DEBUG, `2026-01-01T00:00:00.000Z | v1.14.7 1 | server_call | Request to /sfdb.v1.Database/GetNode received headers {"x-sfdb-caller-node":["${SECRET}"]}`);
    expect(lines).toHaveLength(3);
    const objects = lines.map((l) => JSON.parse(l) as { level: number; msg: string; component: string; replica: string });
    expect(objects.map((o) => o.level)).toEqual([50, 30, 20]);
    for (const o of objects) {
      expect(o.component).toBe('grpc-js');
      expect(o.replica).toBe('log-test');
    }
    expect(objects[0]?.msg).toBe('Failed to add metadata entry x-sfdb-caller-node: not a legal gRPC metadata entry (value not logged)');
    expect(objects[1]?.msg).toBe('WARNING Only 1 addresses added out of total 2 resolved');
    expect(objects[2]?.msg).toMatch(/received headers \(not logged\)$/);
    expect(lines.join('\n')).not.toContain('secret');
  });

  it('follows the tier log level', () => {
    const { lines } = capture('warn');
    grpcLog(grpc.logVerbosity.INFO, 'an info line');
    grpcLog(grpc.logVerbosity.DEBUG, 'a debug line');
    grpcLog(grpc.logVerbosity.ERROR, 'an error line');
    expect(lines.map((l) => (JSON.parse(l) as { msg: string }).msg)).toEqual(['an error line']);
  });

  it('redacts what Metadata.validate quotes, and leaves other lines as they are', () => {
    expect(redactGrpcLine(`Metadata key "x\u00e9" contains illegal characters`)).toBe('Metadata key (not logged) contains illegal characters');
    expect(redactGrpcLine('Failed to bind 127.0.0.1:13005')).toBe('Failed to bind 127.0.0.1:13005');
    expect(redactGrpcLine(`Failed to add metadata entry ${'k'.repeat(100)}\u0001: v`)).toBe(
      `Failed to add metadata entry ${'k'.repeat(64)}: not a legal gRPC metadata entry (value not logged)`,
    );
  });
});
