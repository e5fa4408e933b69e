// Error texts are bounded where every refusal is made (proto/errors.ts errorStatus): a
// value echoed in a refusal is cut with its length said (server/errors.ts echo), the whole
// details are at most MAX_DETAILS_BYTES with the field path first, and the field trailer
// is at most MAX_FIELD_CHARS. The same over the wire, for every RPC: the property test
// test/property/error-texts.test.ts.
import { describe, expect, it } from 'vitest';
import { ERROR_TRAILERS, MAX_DETAILS_BYTES, MAX_FIELD_CHARS, boundedDetails, errorStatus } from '../../proto/errors.js';
import { echo } from '../../server/errors.js';

const bytes = (s: string): number => Buffer.byteLength(s, 'utf8');

describe('echo', () => {
  it('quotes a short value whole, and cuts a long one saying its length', () => {
    expect(echo('fqdn')).toBe('"fqdn"');
    expect(echo('a"b')).toBe('"a\\"b"');
    expect(echo('a'.repeat(70_000))).toBe(`"${'a'.repeat(64)}…" (70000 characters)`);
    expect(echo('abcdef', 4)).toBe('"abcd…" (6 characters)');
  });

  it('never cuts between the halves of a surrogate pair', () => {
    const cut = echo('\u{1F600}'.repeat(100), 5);
    expect(cut).toBe(`"${'\u{1F600}'.repeat(2)}…" (200 characters)`);
  });
});

describe('boundedDetails', () => {
  it('leaves a short message as it is', () => {
    expect(boundedDetails('uuid: required', 'uuid')).toBe('uuid: required');
  });

  it(`cuts a long one to ${MAX_DETAILS_BYTES} bytes, field path first, its length said`, () => {
    for (const unit of ['a', '\u20ac', '\u{1F600}', '"']) {
      const details = `update_mask: unknown field "${unit.repeat(70_000)}"`;
      const out = boundedDetails(details, 'update_mask');
      expect(bytes(out), unit).toBeLessThanOrEqual(MAX_DETAILS_BYTES);
      expect(bytes(out), unit).toBeGreaterThan(MAX_DETAILS_BYTES - 8);
      expect(out.startsWith('update_mask: unknown field "')).toBe(true);
      expect(out.endsWith(`… (${details.length} characters in all)`)).toBe(true);
      // Well formed: grpc-js percent-encodes the details with encodeURI, which throws on a lone surrogate.
      expect(() => encodeURI(out)).not.toThrow();
    }
  });

  it('replaces a lone surrogate, which grpc-js could not send', () => {
    expect(boundedDetails('key: "\ud800x"')).toBe('key: "\uFFFDx"');
  });

  it('cuts an over-long field path the same way in the details and in the trailer', () => {
    const field = `events[0].${'x'.repeat(300)}`;
    const answer = errorStatus('INVALID_ARGUMENT', `${field}: required`, { field });
    const trailer = answer.metadata?.get(ERROR_TRAILERS.field)[0] as string;
    expect(trailer.length).toBe(MAX_FIELD_CHARS);
    expect(trailer.endsWith('...')).toBe(true);
    expect(answer.details).toBe(`${trailer}: required`);
  });

  it('every status the tier makes goes through it', () => {
    const long = 'x'.repeat(10_000);
    for (const name of ['NOT_FOUND', 'ALREADY_EXISTS', 'FAILED_PRECONDITION', 'PERMISSION_DENIED', 'RESOURCE_EXHAUSTED', 'INTERNAL'] as const) {
      expect(bytes(errorStatus(name, long, { field: 'f', pushbackMs: 5 }).details), name).toBeLessThanOrEqual(MAX_DETAILS_BYTES);
    }
  });
});
