// A request whose bytes do not decode as its message. grpc-js answers a deserializer that
// throws with INTERNAL, from underneath the interceptors (no status reaches the metrics
// interceptor, so the in-flight gauge never fell). Here the deserializer never throws: a
// malformed request arrives at the unary adapter as a marker and is refused there as
// INVALID_ARGUMENT, through the normal path. So does a message that did not decompress
// (see wire-faults.ts): its field is grpc-encoding; and one with a string field that is
// not UTF-8 (see utf8-fields.ts): its field is that field's path.
import type * as grpc from '@grpc/grpc-js';
import { Utf8Plans, invalidUtf8Field } from './utf8-fields.js';
import type { Definitions } from './utf8-fields.js';
import { undecodableReason } from './wire-faults.js';

const MALFORMED = Symbol('malformed request');

export interface Malformed {
  /** field: 'request' (the bytes do not decode), 'grpc-encoding', or a field path. */
  readonly [MALFORMED]: { field: string; reason: string };
}

export function isMalformed(request: unknown): request is Malformed {
  return typeof request === 'object' && request !== null && MALFORMED in request;
}

/** The INVALID_ARGUMENT message for a malformed request of `operation`. */
export function malformedDetails(request: Malformed, operation: string): string {
  const { field, reason } = request[MALFORMED];
  return field === 'request' ? `request: not a valid ${operation} request message (${reason})` : `${field}: ${reason}`;
}

/** What proto-loader keeps of a method's request type. */
interface RequestType {
  requestType?: { type?: { name?: string } };
}

/**
 * The service definition with every request deserializer made total, and refusing
 * strings that are not UTF-8. `definitions` is proto-loader's package definition (the
 * request messages' descriptors), `pkg` the package the service's messages live in.
 */
export function tolerantDeserializers(service: grpc.ServiceDefinition, definitions: Definitions, pkg: string): grpc.ServiceDefinition {
  const plans = new Utf8Plans(definitions, pkg);
  const out: Record<string, grpc.MethodDefinition<unknown, unknown>> = {};
  for (const [name, method] of Object.entries(service)) {
    const decode = method.requestDeserialize;
    const typeName = (method as RequestType).requestType?.type?.name;
    if (typeName === undefined) throw new Error(`${name}: proto-loader gave no request type; server/grpc/malformed.ts needs updating`);
    const plan = plans.plan(`${pkg}.${typeName}`);
    out[name] = {
      ...method,
      requestDeserialize: (bytes: Buffer): unknown => {
        const undecodable = undecodableReason(bytes);
        if (undecodable !== undefined) return { [MALFORMED]: { field: 'grpc-encoding', reason: undecodable } } satisfies Malformed;
        let request: unknown;
        try {
          request = decode(bytes);
        } catch (err) {
          return { [MALFORMED]: { field: 'request', reason: (err as Error).message } } satisfies Malformed;
        }
        const notUtf8 = invalidUtf8Field(plan, bytes);
        if (notUtf8 !== undefined) return { [MALFORMED]: { field: notUtf8, reason: 'not valid UTF-8' } } satisfies Malformed;
        return request;
      },
    };
  }
  return out;
}
