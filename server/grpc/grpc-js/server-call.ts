// Two client faults that grpc-js answers with INTERNAL from its base server call, beneath
// every interceptor: a grpc-timeout header that does not parse, and a message whose bytes
// do not decompress with its grpc-encoding. Both are the caller's bad input, never the
// server failing, and INTERNAL would tell an operator otherwise. grpc-js has no hook for
// either, so installServerCallFaults() wraps three methods of its BaseServerInterceptingCall
// (server-interceptors.js, not exported by the package), once per process. It throws if
// grpc-js no longer has them, so an upgrade that moves them fails the tests, not
// production. The fault is only recorded here; the tier's admission (../admission.ts)
// refuses the call as INVALID_ARGUMENT naming the header. (Health and reflection calls
// with a bad grpc-timeout are served, without a deadline.)
//
// Each record fails closed if grpc-js ever copies what carries it. The bad grpc-timeout
// is a mark on the call's Metadata (call-marks.ts), which a copy keeps. A message that did
// not decompress is handed on as bytes no protobuf decoder accepts (a tag of wire type 7)
// that also carry its encoding under a symbol: a copy loses the symbol, not the bytes,
// and is refused as a request that does not decode (INVALID_ARGUMENT `request`) instead
// of naming grpc-encoding — never served as an empty request.
//
// Server side only: grpc-js makes a BaseServerInterceptingCall for each call its Server
// accepts (server.js, through getServerInterceptingCall) and nowhere else. A client call
// of this process reads its answer's headers in subchannel-call.js and decompresses it in
// compression-filter.js, neither touched here.
import { Metadata, status } from '@grpc/grpc-js';
import { BaseServerInterceptingCall } from '@grpc/grpc-js/build/src/server-interceptors.js';
import { BAD_TIMEOUT_MARK, readMark, setMark } from './call-marks.js';

/** grpc-js's own test of a grpc-timeout value: what it fails, it answered INTERNAL. */
const GRPC_TIMEOUT = /(\d{1,8})\s*([HMSmun])/;
const BAD_TIMEOUT = Symbol('bad grpc-timeout');

/** On the bytes handed on for a message that did not decompress: its grpc-encoding. */
const UNDECOMPRESSED = Symbol('message that did not decompress');
/** Field 0, wire type 7: a tag every protobuf decoder refuses (protobufjs: "invalid wire type 7"). */
const NOT_A_MESSAGE = 0x07;

interface BaseCall {
  [BAD_TIMEOUT]?: string;
  metadata: Metadata;
  handleTimeoutHeader(value: unknown): void;
  start(listener: unknown): void;
  decompressMessage(message: Buffer, encoding: string): Buffer | Promise<Buffer>;
}

let installed = false;

export function installServerCallFaults(): void {
  if (installed) return;
  const proto = BaseServerInterceptingCall.prototype as unknown as BaseCall;
  for (const name of ['handleTimeoutHeader', 'start', 'decompressMessage'] as const) {
    if (typeof proto[name] !== 'function') {
      throw new Error(`@grpc/grpc-js no longer has BaseServerInterceptingCall.${name}: server/grpc/grpc-js/server-call.ts needs updating`);
    }
  }
  const handleTimeoutHeader = proto.handleTimeoutHeader;
  proto.handleTimeoutHeader = function (this: BaseCall, value: unknown): void {
    if (GRPC_TIMEOUT.test(String(value))) {
      handleTimeoutHeader.call(this, value);
      return;
    }
    // No deadline, and no INTERNAL. Called from the constructor, before the call has its
    // metadata: kept on the call until start() hands the metadata on.
    this[BAD_TIMEOUT] = String(value);
  };
  const start = proto.start;
  proto.start = function (this: BaseCall, listener: unknown): void {
    const bad = this[BAD_TIMEOUT];
    if (bad !== undefined) {
      // A grpc-js whose call keeps its metadata elsewhere answers as it would have (INTERNAL):
      // refused all the same, and the boundary tests fail on the code.
      if (!(this.metadata instanceof Metadata)) handleTimeoutHeader.call(this, bad);
      else setMark(this.metadata, BAD_TIMEOUT_MARK, bad);
    }
    start.call(this, listener);
  };
  const decompressMessage = proto.decompressMessage;
  proto.decompressMessage = function (this: BaseCall, message: Buffer, encoding: string): Buffer | Promise<Buffer> {
    const result = decompressMessage.call(this, message, encoding);
    if (!(result instanceof Promise)) return result;
    return result.catch((err: unknown) => {
      // INTERNAL is grpc-js's answer for bytes that do not decompress; others (an encoding
      // it lacks: UNIMPLEMENTED, a bomb: RESOURCE_EXHAUSTED) stand. The marker goes on to
      // the request deserializer, which asks undecodableEncoding() about it.
      if ((err as { code?: number } | null)?.code !== status.INTERNAL) throw err;
      return Object.defineProperty(Buffer.from([NOT_A_MESSAGE]), UNDECOMPRESSED, { value: encoding });
    });
  };
  installed = true;
}

/** The grpc-timeout value of the call with this metadata, when it did not parse. */
export function badTimeout(metadata: Metadata): string | undefined {
  return readMark(metadata, BAD_TIMEOUT_MARK);
}

/** The grpc-encoding, when `bytes` stand for a message that did not decompress with it. */
export function undecodableEncoding(bytes: Buffer): string | undefined {
  return (bytes as Buffer & { [UNDECOMPRESSED]?: string })[UNDECOMPRESSED];
}
