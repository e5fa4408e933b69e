// A request whose bytes do not decode as its message. grpc-js answers a deserializer that
// throws with INTERNAL, from underneath the interceptors (no status reaches the metrics
// interceptor, so the in-flight gauge never fell). Here the deserializer never throws: a
// malformed request arrives at the unary adapter as a marker and is refused there as
// INVALID_ARGUMENT, through the normal path.
import type * as grpc from '@grpc/grpc-js';

const MALFORMED = Symbol('malformed request');

export interface Malformed {
  readonly [MALFORMED]: string;
}

export function isMalformed(request: unknown): request is Malformed {
  return typeof request === 'object' && request !== null && MALFORMED in request;
}

export function malformedReason(request: Malformed): string {
  return request[MALFORMED];
}

/** The service definition with every request deserializer made total. */
export function tolerantDeserializers(service: grpc.ServiceDefinition): grpc.ServiceDefinition {
  const out: Record<string, grpc.MethodDefinition<unknown, unknown>> = {};
  for (const [name, method] of Object.entries(service)) {
    const decode = method.requestDeserialize;
    out[name] = {
      ...method,
      requestDeserialize: (bytes: Buffer): unknown => {
        try {
          return decode(bytes);
        } catch (err) {
          return { [MALFORMED]: (err as Error).message } satisfies Malformed;
        }
      },
    };
  }
  return out;
}
