// What the grpc-js boundary (server/grpc/grpc-js/, its README.md) relies on in grpc-js,
// shown by what grpc-js does on a real server call (raw node:http2 frames to a tier) and
// in its real log, never by reading its source. Each test says which grpc-js change
// makes it fail. (The call layer's fit: test/unit/grpc-call-layer.test.ts; protobufjs's
// string decoding: test/unit/utf8-fields.test.ts.)
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import * as grpc from '@grpc/grpc-js';
import { afterAll, describe, expect, it } from 'vitest';
import { runTs } from '../../harness/children.js';
import { metricValue } from '../../harness/scrape.js';
import { createLogger } from '../../proto/runtime/log.js';
import { loadDatabaseProto } from '../../proto/load.js';
import { BAD_TIMEOUT_MARK, DROPPED_KEYS_MARK, setMark } from '../../server/grpc/grpc-js/call-marks.js';
import { routeGrpcLogs } from '../../server/grpc/grpc-js/log.js';
import { droppedKeys } from '../../server/grpc/grpc-js/request-metadata.js';
import { badTimeout } from '../../server/grpc/grpc-js/server-call.js';
import { useTestTier } from '../helpers/tier.js';
import { frame, h2call } from '../property/http2.js';
import type { H2Answer } from '../property/http2.js';
import { encode } from '../property/raw.js';

const { t } = useTestTier();

/** A value as node:http2 puts it on the wire: the chars are the bytes (here UTF-8). */
const wire = (s: string): string => Buffer.from(s, 'utf8').toString('latin1');
const SECRET = 'zq-boundary-4242';

/** grpc-js's log lines as the tier routes them (JSON, through its logger), while `run` runs. */
async function grpcLog(run: () => Promise<void>): Promise<string[]> {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString().split('\n').filter((l) => l !== ''));
      done();
    },
  });
  routeGrpcLogs(createLogger('debug', {}, sink));
  try {
    await run();
  } finally {
    routeGrpcLogs(createLogger('silent'));
  }
  return lines;
}
afterAll(() => routeGrpcLogs(createLogger('silent')));

function getNode(headers: Record<string, string>, body?: Buffer): Promise<H2Answer> {
  return h2call(t.tier.grpcPort, { path: '/sfdb.v1.Database/GetNode', headers, body: [body ?? frame(encode('GetNode', { uuid: randomUUID() }) as Buffer)] });
}

const invalidArguments = async (): Promise<number> => metricValue(await t.metrics(), 'database_request_errors_total', { operation: 'GetNode', code: 'INVALID_ARGUMENT' });

describe('request-metadata.ts: a request header grpc-js would drop', () => {
  // Fails if grpc-js's server stops building a call's metadata through the static
  // Metadata.fromHttp2Headers (the wrapper never runs: the header is dropped in silence and
  // the call served, and grpc-js logs the value), or if it keeps such a value itself.
  it('is refused, naming the header, and nothing of it is logged', async () => {
    const before = await invalidArguments();
    let answer: H2Answer | undefined;
    const lines = await grpcLog(async () => {
      answer = await getNode({ 'x-sfdb-caller-node': wire(`${SECRET}-\u00e9`), 'x-sfdb-caller-daemon': 'queues' });
    });
    expect(answer?.grpcStatus, answer?.grpcMessage ?? answer?.error).toBe(grpc.status.INVALID_ARGUMENT);
    expect(answer?.grpcMessage).toBe('x-sfdb-caller-node: not printable ASCII');
    expect(await invalidArguments()).toBe(before + 1);
    expect(lines.join('\n')).not.toContain(SECRET);
    expect(lines.filter((l) => l.includes('Failed to add metadata entry'))).toEqual([]);
  });

  it('that no rule of the tier reads is left out as grpc-js would, and still not logged', async () => {
    let answer: H2Answer | undefined;
    const lines = await grpcLog(async () => {
      answer = await getNode({ 'x-other': wire(`${SECRET}-\u00e9`), 'x-sfdb-caller-daemon': 'queues' });
    });
    expect(answer?.grpcStatus, answer?.grpcMessage ?? answer?.error).toBe(grpc.status.OK);
    expect(lines.join('\n')).not.toContain(SECRET);
  });
});

describe('server-call.ts: what grpc-js answers INTERNAL beneath every interceptor', () => {
  // Fails if grpc-js renames or stops calling BaseServerInterceptingCall's
  // handleTimeoutHeader, start or decompressMessage (grpc-js answers INTERNAL again), or
  // starts to accept the value itself.
  it('a grpc-timeout that does not parse is INVALID_ARGUMENT naming the header, counted as a refusal', async () => {
    const before = await invalidArguments();
    const answer = await getNode({ 'grpc-timeout': 'soon', 'x-sfdb-caller-daemon': 'queues' });
    expect(answer.grpcStatus, answer.grpcMessage ?? answer.error).toBe(grpc.status.INVALID_ARGUMENT);
    expect(answer.grpcMessage).toBe('grpc-timeout: "soon" is not a gRPC timeout (1 to 8 digits and a unit: H M S m u n)');
    expect(await invalidArguments()).toBe(before + 1);
  });

  it('a message that does not decompress is INVALID_ARGUMENT naming grpc-encoding, counted as a refusal', async () => {
    const before = await invalidArguments();
    const answer = await getNode({ 'grpc-encoding': 'gzip', 'x-sfdb-caller-daemon': 'queues' }, frame(Buffer.from('not gzip at all'), { compressed: true }));
    expect(answer.grpcStatus, answer.grpcMessage ?? answer.error).toBe(grpc.status.INVALID_ARGUMENT);
    expect(answer.grpcMessage).toBe('grpc-encoding: the message does not decompress as gzip');
    expect(await invalidArguments()).toBe(before + 1);
  });

  it('the marks survive a copy of what carries them, so a grpc-js that copied would still refuse', () => {
    // The timeout and the dropped keys are entries of the Metadata itself.
    const metadata = new grpc.Metadata();
    setMark(metadata, BAD_TIMEOUT_MARK, 'soon');
    setMark(metadata, DROPPED_KEYS_MARK, 'x-sfdb-caller-node,x-b');
    expect(badTimeout(metadata.clone())).toBe('soon');
    expect(droppedKeys(metadata.clone())).toEqual(['x-sfdb-caller-node', 'x-b']);
    // A copy of an undecompressed message's stand-in loses its encoding but is bytes no
    // request decodes: refused as `request`, never served as an empty request.
    const service = loadDatabaseProto().proto.sfdb.v1.Database.service as unknown as Record<string, { requestDeserialize: (b: Buffer) => unknown }>;
    for (const [name, m] of Object.entries(service)) expect(() => m.requestDeserialize(Buffer.from([0x07])), name).toThrow();
  });

  it('a client cannot plant a mark: the same names as headers are served', async () => {
    const answer = await getNode({ 'sfdb-bad-grpc-timeout': 'forged', 'sfdb-dropped-keys': 'x-sfdb-caller-node', 'x-sfdb-caller-daemon': 'queues' });
    expect(answer.grpcStatus, answer.grpcMessage ?? answer.error).toBe(grpc.status.OK);
    // And a pseudo-header of that name is no request at all (node:http2 will not send one).
    const pseudo = await getNode({ [BAD_TIMEOUT_MARK]: 'forged', 'x-sfdb-caller-daemon': 'queues' });
    expect(pseudo.grpcStatus).toBeUndefined();
    expect(pseudo.error).toMatch(/invalid pseudoheader/);
  });
});

describe('status-details.ts: a request that does not decode, on the services whose decoders grpc-js runs as they are', () => {
  // Fails if grpc-js rewords "Error deserializing request" or stops answering it through
  // BaseServerInterceptingCall.sendStatus: health and reflection would answer INTERNAL again.
  it('is INVALID_ARGUMENT naming request on health and reflection, as on the Database service', async () => {
    const garbage = frame(Buffer.from([0x0a, 0xff, 0xff, 0xff]));
    for (const path of ['/grpc.health.v1.Health/Check', '/grpc.reflection.v1.ServerReflection/ServerReflectionInfo', '/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo']) {
      const answer = await h2call(t.tier.grpcPort, { path, headers: { 'x-sfdb-caller-daemon': 'queues' }, body: [garbage] });
      expect(answer.grpcStatus, `${path}: ${answer.grpcMessage ?? answer.error}`).toBe(grpc.status.INVALID_ARGUMENT);
      expect(answer.grpcMessage, path).toBe("request: does not decode as the method's request message");
    }
  });
});

describe("log.ts: grpc-js's own log lines, redacted by their wording", () => {
  // Fails if grpc-js rewords a line that carries header values ('Failed to add metadata
  // entry', the server_call tracer's 'received headers', the subchannel_call tracer's
  // 'Received server headers:'): the line then reaches the log with the value, or not at all.
  it('each line is logged, as JSON, with the redaction in place of every value', async () => {
    const ran = await runTs('test/fixtures/grpc-log-lines.ts', [], { env: { SECRET, GRPC_TRACE: 'server_call,subchannel_call' } });
    expect(ran.code, ran.stderr.slice(-2000)).toBe(0);
    expect(ran.stdout).toBe('done\n');
    const messages = ran.stderr
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => (JSON.parse(l) as { msg: string; component?: string }));
    const grpcJs = messages.filter((m) => m.component === 'grpc-js').map((m) => m.msg);
    expect(grpcJs.filter((m) => /\| server_call \| Request to \/boundary\.Log\/Echo received headers \(not logged\)$/.test(m))).toHaveLength(1);
    expect(grpcJs.filter((m) => /\| subchannel_call \| \[\d+\] Received server headers: \(not logged\)$/.test(m))).toHaveLength(2);
    expect(grpcJs.filter((m) => m === 'Failed to add metadata entry x-one: not a legal gRPC metadata entry (value not logged)')).toHaveLength(1);
    expect(ran.stderr).not.toContain(SECRET);
  });
});
