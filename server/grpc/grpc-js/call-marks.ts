// Marks this folder leaves on a request's Metadata for admission (../admission.ts) to read:
// what grpc-js would have hidden from the tier (a header it drops, a grpc-timeout it
// answers INTERNAL); and the one the call layer leaves for the unary adapter (a traced
// call's id, ../call-trace.ts).
//
// A mark is an entry of the Metadata itself, not a WeakMap keyed by the object: grpc-js
// could hand the interceptor or the handler a copy (Metadata.clone() copies entries), and
// a lookup by identity would then find nothing and let the call through. Its key starts
// with ':', which no request can carry: HTTP/2 allows a request only the pseudo-headers
// it defines (nghttp2 refuses a stream with another, RFC 9113 §8.3), and grpc-js's
// Metadata.fromHttp2Headers skips every key starting with ':' besides. Such a key is
// legal in grpc-js's Metadata (its key rule, metadata.js, allows ':').
import type { Metadata } from '@grpc/grpc-js';

/** The keys of a request's headers grpc-js would have dropped, comma-separated (header names hold no comma). */
export const DROPPED_KEYS_MARK = ':sfdb-dropped-keys';
/** A request's grpc-timeout that does not parse. */
export const BAD_TIMEOUT_MARK = ':sfdb-bad-grpc-timeout';
/** A traced call's id, left by the call layer for the unary adapter to find its trace (../call-trace.ts). */
export const CALL_MARK = ':sfdb-call';

type Mark = typeof DROPPED_KEYS_MARK | typeof BAD_TIMEOUT_MARK | typeof CALL_MARK;

export function setMark(metadata: Metadata, mark: Mark, value: string): void {
  metadata.set(mark, value);
}

export function readMark(metadata: Metadata, mark: Mark): string | undefined {
  const value = metadata.get(mark)[0];
  return typeof value === 'string' ? value : undefined;
}
