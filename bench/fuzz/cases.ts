// What the fuzzer sends, drawn by fast-check: gRPC calls by hand (header blocks of any
// paths, content types, te, grpc-timeout, grpc-encoding, caller and custom metadata,
// binary `-bin` values, sizes up to a field Node's HTTP/2 layer cannot decode; bodies of
// gRPC messages whose length prefix may lie, whose compressed flag may be set with or
// without grpc-encoding, cut short, several for a unary call, or none), one to three at
// once on the connection; and raw HTTP/2 frames node:http2 will not send. The request
// messages are the property tests' (valid, hostile, bent on the wire) or random bytes. The
// replica traces (main.ts), so W3C trace headers among the metadata are read, not skipped.
import { deflateSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import { requestGen } from '../../test/property/requests.js';
import { fieldsOf, methods } from '../../test/property/schema.js';
import type { Method } from '../../test/property/schema.js';
import { bent, lengthDelimited, tag, varint } from '../../test/property/wire-bytes.js';
import { FLAG, FRAME, headerBlock, settingsPayload } from './frames.js';
import type { RawFrame } from './frames.js';
import { grpcFrame, requestBytes } from './h2.js';

export interface CallCase {
  path: string;
  /** Headers over the defaults; undefined drops a default (content-type, te). */
  headers: Record<string, string | string[] | undefined>;
  /** The body: gRPC frames (or their pieces), written in order. */
  body: Buffer[];
  /** The client ends its side after the body (false: it leaves it open until it cancels). */
  end: boolean;
  /** Cancel the call (RST_STREAM CANCEL) right after sending it. */
  cancel: boolean;
}

export type FuzzCase = { kind: 'calls'; calls: CallCase[] } | { kind: 'frames'; what: string; frames: RawFrame[] };

const allMethods = methods();
const printable = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 60 });
const token = fc.stringMatching(/^[a-z][a-z0-9_.-]{0,15}$/);

/** Header value text of `n` characters: base64 (Huffman shrinks it) or characters Huffman would grow. */
const bigValue = fc.tuple(fc.constantFrom(1_000, 8_000, 17_000, 40_000, 70_000), fc.boolean()).map(([n, plain]) => (plain ? '{}<^'.repeat(n / 4) : 'Ab3+'.repeat(n / 4)));

const pathGen: Arbitrary<{ path: string; method?: Method }> = fc.oneof(
  { arbitrary: fc.constantFrom(...allMethods).map((m) => ({ path: m.path, method: m })), weight: 16 },
  { arbitrary: token.map((n) => ({ path: `/sfdb.v1.Database/${n}` })), weight: 1 },
  { arbitrary: fc.constantFrom('/grpc.health.v1.Health/Check', '/grpc.reflection.v1.ServerReflection/ServerReflectionInfo', '/', '//', '/sfdb.v1.Database/', '/x/y/z', '*').map((path) => ({ path })), weight: 1 },
  { arbitrary: printable.map((s) => ({ path: `/${s}` })), weight: 1 },
);

const hex = (n: number): Arbitrary<string> => fc.stringMatching(new RegExp(`^[0-9a-f]{${n}}$`));
/** A W3C traceparent the tier's propagator reads (the replica traces): valid, or valid but for one part. */
const traceparent: Arbitrary<string> = fc
  .tuple(fc.constantFrom('00', '01', 'cc', 'ff', '0'), hex(32), hex(16), fc.constantFrom('00', '01', 'ff', ''), fc.constantFrom('', '-x', `-${'f'.repeat(600)}`))
  .map(([version, trace, span, flags, more]) => `${version}-${trace}-${span}-${flags}${more}`);

/** A custom metadata entry: text, a `-bin` value (base64, or not), a reserved gRPC name, W3C trace context, sometimes large. */
const customHeader: Arbitrary<[string, string]> = fc.oneof(
  { arbitrary: fc.tuple(token.filter((n) => !n.endsWith('-bin')), printable), weight: 6 },
  { arbitrary: fc.tuple(token.map((n) => `${n}-bin`), fc.oneof(fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b).toString('base64')), printable)), weight: 3 },
  { arbitrary: fc.tuple(fc.constantFrom('grpc-status', 'grpc-message', 'grpc-status-details-bin', 'user-agent', 'grpc-previous-rpc-attempts', 'x-sfdb-caller-node', 'x-sfdb-error-field', 'traceparent-bin'), printable), weight: 2 },
  { arbitrary: fc.tuple(fc.constantFrom('traceparent', 'tracestate'), fc.oneof(traceparent, printable, bigValue, fc.constant('a=b,c=d'))), weight: 2 },
  { arbitrary: fc.tuple(token, bigValue), weight: 1 },
);

const headersGen: Arbitrary<Record<string, string | string[] | undefined>> = fc
  .record({
    contentType: fc.oneof({ arbitrary: fc.constant('application/grpc'), weight: 12 }, fc.constantFrom('application/grpc+proto', 'application/grpc+json', 'application/json', 'text/plain', 'application/grpcx', '', undefined)),
    te: fc.oneof({ arbitrary: fc.constant('trailers'), weight: 12 }, fc.constant(undefined)),
    timeout: fc.oneof({ arbitrary: fc.constant(undefined), weight: 2 }, fc.constantFrom('2S', '500m', '100u', '1n', '99999999H', '0S', 'soon', '-1S', '1', '123456789S', '')),
    encoding: fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, fc.constantFrom('identity', 'gzip', 'deflate', 'br', 'snappy', 'GZIP', 'gzip, deflate', '')),
    accept: fc.oneof({ arbitrary: fc.constant(null), weight: 4 }, fc.constantFrom('gzip', 'identity,deflate,gzip', 'br', '', 'x'.repeat(300))),
    daemon: fc.oneof({ arbitrary: fc.constant('test'), weight: 10 }, fc.constant(undefined), printable, fc.constantFrom('QUEUES', 'a b', 'x'.repeat(100))),
    custom: fc.oneof({ arbitrary: fc.constant([]), weight: 2 }, fc.array(customHeader, { maxLength: 6 })),
    many: fc.oneof({ arbitrary: fc.constant(null), weight: 30 }, fc.integer({ min: 100, max: 400 })),
  })
  .map((h) => {
    const out: Record<string, string | string[] | undefined> = { 'content-type': h.contentType, te: h.te };
    if (h.timeout !== undefined) out['grpc-timeout'] = h.timeout;
    if (h.encoding !== undefined) out['grpc-encoding'] = h.encoding;
    if (h.accept !== null) out['grpc-accept-encoding'] = h.accept;
    if (h.daemon !== undefined) out['x-sfdb-caller-daemon'] = h.daemon;
    for (const [name, value] of h.custom) {
      const had = out[name];
      out[name] = had === undefined ? value : [...(Array.isArray(had) ? had : [had]), value];
    }
    for (let i = 0; i < (h.many ?? 0); i++) out[`x-m${i}`] = 'v'.repeat(20);
    return out;
  });

/** Protobuf-looking bytes: fields of any number and wire type, lengths that may lie. */
const protobufish: Arbitrary<Buffer> = fc
  .array(
    fc.oneof(
      fc.tuple(fc.integer({ min: 1, max: 40 }), fc.bigInt({ min: 0n, max: 2n ** 64n - 1n })).map(([f, v]) => Buffer.concat([tag(f, 0), varint(v)])),
      fc.tuple(fc.integer({ min: 1, max: 40 }), fc.uint8Array({ maxLength: 40 })).map(([f, b]) => lengthDelimited(f, Buffer.from(b))),
      fc.tuple(fc.integer({ min: 0, max: 600 }), fc.integer({ min: 0, max: 7 }), fc.uint8Array({ maxLength: 12 })).map(([f, wt, b]) => Buffer.concat([tag(f, wt), Buffer.from(b)])),
    ),
    { maxLength: 8 },
  )
  .map((parts) => Buffer.concat(parts));


/** A request message for `method` (or any, for a path that names none). */
function payloadGen(method: Method | undefined): Arbitrary<Buffer> {
  const random = fc.oneof(fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b)), protobufish, fc.constant(Buffer.alloc(0)));
  if (!method) return random;
  const valid = requestGen(method).map((r) => {
    try {
      return requestBytes(method.name, r);
    } catch {
      return Buffer.alloc(0);
    }
  });
  const bentGen = valid.chain((bytes) => bent(bytes, fieldsOf(method.requestType)).map((b) => b.bytes));
  return fc.oneof({ arbitrary: valid, weight: 3 }, { arbitrary: bentGen, weight: 2 }, { arbitrary: random, weight: 2 });
}

/** One gRPC message frame around `payload`: flag, compression, a length that may lie. */
function messageGen(payload: Arbitrary<Buffer>, encoding: string | undefined): Arbitrary<Buffer> {
  return fc
    .record({
      payload,
      flag: fc.oneof({ arbitrary: fc.constant(0), weight: 8 }, fc.constant(1), fc.integer({ min: 2, max: 255 })),
      compress: fc.boolean(),
      lie: fc.oneof({ arbitrary: fc.constant(undefined), weight: 8 }, fc.constantFrom(0, -1, 1, 100, 0xffffffff - 5, 5_000_000)),
    })
    .map(({ payload: p, flag, compress, lie }) => {
      let bytes = p;
      if (flag === 1 && compress && encoding === 'gzip') bytes = gzipSync(p);
      if (flag === 1 && compress && encoding === 'deflate') bytes = deflateSync(p);
      const length = lie === undefined ? bytes.length : Math.max(0, Math.min(0xffffffff, bytes.length + lie));
      return grpcFrame(bytes, { flag, length });
    });
}

/** Bytes split into up to four writes, maybe cut short at the end. */
function pieces(body: Buffer): Arbitrary<Buffer[]> {
  return fc.record({ cut: fc.oneof({ arbitrary: fc.constant(null), weight: 8 }, fc.nat({ max: 8 })), at: fc.array(fc.nat({ max: Math.max(0, body.length) }), { maxLength: 3 }) }).map(({ cut, at }) => {
    const b = cut === null ? body : body.subarray(0, Math.max(0, body.length - cut - 1));
    const points = [...new Set(at.filter((i) => i > 0 && i < b.length))].sort((x, y) => x - y);
    const out: Buffer[] = [];
    let from = 0;
    for (const p of [...points, b.length]) {
      out.push(b.subarray(from, p));
      from = p;
    }
    return out;
  });
}

const callGen: Arbitrary<CallCase> = fc.tuple(pathGen, headersGen).chain(([{ path, method }, headers]) => {
  const encoding = typeof headers['grpc-encoding'] === 'string' ? headers['grpc-encoding'] : undefined;
  const messages = fc.oneof({ arbitrary: fc.array(messageGen(payloadGen(method), encoding), { minLength: 1, maxLength: 1 }), weight: 8 }, fc.array(messageGen(payloadGen(method), encoding), { maxLength: 3 }));
  return fc.record({
    body: messages.chain((ms) => pieces(Buffer.concat(ms))),
    end: fc.oneof({ arbitrary: fc.constant(true), weight: 20 }, fc.constant(false)),
    cancel: fc.oneof({ arbitrary: fc.constant(false), weight: 20 }, fc.constant(true)),
  }).map((rest) => ({ path, headers, ...rest }));
});

const streamId = fc.oneof(fc.constantFrom(0, 1, 2, 3, 5, 0x7fffffff, 0x80000001), fc.nat({ max: 0x7fffffff }));
const requestBlock = fc.tuple(pathGen, fc.array(customHeader, { maxLength: 3 })).map(([{ path }, custom]) =>
  headerBlock([[':method', 'POST'], [':scheme', 'http'], [':path', path], [':authority', 'fuzz'], ['content-type', 'application/grpc'], ['te', 'trailers'], ['x-sfdb-caller-daemon', 'test'], ...custom]),
);

/** Raw frames: one of a kind node:http2 will not send, named for the report. */
const framesGen: Arbitrary<{ what: string; frames: RawFrame[] }> = fc.oneof(
  fc.array(fc.record({ type: fc.integer({ min: 0, max: 12 }), flags: fc.nat({ max: 255 }), stream: streamId, payload: fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b)) }), { minLength: 1, maxLength: 5 }).map((frames) => ({ what: 'random frames', frames })),
  fc.tuple(requestBlock, fc.boolean(), protobufish).map(([block, endHeaders, body]) => ({
    what: endHeaders ? 'a request by hand (HPACK literals)' : 'a header block never ended',
    frames: [{ type: FRAME.HEADERS, flags: endHeaders ? FLAG.END_HEADERS : 0, stream: 1, payload: block }, ...(endHeaders ? [{ type: FRAME.DATA, flags: FLAG.END_STREAM, stream: 1, payload: grpcFrame(body) }] : [])],
  })),
  fc.tuple(requestBlock, fc.integer({ min: 1, max: 40 })).map(([block, n]) => ({
    what: 'a header block in many CONTINUATION frames',
    frames: [{ type: FRAME.HEADERS, flags: 0, stream: 1, payload: block }, ...Array.from({ length: n }, (_, i) => ({ type: FRAME.CONTINUATION, flags: i === n - 1 ? FLAG.END_HEADERS : 0, stream: 1, payload: headerBlock([[`x-c${i}`, 'v'.repeat(100)]]) }))],
  })),
  fc.array(fc.tuple(fc.integer({ min: 0, max: 10 }), fc.nat({ max: 0xffffffff })), { minLength: 1, maxLength: 4 }).map((entries) => ({ what: 'SETTINGS of any values', frames: [{ type: FRAME.SETTINGS, flags: 0, stream: 0, payload: settingsPayload(entries) }] })),
  fc.tuple(fc.constantFrom(0, 1), fc.constantFrom(0, 1, 0x7fffffff)).map(([stream, inc]) => {
    const payload = Buffer.alloc(4);
    payload.writeUInt32BE(inc);
    return { what: `WINDOW_UPDATE +${inc} on stream ${stream}`, frames: [{ type: FRAME.WINDOW_UPDATE, flags: 0, stream, payload }, { type: FRAME.WINDOW_UPDATE, flags: 0, stream, payload }] };
  }),
  fc.constant<{ what: string; frames: RawFrame[] }>({ what: 'PRIORITY on itself, RST_STREAM on an idle stream, a PING, a GOAWAY', frames: [
    { type: FRAME.PRIORITY, flags: 0, stream: 3, payload: Buffer.from([0, 0, 0, 3, 16]) },
    { type: FRAME.RST_STREAM, flags: 0, stream: 7, payload: Buffer.from([0, 0, 0, 8]) },
    { type: FRAME.PING, flags: 0, stream: 0, payload: Buffer.alloc(8) },
    { type: FRAME.GOAWAY, flags: 0, stream: 0, payload: Buffer.alloc(8) },
  ] }),
);

/** A fuzz case: mostly calls on the fuzzer's connection (one to three at once), sometimes raw frames on a socket of their own. */
export const caseGen: Arbitrary<FuzzCase> = fc.oneof(
  { arbitrary: fc.array(callGen, { minLength: 1, maxLength: 3 }).map((calls) => ({ kind: 'calls' as const, calls })), weight: 9 },
  { arbitrary: framesGen.map((f) => ({ kind: 'frames' as const, ...f })), weight: 1 },
);
