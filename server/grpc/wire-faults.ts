// Two client faults that grpc-js answers with INTERNAL from its base call, beneath every
// interceptor: a grpc-timeout header that does not parse, and a message whose bytes do
// not decompress with its grpc-encoding. Both are the caller's bad input, never the server
// failing, and INTERNAL would tell an operator otherwise. grpc-js has no hook for either,
// so installWireFaultAnswers() wraps three methods of its BaseServerInterceptingCall, once
// per process. It throws if grpc-js no longer has them, so an upgrade that moves them
// fails the tests, not production. The fault is recorded, the call goes on to the Database
// service's unary adapter, and the adapter refuses it as INVALID_ARGUMENT naming the header:
// counted like any other refusal. (Health and reflection calls with a bad grpc-timeout
// are served, without a deadline.)
import { status } from '@grpc/grpc-js';
import type { Metadata } from '@grpc/grpc-js';
import { BaseServerInterceptingCall } from '@grpc/grpc-js/build/src/server-interceptors.js';

/** Set by the wrapped base call on a call's metadata (after removing any a client sent). */
const WIRE_FAULT_KEY = 'x-sfdb-wire-fault';
/** grpc-js's own test of a grpc-timeout value: what it fails, it answered INTERNAL. */
const GRPC_TIMEOUT = /(\d{1,8})\s*([HMSmun])/;
const BAD_TIMEOUT = Symbol('bad grpc-timeout');

/** Message bytes that did not decompress: the tolerant deserializer turns them into a refusal. */
const undecodable = new WeakSet<Buffer>();

interface BaseCall {
  [BAD_TIMEOUT]?: string;
  metadata: Metadata;
  incomingEncoding?: string;
  handleTimeoutHeader(value: unknown): void;
  start(listener: unknown): void;
  decompressMessage(message: Buffer, encoding: string): Buffer | Promise<Buffer>;
}

let installed = false;

export function installWireFaultAnswers(): void {
  if (installed) return;
  const proto = BaseServerInterceptingCall.prototype as unknown as BaseCall;
  for (const name of ['handleTimeoutHeader', 'start', 'decompressMessage'] as const) {
    if (typeof proto[name] !== 'function') {
      throw new Error(`@grpc/grpc-js no longer has BaseServerInterceptingCall.${name}: server/grpc/wire-faults.ts needs updating`);
    }
  }
  const handleTimeoutHeader = proto.handleTimeoutHeader;
  proto.handleTimeoutHeader = function (this: BaseCall, value: unknown): void {
    if (GRPC_TIMEOUT.test(String(value))) {
      handleTimeoutHeader.call(this, value);
      return;
    }
    // No deadline, and no INTERNAL: refused by the unary adapter.
    this[BAD_TIMEOUT] = String(value);
  };
  const start = proto.start;
  proto.start = function (this: BaseCall, listener: unknown): void {
    this.metadata.remove(WIRE_FAULT_KEY);
    const bad = this[BAD_TIMEOUT];
    if (bad !== undefined) {
      this.metadata.set(WIRE_FAULT_KEY, `grpc-timeout: ${JSON.stringify(bad.slice(0, 40))} is not a gRPC timeout (1 to 8 digits and a unit: H M S m u n)`);
    }
    start.call(this, listener);
  };
  const decompressMessage = proto.decompressMessage;
  proto.decompressMessage = function (this: BaseCall, message: Buffer, encoding: string): Buffer | Promise<Buffer> {
    const result = decompressMessage.call(this, message, encoding);
    if (!(result instanceof Promise)) return result;
    return result.catch((err: unknown) => {
      // INTERNAL is grpc-js's answer for bytes that do not decompress; others (an encoding
      // it lacks: UNIMPLEMENTED, a bomb: RESOURCE_EXHAUSTED) stand.
      if ((err as { code?: number } | null)?.code !== status.INTERNAL) throw err;
      const marker = Buffer.from(`the message does not decompress as ${encoding}`);
      undecodable.add(marker);
      return marker;
    });
  };
  installed = true;
}

/** The wire fault recorded on a call, as an INVALID_ARGUMENT message naming the header. */
export function wireFault(metadata: Metadata): string | undefined {
  const value = metadata.get(WIRE_FAULT_KEY)[0];
  return value === undefined ? undefined : String(value);
}

/** The reason, when `bytes` stand for a message that did not decompress. */
export function undecodableReason(bytes: Buffer): string | undefined {
  return undecodable.has(bytes) ? bytes.toString() : undefined;
}
