// What the properties accept as an answer, shared by the RPC-level and the wire-level
// tests.
import { expect } from 'vitest';
import { codeName } from './raw.js';
import type { Answer } from './raw.js';
import { namesAField } from './schema.js';

/** Deliberate answers to bad or conflicting input. INTERNAL, UNKNOWN, UNAVAILABLE are not. */
export const ACCEPTABLE: ReadonlySet<string> = new Set([
  'OK',
  'INVALID_ARGUMENT',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'FAILED_PRECONDITION',
  'ABORTED',
  'OUT_OF_RANGE',
  'RESOURCE_EXHAUSTED',
  'PERMISSION_DENIED',
]);

/** The field an INVALID_ARGUMENT's details name: the text before the first ':'. */
export function detailsField(details: string): string {
  const i = details.indexOf(':');
  return i > 0 ? details.slice(0, i) : '';
}

export interface Verdict {
  /** For failure messages: the call as sent. */
  what: string;
  answer: Answer;
  /** The request message's full name (`sfdb.v1.GetNodeRequest`). */
  requestType: string;
  /** The request as the tier decoded it, or undefined when its bytes do not decode. */
  request: Record<string, unknown> | undefined;
  /** Tables the call changed (checksums before and after). */
  changed: readonly string[];
  /** Header fields an INVALID_ARGUMENT may name besides the request's (a malformed caller header). */
  headers?: readonly string[];
  /** Codes besides ACCEPTABLE this call may answer. */
  alsoAcceptable?: readonly string[];
}

/** The properties every answer must have; throws (vitest expect) when one does not hold. */
export function expectDeliberate(v: Verdict): void {
  const code = codeName(v.answer.code);
  const what = `${v.what} answered ${code} "${v.answer.details}"`;
  expect(ACCEPTABLE.has(code) || (v.alsoAcceptable ?? []).includes(code), `${what}: not a deliberate answer`).toBe(true);
  if (code === 'OK') expect(v.answer.decodeError, `${what}: the response does not decode`).toBeUndefined();
  if (code === 'INVALID_ARGUMENT' || code === 'NOT_FOUND') {
    const field = detailsField(v.answer.details);
    const named =
      (v.headers ?? []).includes(field) || (v.request === undefined ? field === 'request' : namesAField(v.requestType, v.request, field));
    // INVALID_ARGUMENT names the bad field; NOT_FOUND the field naming what does not exist.
    expect(named, `${what}: the details do not start with a field of the request`).toBe(true);
    // The field travels structured too (proto/errors.ts): a client never splits the details.
    expect(v.answer.field, `${what}: the x-sfdb-error-field trailer`).toBe(field);
  }
  if (code !== 'OK') expect(v.changed, `${what}: a refused call changed rows`).toEqual([]);
}
