// Admitting a call: every check between a request on the wire and its handler, in the
// order a call meets them, and what each answers. grpc-js hands a call over in stages;
// each check runs at the first stage it can, and the first that fails answers.
//
//   stage           step                   refused with
//   headers         1. header size         over SFDB_GRPC_MAX_METADATA_BYTES: the stream is reset
//                                          (a grpc-js client reports RESOURCE_EXHAUSTED); a field
//                                          over 64 KiB or a block over 144 KiB encoded ends the
//                                          connection (nghttp2's; docs/deploying.md)
//   metadata        2. caller headers      INVALID_ARGUMENT naming the header, on every service
//   message         3. message size        grpc-js's own: over 4 MiB, as sent or decompressed,
//                                          RESOURCE_EXHAUSTED; an encoding it lacks, UNIMPLEMENTED
//                   4. message bytes       not yet: a message that does not decompress, does not
//                                          decode or holds a string that is not UTF-8 is marked
//                                          (grpc-js alone would answer INTERNAL)
//   before handler  5. the marked message  INVALID_ARGUMENT: grpc-encoding, request, or the field
//                   6. grpc-timeout        INVALID_ARGUMENT: grpc-timeout (grpc-js: INTERNAL)
//                   7. identity (mTLS)     PERMISSION_DENIED, counted by reason, logged per peer: the
//                                          claims and what the request asks (an operator hold) against
//                                          the certificate (tls.ts)
//                   8. answer backlog      RESOURCE_EXHAUSTED with a pushback, no effect, counted:
//                                          the connection leaves too many answer bytes unread
//                                          (backlog.ts; also checked again at the answer)
//                   9. rate limits         RESOURCE_EXHAUSTED with a pushback, no effect, counted
//   handler        10. validation          INVALID_ARGUMENT naming the field (server/validate.ts,
//                                          called by each family's handlers)
//
// Every refusal is an answer like any other: the call interceptor (interceptors.ts)
// measures it, and none runs a statement. Steps 2, 4 and 6 read what grpc-js would drop
// or answer itself, made visible by the grpc-js boundary (grpc-js/README.md).
import type * as grpc from '@grpc/grpc-js';
import type { Caller } from '../caller.js';
import { InvalidArgumentError, PermissionDeniedError, ResourceExhaustedError, echo } from '../errors.js';
import { callerHeaderFault } from './caller-headers.js';
import { installRequestMetadataChecks } from './grpc-js/request-metadata.js';
import { limitHeaderList } from './grpc-js/server-fields.js';
import { badTimeout, installServerCallFaults, undecodableEncoding } from './grpc-js/server-call.js';
import type { AnswerBacklogs, BacklogRefusal } from './backlog.js';
import { boundGrpcJsStatuses } from './grpc-js/status-details.js';
import type { CallerRateLimits } from './rate-limit.js';
import { callIdentities, checkCaller } from './tls.js';
import type { Denial } from './tls.js';
import { Utf8Plans, invalidUtf8Field, unexplainedReplacement } from './grpc-js/protobufjs-utf8.js';
import type { Definitions } from './grpc-js/protobufjs-utf8.js';

/** Before the server binds: step 1's limit, grpc-js made to show what steps 2, 4 and 6 read, and its own error texts bounded (once per process). */
export function prepareAdmission(server: grpc.Server, maxMetadataBytes: number): void {
  installRequestMetadataChecks();
  installServerCallFaults();
  boundGrpcJsStatuses();
  limitHeaderList(server, maxMetadataBytes);
}

/** 2. When a call's metadata arrives (the call interceptor asks, for every service). */
export function admitMetadata(metadata: grpc.Metadata): InvalidArgumentError | undefined {
  return callerHeaderFault(metadata);
}

// 4. When the message arrives: the service's request deserializers, made total.

const MALFORMED = Symbol('malformed request');

/** What the deserializer gives for a message it cannot admit: step 5 refuses it. */
interface Malformed {
  /** field: 'request' (the bytes do not decode), 'grpc-encoding', or a field path. */
  readonly [MALFORMED]: { field: string; reason: string };
}

function malformed(field: string, reason: string): Malformed {
  return { [MALFORMED]: { field, reason } };
}

/** What proto-loader keeps of a method's request type. */
interface RequestType {
  requestType?: { type?: { name?: string } };
}

/**
 * The service definition with every request deserializer made total: a message that did
 * not decompress, does not decode, or holds a string that is not UTF-8 becomes a marker.
 * `definitions` is proto-loader's package definition (the request messages' descriptors),
 * `pkg` the package the service's messages live in.
 */
export function admittingDeserializers(service: grpc.ServiceDefinition, definitions: Definitions, pkg: string): grpc.ServiceDefinition {
  const plans = new Utf8Plans(definitions, pkg);
  const out: Record<string, grpc.MethodDefinition<unknown, unknown>> = {};
  for (const [name, method] of Object.entries(service)) {
    const decode = method.requestDeserialize;
    const typeName = (method as RequestType).requestType?.type?.name;
    if (typeName === undefined) throw new Error(`${name}: proto-loader gave no request type; server/grpc/admission.ts needs updating`);
    const plan = plans.plan(`${pkg}.${typeName}`);
    out[name] = {
      ...method,
      requestDeserialize: (bytes: Buffer): unknown => {
        const encoding = undecodableEncoding(bytes);
        if (encoding !== undefined) return malformed('grpc-encoding', `the message does not decompress as ${encoding}`);
        let request: unknown;
        try {
          request = decode(bytes);
        } catch (err) {
          return malformed('request', (err as Error).message);
        }
        // The field the walk names; the whole request if only the decoded text shows it.
        const notUtf8 = invalidUtf8Field(plan, bytes) ?? (unexplainedReplacement(request, bytes) ? 'request' : undefined);
        if (notUtf8 !== undefined) return malformed(notUtf8, 'not valid UTF-8');
        return request;
      },
    };
  }
  return out;
}

// 5 to 9. Before the handler of a Database call (the unary adapter asks).

export interface AdmissionDeps {
  /** mTLS is on: every call's certificate identity is checked against its claims. */
  readonly tls?: boolean;
  /** Told of each call refused by the identity check (metrics, a log line per peer). */
  readonly onDenied?: (denial: Denial, peer: string) => void;
  /** Per-caller token buckets; a refused call never reaches its handler. */
  readonly limits?: CallerRateLimits;
  /** Told of each refused call (metrics). */
  readonly onRateLimited?: (limit: 'node' | 'daemon', caller: Caller) => void;
  /** The connections' unread answers; a call (or answer) on one over its cap is refused. */
  readonly backlogs?: AnswerBacklogs;
  /** Told of each call or answer the backlog refused (metrics). */
  readonly onBacklogRefused?: (reason: BacklogRefusal) => void;
}

/** The first refusal of steps 5 to 9 for a call of `operation` by `caller`, or undefined: its handler runs. */
export function admitCall(call: grpc.ServerUnaryCall<unknown, unknown>, caller: Caller, operation: string, deps: AdmissionDeps): Error | undefined {
  return (
    markedMessage(call.request, operation) ??
    unparsedTimeout(call.metadata) ??
    deniedIdentity(call, caller, operation, deps) ??
    overBacklog(call, deps) ??
    overRateLimit(call, caller, deps)
  );
}

/** 5. What step 4 marked. */
function markedMessage(request: unknown, operation: string): InvalidArgumentError | undefined {
  if (typeof request !== 'object' || request === null || !(MALFORMED in request)) return undefined;
  const { field, reason } = (request as Malformed)[MALFORMED];
  return new InvalidArgumentError(field, field === 'request' ? `not a valid ${operation} request message (${reason})` : reason);
}

/** 6. A grpc-timeout that does not parse (grpc-js set no deadline for it). */
function unparsedTimeout(metadata: grpc.Metadata): InvalidArgumentError | undefined {
  const bad = badTimeout(metadata);
  if (bad === undefined) return undefined;
  return new InvalidArgumentError('grpc-timeout', `${echo(bad, 40)} is not a gRPC timeout (1 to 8 digits and a unit: H M S m u n)`);
}

/** 7. With mTLS: the claims against the client certificate (tls.ts). */
function deniedIdentity(call: grpc.ServerUnaryCall<unknown, unknown>, caller: Caller, operation: string, deps: AdmissionDeps): PermissionDeniedError | undefined {
  if (!deps.tls) return undefined;
  const denial = checkCaller(callIdentities(call), caller, operation, call.request);
  if (!denial) return undefined;
  deps.onDenied?.(denial, call.getPeer());
  return new PermissionDeniedError(denial.message);
}

/** Pushback of a backlog refusal: long enough for a reader to take a few MB off its connection. */
const BACKLOG_PUSHBACK_MS = 1_000;

/** 8. The call's connection (or the replica) holds too many unread answer bytes (backlog.ts); also asked at the answer. */
export function overBacklog(call: { getPeer(): string }, deps: AdmissionDeps): ResourceExhaustedError | undefined {
  const reason = deps.backlogs?.refusal(call.getPeer());
  if (reason === undefined) return undefined;
  deps.onBacklogRefused?.(reason);
  const whose = reason === 'connection_backlog' ? 'this connection has' : 'this connection and the replica have';
  return new ResourceExhaustedError(`${whose} too many answer bytes the client has not read; read them, or retry after the pushback`, BACKLOG_PUSHBACK_MS, true);
}

/** 9. The caller's token buckets (rate-limit.ts); the refusal itself ran nothing. */
function overRateLimit(call: grpc.ServerUnaryCall<unknown, unknown>, caller: Caller, deps: AdmissionDeps): ResourceExhaustedError | undefined {
  const verdict = deps.limits?.check(caller.node, caller.daemon, call);
  if (!verdict?.refusedBy) return undefined;
  deps.onRateLimited?.(verdict.refusedBy, caller);
  const who = verdict.refusedBy === 'node' ? 'this caller node' : 'this daemon of its node';
  return new ResourceExhaustedError(`rate limit: ${who} is over its calls per second; retry after the pushback`, verdict.pushbackMs, true);
}
