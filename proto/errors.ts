// The contract's errors, written once. Each gRPC status has one row: the client's error
// class for it, whether the client sends the call again, whether the tier itself answers
// it, and what travels beside the details in the trailers. The tier's error classes
// (server/errors.ts) answer the status their row names; the client's (client/errors.ts)
// are chosen by it. The details stay the people's text (`node_uuid: node … does not
// exist`); what a program reads travels in trailers, through the readers below.
import { Metadata, status } from '@grpc/grpc-js';

/** The trailers a refusal may carry, and their keys (printable ASCII values only). */
export const ERROR_TRAILERS = {
  /** INVALID_ARGUMENT, NOT_FOUND: the request field (or header) at fault, as the details begin with it. */
  field: 'x-sfdb-error-field',
  /** RESOURCE_EXHAUSTED: how long to wait before retrying (ms), in gRPC's own key. */
  pushbackMs: 'grpc-retry-pushback-ms',
  /**
   * RESOURCE_EXHAUSTED, UNAVAILABLE: value '1' when the tier refused the call before
   * anything of it could take effect (a rate limit, the waiter cap, a full MariaDB pool
   * before any of its statements was sent, contention MariaDB rolled back), so even a
   * call that must not run twice may be sent again.
   */
  noEffect: 'x-sfdb-no-effect',
} as const;

export type ErrorTrailer = keyof typeof ERROR_TRAILERS;

/** The client classes of client/errors.ts, by name. */
export type ClientErrorName =
  | 'InvalidArgument'
  | 'NotFound'
  | 'Conflict'
  | 'Fenced'
  | 'OutOfRange'
  | 'PermissionDenied'
  | 'DatabaseUnavailable'
  | 'Unimplemented'
  | 'Internal';

/**
 * What the client does with a status. 'never': the error is the answer. The other two
 * retry a read or an idempotent write, and any call that never left the process or whose
 * refusal says noEffect (client/methods.ts), within the call's deadline: 'after backoff'
 * waits a jittered backoff, 'after pushback' the pushback the refusal names. A pushback
 * is honoured on either; without one, either waits the backoff.
 */
export type Retry = 'never' | 'after backoff' | 'after pushback';

export interface ErrorRow {
  readonly client: ClientErrorName;
  readonly retry: Retry;
  /** The tier answers it (a class of server/errors.ts); else only grpc-js or the network does. */
  readonly tier: boolean;
  /** What the tier sends beside the details; a part not listed is never sent. */
  readonly trailers: readonly ErrorTrailer[];
}

/** Every gRPC status name but OK: the rows of ERROR_TABLE. */
export type StatusName = Exclude<keyof typeof status, 'OK'>;

/** One row for every status but OK: the compiler refuses a table that misses one. */
export const ERROR_TABLE = {
  INVALID_ARGUMENT:    { client: 'InvalidArgument',     retry: 'never',          tier: true,  trailers: ['field'] },
  NOT_FOUND:           { client: 'NotFound',            retry: 'never',          tier: true,  trailers: ['field'] },
  ALREADY_EXISTS:      { client: 'Conflict',            retry: 'never',          tier: true,  trailers: [] },
  ABORTED:             { client: 'Conflict',            retry: 'never',          tier: true,  trailers: [] },
  FAILED_PRECONDITION: { client: 'Fenced',              retry: 'never',          tier: true,  trailers: [] },
  OUT_OF_RANGE:        { client: 'OutOfRange',          retry: 'never',          tier: true,  trailers: [] },
  PERMISSION_DENIED:   { client: 'PermissionDenied',    retry: 'never',          tier: true,  trailers: [] },
  RESOURCE_EXHAUSTED:  { client: 'DatabaseUnavailable', retry: 'after pushback', tier: true,  trailers: ['pushbackMs', 'noEffect'] },
  UNAVAILABLE:         { client: 'DatabaseUnavailable', retry: 'after backoff',  tier: true,  trailers: ['noEffect'] },
  INTERNAL:            { client: 'Internal',            retry: 'never',          tier: true,  trailers: [] },
  // A call's deadline passed: grpc-js's own timer, or the tier when the deadline passed
  // before a statement could start (or stopped it) — the caller's bound, never an outage.
  DEADLINE_EXCEEDED:   { client: 'DatabaseUnavailable', retry: 'never',          tier: true,  trailers: [] },
  // grpc-js's own (the call cancelled, a method this tier lacks), or whatever stands between.
  CANCELLED:           { client: 'DatabaseUnavailable', retry: 'never',          tier: false, trailers: [] },
  UNAUTHENTICATED:     { client: 'PermissionDenied',    retry: 'never',          tier: false, trailers: [] },
  UNIMPLEMENTED:       { client: 'Unimplemented',       retry: 'never',          tier: false, trailers: [] },
  UNKNOWN:             { client: 'Internal',            retry: 'never',          tier: false, trailers: [] },
  DATA_LOSS:           { client: 'Internal',            retry: 'never',          tier: false, trailers: [] },
} as const satisfies Record<StatusName, ErrorRow>;

/** ERROR_TABLE's type: each status's row, as written. */
export type ErrorTable = typeof ERROR_TABLE;

/** The statuses the tier answers: what its error classes may name. */
export type TierStatus = { [S in StatusName]: ErrorTable[S]['tier'] extends true ? S : never }[StatusName];

/** The row of a status code, or undefined for OK and codes gRPC does not define. */
export function errorRow(code: number): ErrorRow | undefined {
  // grpc-js's status is a numeric enum: indexed by its code, it gives the name.
  const name = (status as Record<number, string | undefined>)[code];
  return name !== undefined && Object.hasOwn(ERROR_TABLE, name) ? ERROR_TABLE[name as StatusName] : undefined;
}

/** The parts of a refusal that travel in trailers; each is sent only where its row lists it. */
export interface ErrorParts {
  readonly field?: string;
  readonly pushbackMs?: number;
  readonly noEffect?: boolean;
}

/**
 * The status the tier answers: code, details, and the trailers of its row (metadata only
 * when any). Every refusal the tier sends is made here, so here its text is bounded
 * (boundedDetails): however long a value the caller sent, the answer fits a client's
 * default header limits.
 */
export function errorStatus(name: TierStatus, details: string, parts: ErrorParts = {}): { code: status; details: string; metadata?: Metadata } {
  const field = parts.field === undefined ? undefined : boundedField(parts.field);
  const answer: { code: status; details: string; metadata?: Metadata } = { code: status[name], details: boundedDetails(details, parts.field) };
  for (const trailer of ERROR_TABLE[name].trailers as readonly ErrorTrailer[]) {
    const value = WRITE[trailer]({ ...parts, field });
    if (value === undefined) continue;
    answer.metadata ??= new Metadata();
    answer.metadata.set(ERROR_TRAILERS[trailer], value);
  }
  return answer;
}

/** The longest details the tier sends, in UTF-8 bytes (on the wire, percent-encoded, at most 3 times that). */
export const MAX_DETAILS_BYTES = 1024;
/** The longest field path the tier names, in the details and in the field trailer. */
export const MAX_FIELD_CHARS = 128;

/** `text` cut to at most `max` UTF-16 units, never between the two halves of a surrogate pair. */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

/** A field path over MAX_FIELD_CHARS, cut and marked ('...': the trailer is ASCII). */
function boundedField(field: string): string {
  return field.length <= MAX_FIELD_CHARS ? field : `${cutText(field, MAX_FIELD_CHARS - 3)}...`;
}

/** Lone UTF-16 surrogates: grpc-js's encodeURI of the details would throw on one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Details as the tier sends them: the field path first (cut like the trailer when over
 * MAX_FIELD_CHARS), the whole at most MAX_DETAILS_BYTES, cut at the end and its length
 * said ('… (70029 characters in all)'), lone surrogates replaced by U+FFFD. The values a
 * refusal echoes are cut where it is worded (server/errors.ts echo); this is the bound
 * that holds whatever a message says.
 */
export function boundedDetails(details: string, field?: string): string {
  let text = details.replace(LONE_SURROGATE, '\uFFFD');
  if (field !== undefined && field.length > MAX_FIELD_CHARS && text.startsWith(field)) text = boundedField(field) + text.slice(field.length);
  if (Buffer.byteLength(text, 'utf8') <= MAX_DETAILS_BYTES) return text;
  const suffix = `… (${details.length} characters in all)`;
  return utf8Head(text, MAX_DETAILS_BYTES - Buffer.byteLength(suffix, 'utf8')) + suffix;
}

/** The longest start of `text` (well formed) that is at most `maxBytes` in UTF-8. */
function utf8Head(text: string, maxBytes: number): string {
  let bytes = 0;
  let i = 0;
  while (i < text.length) {
    const c = text.codePointAt(i) as number;
    const n = c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
    if (bytes + n > maxBytes) break;
    bytes += n;
    i += c > 0xffff ? 2 : 1;
  }
  return text.slice(0, i);
}

/** grpc-js refuses (throws on) a metadata value that is not printable ASCII. */
const PRINTABLE = /^[ -~]+$/;

const WRITE: Record<ErrorTrailer, (parts: ErrorParts) => string | undefined> = {
  // Field names are the contract's own (`events[2].extra`, `x-sfdb-caller-node`): ASCII.
  // One that were not would go without its trailer rather than fail the answer.
  field: ({ field }) => (field !== undefined && PRINTABLE.test(field) ? field : undefined),
  pushbackMs: ({ pushbackMs }) => (pushbackMs === undefined ? undefined : String(pushbackMs)),
  noEffect: ({ noEffect }) => (noEffect ? '1' : undefined),
};

/** Trailers as grpc-js gives them (a ServiceError's metadata), or anything that reads alike. */
export interface Trailers {
  get(key: string): readonly unknown[];
}

function first(trailers: Trailers | undefined, trailer: ErrorTrailer): string | undefined {
  const value = trailers?.get(ERROR_TRAILERS[trailer])[0];
  return typeof value === 'string' ? value : undefined;
}

/** The request field a refusal names (INVALID_ARGUMENT, NOT_FOUND); '' when it names none. */
export function errorField(trailers: Trailers | undefined): string {
  return first(trailers, 'field') ?? '';
}

/** The pushback a refusal names (ms), if any. */
export function pushbackMs(trailers: Trailers | undefined): number | undefined {
  const value = first(trailers, 'pushbackMs');
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined;
}

/** The tier refused the call before anything of it took effect. */
export function noEffect(trailers: Trailers | undefined): boolean {
  return first(trailers, 'noEffect') === '1';
}
