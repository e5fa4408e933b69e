// Hostile input, generated: for every RPC of the proto, requests built from its
// descriptor (valid, at the limits, malformed) with caller metadata now and then
// malformed, and W3C trace headers now and then (valid, malformed, repeated, oversized:
// the tier traces here, its propagator reads them), sent as an outside client sends
// them. Whatever arrives:
// - the answer is a deliberate status, never INTERNAL, UNKNOWN or UNAVAILABLE (MariaDB
//   is up), and an OK answer decodes as the method's response;
// - INVALID_ARGUMENT names a field of that request (`uuid: …`, `events[2].extra: …`) or
//   the malformed caller header (`x-sfdb-caller-node: …`); NOT_FOUND names the field that
//   names what does not exist (`node_uuid: …`, `events[0].object_uuid: …`);
// - a refused call changed no row: every table's checksum (but the tier's bookkeeping,
//   see comparedTables) is the same before and after it. One CHECKSUM TABLE per call:
//   one call's "after" is the next one's "before".
// A fixed seed per RPC (printed); SFDB_PROPERTY_SEED and SFDB_PROPERTY_RUNS override.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SpanKind } from '@opentelemetry/api';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { protoRoot } from '../../proto/load.js';
import { isCallerDaemon } from '../../proto/metadata.js';
import { useTestTier } from '../helpers/tier.js';
import { useInMemoryTracing } from '../helpers/tracing.js';
import { oddText } from './arbitraries.js';
import { restoreFixtures, seedFixtures } from './fixtures.js';
import { requestGen } from './requests.js';
import { RawClient, changedTables, checksums, codeName, comparedTables, decode, encode, inFlight, show } from './raw.js';
import type { CallerHeaders } from './raw.js';
import { methods } from './schema.js';
import { UUID_PATTERN } from '../../proto/identity.js';
import { expectDeliberate } from './verdict.js';

const SEED = Number(process.env['SFDB_PROPERTY_SEED'] ?? 20_261_129);
const RUNS = Number(process.env['SFDB_PROPERTY_RUNS'] ?? 25);

// Traced, so that the tier reads the trace headers (a tier without an SDK reads none).
const tracing = useInMemoryTracing();
const { t, db } = useTestTier();
let raw: RawClient;
let tables: string[];
/** Checksums as the last call left them. */
let last: Map<string, string> | undefined;

beforeAll(async () => {
  raw = new RawClient(`127.0.0.1:${t.tier.grpcPort}`);
  await seedFixtures(t, db);
  tables = await comparedTables(t.direct);
  console.log(`hostile-rpc: seed ${SEED}, ${RUNS} runs per RPC (SFDB_PROPERTY_SEED / SFDB_PROPERTY_RUNS to change)`);
});
afterAll(() => raw?.close());

/** Each RPC its own seed, derived from the run's: one RPC's failure replays alone. */
const seedOf = (method: string): number => (SEED ^ createHash('sha256').update(method).digest().readInt32BE(0)) | 0;

/** Printable ASCII only: grpc-js refuses anything else in a metadata value before sending. */
const printable = (s: string): string => s.replace(/[^ -~]/g, '?');

/** Mostly a plain daemon caller; sometimes a node claim (good or bad) or a hostile daemon name. */
const callerGen: fc.Arbitrary<CallerHeaders> = fc.oneof(
  { arbitrary: fc.constant({ daemon: 'test' }), weight: 8 },
  fc.uuid().map((node) => ({ daemon: 'test', node })),
  fc
    .oneof(fc.uuid().map((u) => u.toUpperCase()), oddText.map(printable), fc.constantFrom('not-a-uuid', 'a'.repeat(36), 'x'.repeat(8000)))
    .map((node) => ({ daemon: 'test', node })),
  fc.oneof(oddText.map(printable), fc.constantFrom('x'.repeat(8000), 'queues ', 'QUEUES', '')).map((daemon) => ({ daemon })),
);

const hex = (n: number): fc.Arbitrary<string> => fc.stringMatching(new RegExp(`^[0-9a-f]{${n}}$`));
/** A traceparent: valid, nearly valid, or any printable text, up to past the length the tier reads. */
const traceparentGen: fc.Arbitrary<string> = fc.oneof(
  fc.tuple(hex(32), hex(16), fc.constantFrom('00', '01')).map(([trace, span, flags]) => `00-${trace}-${span}-${flags}`),
  fc.tuple(hex(32), hex(16)).map(([trace, span]) => `cc-${trace}-${span}-01-${'f'.repeat(600)}`),
  fc.constantFrom('', '00-', `00-${'0'.repeat(32)}-${'0'.repeat(16)}-01`, `ff-${'a'.repeat(32)}-${'b'.repeat(16)}-01`, 'x'.repeat(5000)),
  oddText.map(printable),
);
const tracestateGen: fc.Arbitrary<string> = fc.oneof(fc.constantFrom('a=b', 'a=b,c=d', ',,,', '='.repeat(600), `${'k'.repeat(300)}=v`), oddText.map(printable));
/** Mostly none; else a traceparent, with a tracestate, many of them, or a tracestate alone. */
const traceGen: fc.Arbitrary<[string, string][]> = fc.oneof(
  { arbitrary: fc.constant<[string, string][]>([]), weight: 6 },
  traceparentGen.map((p): [string, string][] => [['traceparent', p]]),
  fc.tuple(traceparentGen, tracestateGen).map(([p, st]): [string, string][] => [['traceparent', p], ['tracestate', st]]),
  fc.array(traceparentGen, { minLength: 2, maxLength: 40 }).map((ps) => ps.map((p): [string, string] => ['traceparent', p])),
  tracestateGen.map((st): [string, string][] => [['tracestate', st]]),
);
const headersGen: fc.Arbitrary<CallerHeaders> = fc.tuple(callerGen, traceGen).map(([caller, extra]) => ({ ...caller, extra }));

describe('every RPC answers generated requests deliberately, and a refusal writes nothing', () => {
  it('generates for every RPC of the proto', () => {
    const declared = [...readFileSync(join(protoRoot(), 'sfdb/v1/database.proto'), 'utf8').matchAll(/^\s*rpc\s+(\w+)\(/gm)].map((m) => m[1]);
    expect(methods().map((m) => m.name)).toEqual(declared);
  });

  it.each(methods().map((m) => [m.name, m] as const))('%s', async (name, method) => {
    const seed = seedOf(name);
    await restoreFixtures(t, db);
    last = await checksums(t.direct, tables);
    const counts: Record<string, number> = {};
    await fc.assert(
      fc.asyncProperty(requestGen(method), headersGen, async (request, caller) => {
        const body = encode(name, request);
        // protobufjs refusing to encode (an int64 of '') is the client's business: nothing is sent.
        if (typeof body === 'string') return;
        const before = last ?? (await checksums(t.direct, tables));
        const answer = await raw.send(name, body, caller);
        last = await checksums(t.direct, tables);
        counts[codeName(answer.code)] = (counts[codeName(answer.code)] ?? 0) + 1;
        // Node's HTTP/2 drops a header whose value starts or ends with a blank: it never reaches the tier.
        const arrives = (v: string | undefined): string | undefined => (v !== undefined && v === v.trim() ? v : undefined);
        const node = arrives(caller.node);
        const daemon = arrives(caller.daemon);
        const badNode = node !== undefined && !UUID_PATTERN.test(node);
        const badDaemon = daemon !== undefined && !isCallerDaemon(daemon);
        const what = `${name} ${show(request)} with ${show(caller)}`;
        // Over the header-list limit (16 KiB) the stream is reset: RESOURCE_EXHAUSTED before any check.
        const extra = (caller.extra ?? []).reduce((n, [k, v]) => n + k.length + v.length, 0);
        const oversized = (caller.node?.length ?? 0) + (caller.daemon?.length ?? 0) + extra > 16_000;
        if ((badNode || badDaemon) && !oversized) {
          expect(codeName(answer.code), `${what}: a malformed caller header must be refused`).toBe('INVALID_ARGUMENT');
        }
        expectDeliberate({
          what,
          answer,
          requestType: method.requestType,
          request: decode(name, body),
          changed: changedTables(before, last),
          headers: [...(badNode ? ['x-sfdb-caller-node'] : []), ...(badDaemon ? ['x-sfdb-caller-daemon'] : [])],
        });
      }),
      { seed, numRuns: RUNS },
    );
    console.log(`${name} (seed ${seed}): ${Object.entries(counts).map(([c, n]) => `${c} ${n}`).join(', ')}`);
  });

  it("read the trace headers: calls joined the traces valid traceparents named, the rest traces of their own", () => {
    const served = tracing.exporter.getFinishedSpans().filter((s) => s.kind === SpanKind.SERVER);
    expect(served.some((s) => s.parentSpanContext?.isRemote === true)).toBe(true);
    expect(served.some((s) => s.parentSpanContext === undefined)).toBe(true);
  });

  it('still serves afterwards, with nothing left in flight', async () => {
    await expect(db.call('GetNode', { uuid: '00000000-0000-4000-8000-000000000000' })).resolves.toMatchObject({ found: false });
    expect(inFlight(await t.metrics())).toBe(0);
  });
});
