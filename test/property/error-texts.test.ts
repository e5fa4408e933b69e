// Error texts are bounded, generated: for every RPC of the proto, requests as
// hostile-rpc.test.ts builds them with one string field — at the top, in a repeated
// field, in a sub-message, a map's key or value — replaced by a huge or odd value (up to
// 70,000 characters of ASCII, quotes, backslashes, 3- and 4-byte characters), and caller
// headers now and then near the header limit. Sent by a grpc-js client with its default
// limits, every refusal must:
// - arrive as the tier's deliberate answer (not the client's RESOURCE_EXHAUSTED for
//   metadata over its limit, which is what a 70 KB message used to make);
// - carry details of at most MAX_DETAILS_BYTES (1 KB) and a field trailer of at most
//   MAX_FIELD_CHARS;
// - for INVALID_ARGUMENT and NOT_FOUND, begin its details with the field path its
//   trailer names.
// A fixed seed per RPC (printed); SFDB_PROPERTY_SEED and SFDB_PROPERTY_RUNS override.
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_DETAILS_BYTES, MAX_FIELD_CHARS } from '../../proto/errors.js';
import { useTestTier } from '../helpers/tier.js';
import { oddText } from './arbitraries.js';
import { seedFixtures } from './fixtures.js';
import { RawClient, codeName, encode, show } from './raw.js';
import type { CallerHeaders } from './raw.js';
import { messageGen, requestGen } from './requests.js';
import { fieldsOf, methods } from './schema.js';
import type { Field } from './schema.js';

const SEED = Number(process.env['SFDB_PROPERTY_SEED'] ?? 20_261_130);
const RUNS = Number(process.env['SFDB_PROPERTY_RUNS'] ?? 16);

const { t, db } = useTestTier();
let raw: RawClient;

beforeAll(async () => {
  // A plain grpc-js channel with its default limits: what an outside client reads.
  raw = new RawClient(`127.0.0.1:${t.tier.grpcPort}`);
  await seedFixtures(t, db);
  console.log(`error-texts: seed ${SEED}, ${RUNS} runs per RPC (SFDB_PROPERTY_SEED / SFDB_PROPERTY_RUNS to change)`);
});
afterAll(() => raw?.close());

const seedOf = (method: string): number => (SEED ^ createHash('sha256').update(`texts:${method}`).digest().readInt32BE(0)) | 0;

/** Huge values: long runs of one unit, or of odd text; mostly the 70,000 characters of the report. */
const huge: Arbitrary<string> = fc.oneof(
  fc
    .tuple(fc.constantFrom(70_000, 70_000, 5_000, 1_025), fc.constantFrom('a', '"', '\\', '%', '\u20ac', '\u{1F600}', 'a\u0000', ' '))
    .map(([n, unit]) => unit.repeat(Math.ceil(n / unit.length))),
  oddText.filter((s) => s.length > 0).map((s) => s.repeat(Math.ceil(20_000 / s.length))),
);

/** Printable ASCII near the 16 KiB header-list limit: the caller headers' refusals echo them. */
const hugeHeader: Arbitrary<string> = fc.tuple(fc.constantFrom('x', '"', '\\', '%', ' a'), fc.constantFrom(100, 5_000, 15_000)).map(([u, n]) => u.repeat(n / u.length));

const callerGen: Arbitrary<CallerHeaders> = fc.oneof(
  { arbitrary: fc.constant({ daemon: 'test' }), weight: 6 },
  hugeHeader.map((node) => ({ daemon: 'test', node })),
  hugeHeader.map((daemon) => ({ daemon })),
);

/** The string fields of a message, one level into sub-messages: [field, sub-field or undefined]. */
function stringPaths(typeName: string): [Field, Field | undefined][] {
  const out: [Field, Field | undefined][] = [];
  for (const f of fieldsOf(typeName)) {
    if (f.kind === 'string' || f.kind === 'map') out.push([f, undefined]);
    if (f.kind === 'message') for (const sub of fieldsOf(f.typeName)) if (sub.kind === 'string') out.push([f, sub]);
  }
  return out;
}

/** `request` with the value at one string path replaced by `value`. */
function withHuge(request: Record<string, unknown>, [field, sub]: [Field, Field | undefined], value: string, asKey: boolean): Record<string, unknown> {
  const out = { ...request };
  if (field.kind === 'map') {
    out[field.jsName] = asKey ? { [value]: '1' } : { k1: value };
  } else if (sub === undefined) {
    out[field.jsName] = field.repeated ? (asKey ? [value] : [value, 'x']) : value;
  } else {
    const current = request[field.jsName];
    const element = (Array.isArray(current) ? current[0] : current) as Record<string, unknown> | undefined;
    const replaced = { ...(element ?? {}), [sub.jsName]: value };
    out[field.jsName] = field.repeated ? [replaced] : replaced;
  }
  return out;
}

describe('every refusal is bounded: details at most 1 KB, field path first, field trailer bounded', () => {
  const cases = methods()
    .map((m) => [m.name, m, stringPaths(m.requestType)] as const)
    .filter(([, , paths]) => paths.length > 0);

  it.each(cases)('%s', async (name, method, paths) => {
    const counts: Record<string, number> = {};
    let longest = 0;
    // Mostly a valid request, so the huge value is its one fault and reaches the check that words it.
    const requests = fc.oneof({ arbitrary: messageGen(name, method.requestType).valid, weight: 3 }, requestGen(method));
    await fc.assert(
      fc.asyncProperty(requests, fc.constantFrom(...paths), huge, fc.boolean(), callerGen, async (request, path, value, asKey, caller) => {
        const body = encode(name, withHuge(request, path, value, asKey));
        if (typeof body === 'string') return;
        const answer = await raw.send(name, body, caller, 5000);
        const code = codeName(answer.code);
        counts[code] = (counts[code] ?? 0) + 1;
        if (code === 'OK') return;
        const what = `${name} ${show(request)} with ${path.map((f) => f?.name).join('.')} = ${value.length} characters, caller ${show(caller)}, answered ${code} "${answer.details.slice(0, 200)}"`;
        longest = Math.max(longest, Buffer.byteLength(answer.details, 'utf8'));
        // The tier's own answer, read whole: never the client's refusal of a header block over its limit.
        expect(['INVALID_ARGUMENT', 'NOT_FOUND', 'ALREADY_EXISTS', 'FAILED_PRECONDITION', 'ABORTED', 'OUT_OF_RANGE', 'PERMISSION_DENIED'], what).toContain(code);
        expect(Buffer.byteLength(answer.details, 'utf8'), what).toBeLessThanOrEqual(MAX_DETAILS_BYTES);
        expect(answer.field.length, what).toBeLessThanOrEqual(MAX_FIELD_CHARS);
        if (code === 'INVALID_ARGUMENT' || code === 'NOT_FOUND') {
          expect(answer.field, what).not.toBe('');
          expect(answer.details.startsWith(`${answer.field}: `), what).toBe(true);
        }
      }),
      // No shrinking: each step resends values of 70,000 characters.
      { seed: seedOf(name), numRuns: RUNS, endOnFailure: true },
    );
    console.log(`${name}: ${Object.entries(counts).map(([c, n]) => `${c} ${n}`).join(', ')}; longest details ${longest} bytes`);
  });
});
