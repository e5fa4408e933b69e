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
// Server side only: grpc-js makes a BaseServerInterceptingCall for each call its Server
// accepts (server.js, through getServerInterceptingCall) and nowhere else. A client call
// of this process reads its answer's headers in subchannel-call.js and decompresses it in
// compression-filter.js, neither touched here.
import { status } from '@grpc/grpc-js';
import type { Metadata } from '@grpc/grpc-js';
import { BaseServerInterceptingCall } from '@grpc/grpc-js/build/src/server-interceptors.js';

/** grpc-js's own test of a grpc-timeout value: what it fails, it answered INTERNAL. */
const GRPC_TIMEOUT = /(\d{1,8})\s*([HMSmun])/;
const BAD_TIMEOUT = Symbol('bad grpc-timeout');

/** A call's grpc-timeout that did not parse, by the call's metadata. */
const badTimeouts = new WeakMap<Metadata, string>();

/** Message bytes that did not decompress, standing for the message: their encoding. */
const undecodable = new WeakMap<Buffer, string>();

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
    if (bad !== undefined) badTimeouts.set(this.metadata, bad);
    start.call(this, listener);
  };
  const decompressMessage = proto.decompressMessage;
  proto.decompressMessage = function (this: BaseCall, message: Buffer, encoding: string): Buffer | Promise<Buffer> {
    const result = decompressMessage.call(this, message, encoding);
    if (!(result instanceof Promise)) return result;
    return result.catch((err: unknown) => {
      // INTERNAL is grpc-js's answer for bytes that do not decompress; others (an encoding
      // it lacks: UNIMPLEMENTED, a bomb: RESOURCE_EXHAUSTED) stand. The empty buffer goes
      // on to the request deserializer, which asks undecodableEncoding() about it.
      if ((err as { code?: number } | null)?.code !== status.INTERNAL) throw err;
      const marker = Buffer.alloc(0);
      undecodable.set(marker, encoding);
      return marker;
    });
  };
  installed = true;
}

/** The grpc-timeout value of the call with this metadata, when it did not parse. */
export function badTimeout(metadata: Metadata): string | undefined {
  return badTimeouts.get(metadata);
}

/** The grpc-encoding, when `bytes` stand for a message that did not decompress with it. */
export function undecodableEncoding(bytes: Buffer): string | undefined {
  return undecodable.get(bytes);
}
