// A request whose bytes do not decode as its message. grpc-js answers a deserializer that
// throws with INTERNAL, from underneath the interceptors (no status reaches the metrics
// interceptor, so the in-flight gauge never fell). Here the deserializer never throws: a
// malformed request arrives at the unary adapter as a marker and is refused there as
// INVALID_ARGUMENT, through the normal path. So does a message that did not decompress
// (see wire-faults.ts): its field is grpc-encoding.
import type * as grpc from '@grpc/grpc-js';
import { undecodableReason } from './wire-faults.js';

const MALFORMED = Symbol('malformed request');

export interface Malformed {
  readonly [MALFORMED]: { field: 'request' | 'grpc-encoding'; reason: string };
}

export function isMalformed(request: unknown): request is Malformed {
  return typeof request === 'object' && request !== null && MALFORMED in request;
}

/** The INVALID_ARGUMENT message for a malformed request of `operation`. */
export function malformedDetails(request: Malformed, operation: string): string {
  const { field, reason } = request[MALFORMED];
  return field === 'request' ? `request: not a valid ${operation} request message (${reason})` : `${field}: ${reason}`;
}

/** The service definition with every request deserializer made total. */
export function tolerantDeserializers(service: grpc.ServiceDefinition): grpc.ServiceDefinition {
  const out: Record<string, grpc.MethodDefinition<unknown, unknown>> = {};
  for (const [name, method] of Object.entries(service)) {
    const decode = method.requestDeserialize;
    out[name] = {
      ...method,
      requestDeserialize: (bytes: Buffer): unknown => {
        const undecodable = undecodableReason(bytes);
        if (undecodable !== undefined) return { [MALFORMED]: { field: 'grpc-encoding', reason: undecodable } } satisfies Malformed;
        try {
          return decode(bytes);
        } catch (err) {
          return { [MALFORMED]: { field: 'request', reason: (err as Error).message } } satisfies Malformed;
        }
      },
    };
  }
  return out;
}
