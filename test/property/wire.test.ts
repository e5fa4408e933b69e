// Hostile input at the wire: bytes that are no request message, valid requests bent
// byte by byte, strings that are not UTF-8, a message over the receive limit, oversized
// and non-ASCII headers, and gRPC framing broken by hand (no message, two messages, a
// lying length prefix, compression flags). The tier answers each deliberately (the
// transport's own answers to framing errors are listed per case), writes nothing on a
// refusal, keeps serving, and its in-flight gauge comes back to 0.
import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metricValue } from '../../harness/scrape.js';
import { useTestTier } from '../helpers/tier.js';
import { seedFixtures } from './fixtures.js';
import { frame, h2call } from './http2.js';
import type { H2Answer, H2Request } from './http2.js';
import { RawClient, changedTables, checksums, codeName, comparedTables, decode, encode, inFlight, show } from './raw.js';
import type { Answer, CallerHeaders } from './raw.js';
import { requestGen } from './requests.js';
import { fieldsOf, methods } from './schema.js';
import type { Method } from './schema.js';
import { expectDeliberate } from './verdict.js';
import { bent } from './wire-bytes.js';

const SEED = Number(process.env['SFDB_PROPERTY_SEED'] ?? 20_261_129);
const RUNS = Number(process.env['SFDB_PROPERTY_RUNS'] ?? 25);

const { t, db } = useTestTier();
let raw: RawClient;
let tables: string[];

beforeAll(async () => {
  raw = new RawClient(`127.0.0.1:${t.tier.grpcPort}`);
  await seedFixtures(t, db);
  tables = await comparedTables(t.direct);
  console.log(`wire: seed ${SEED} (SFDB_PROPERTY_SEED to change)`);
});
afterAll(() => raw?.close());

/** Sends `bytes` as the request of `method` and holds the answer to the properties. */
async function judged(method: Method, bytes: Buffer, what: string, headers: CallerHeaders = { daemon: 'test' }): Promise<Answer> {
  const before = await checksums(t.direct, tables);
  const answer = await raw.send(method.name, bytes, headers);
  const changed = changedTables(before, await checksums(t.direct, tables));
  expectDeliberate({ what: `${method.name} ${what}`, answer, requestType: method.requestType, request: decode(method.name, bytes), changed });
  return answer;
}

/** The gauge may lag the answer by a tick (the status is sent, then counted): poll briefly. */
async function expectNothingInFlight(): Promise<void> {
  for (let i = 0; i < 40 && inFlight(await t.metrics()) !== 0; i++) await new Promise((r) => setTimeout(r, 50));
  expect(inFlight(await t.metrics()), 'database_requests_in_flight').toBe(0);
}

async function expectServing(): Promise<void> {
  await expect(db.call('GetNode', { uuid: randomUUID() })).resolves.toMatchObject({ found: false });
  await expectNothingInFlight();
}

const anyMethod = fc.constantFrom(...methods());

describe('wire: bytes that are no request, or a request bent', () => {
  it('random bytes as the request of any RPC answer OK or INVALID_ARGUMENT (request: when they do not decode)', async () => {
    await fc.assert(
      fc.asyncProperty(anyMethod, fc.uint8Array({ maxLength: 96 }), async (method, bytes) => {
        const body = Buffer.from(bytes);
        const answer = await judged(method, body, body.toString('hex'));
        expect(['OK', 'INVALID_ARGUMENT'], `${method.name} ${body.toString('hex')}: ${answer.details}`).toContain(codeName(answer.code));
      }),
      { seed: SEED, numRuns: RUNS * 8 },
    );
    await expectServing();
  });

  it('valid requests bent on the wire (flipped, cut, extended, merged, mistyped fields, not UTF-8) answer deliberately', async () => {
    const cases = anyMethod.chain((method) =>
      requestGen(method).chain((request) => {
        const bytes = encode(method.name, request);
        const base = typeof bytes === 'string' ? Buffer.alloc(0) : bytes;
        return bent(base, fieldsOf(method.requestType)).map((b) => ({ method, request, ...b }));
      }),
    );
    await fc.assert(
      fc.asyncProperty(cases, async ({ method, request, how, bytes }) => {
        await judged(method, bytes, `${show(request)} bent: ${how}`);
      }),
      { seed: SEED + 1, numRuns: RUNS * 12 },
    );
    await expectServing();
  });
});

describe('wire: sizes', () => {
  const config = methods().find((m) => m.name === 'SetClusterConfig') as Method;
  const valueOf = (bytes: number): Buffer => encode('SetClusterConfig', { key: 'big', value: JSON.stringify({ a: 'x'.repeat(bytes) }), expectedVersion: '0' }) as Buffer;

  it('a message over the 4 MiB receive limit is RESOURCE_EXHAUSTED; one just under it is read and refused by field', async () => {
    const over = valueOf(4 * 1024 * 1024);
    expect(over.length).toBeGreaterThan(4 * 1024 * 1024);
    expect(codeName((await judged(config, over, `${over.length} bytes`)).code)).toBe('RESOURCE_EXHAUSTED');
    const under = valueOf(4 * 1024 * 1024 - 200);
    expect(under.length).toBeLessThan(4 * 1024 * 1024);
    const answer = await judged(config, under, `${under.length} bytes`);
    expect(answer.details).toMatch(/^value: JSON of \d+ bytes is over/);
    await expectServing();
  });

  it('oversized metadata (20 KB values through grpc-js) is RESOURCE_EXHAUSTED, the tier serving on, nothing in flight', async () => {
    const getNode = methods().find((m) => m.name === 'GetNode') as Method;
    const body = encode('GetNode', { uuid: randomUUID() }) as Buffer;
    for (const headers of [
      { daemon: 'x'.repeat(20_000) },
      { daemon: 'test', node: 'x'.repeat(20_000) },
      { daemon: 'test', extra: [['x-junk', 'y'.repeat(20_000)]] as [string, string][] },
      { daemon: 'test', extra: Array.from({ length: 200 }, (_, i): [string, string] => [`x-h${i}`, 'v'.repeat(100)]) },
    ]) {
      const answer = await raw.send('GetNode', body, headers);
      console.log(`GetNode with ${show(headers)}: ${codeName(answer.code)} ${answer.details}`);
      // Over the header-list limit: grpc-js reports the stream's reset (ENHANCE_YOUR_CALM) so.
      expect(codeName(answer.code), `GetNode with ${show(headers)}`).toBe('RESOURCE_EXHAUSTED');
      if (headers.node !== undefined) expectDeliberate({ what: `GetNode with ${show(headers)}`, answer, requestType: getNode.requestType, request: decode('GetNode', body), changed: [], headers: ['x-sfdb-caller-node'] });
      await expectServing();
    }
  });
});

/** What came back from a hand-made request: a status name, 'HTTP n', or 'reset'. */
function outcome(a: H2Answer): string {
  if (a.grpcStatus !== undefined) return codeName(a.grpcStatus);
  if (a.error !== undefined) return 'reset';
  return `HTTP ${a.httpStatus ?? '?'}`;
}

describe('wire: gRPC framing and headers by hand (node:http2)', () => {
  const path = '/sfdb.v1.Database/CreateNode';
  /** A CreateNode that would write a row: refusals must leave none. */
  const createNode = (): Buffer => {
    const uuid = randomUUID();
    return encode('CreateNode', { uuid, fqdn: `wire-${uuid}.test` }) as Buffer;
  };
  // Outcomes per case as grpc-js 1.14 gives them. Framing errors are the transport's:
  // UNIMPLEMENTED for a unary call with no or two messages (gRPC's cardinality rule).
  // grpc-js itself answers INTERNAL for bytes that do not decompress and a grpc-timeout
  // that does not parse; the tier turns both into INVALID_ARGUMENT naming the header
  // (server/grpc/grpc-js/server-call.ts records them, server/grpc/admission.ts refuses them).
  // INTERNAL is listed only for the transport's header limits.
  const cases: { name: string; req: (m: Buffer) => Omit<H2Request, 'path'>; outcomes: string[] }[] = [
    { name: 'no message', req: () => ({ body: [] }), outcomes: ['UNIMPLEMENTED'] },
    { name: 'a frame header cut short', req: () => ({ body: [Buffer.from([0, 0, 0])] }), outcomes: ['UNIMPLEMENTED', 'INVALID_ARGUMENT'] },
    { name: 'a length prefix past the end', req: (m) => ({ body: [frame(m, { length: m.length + 50 })] }), outcomes: ['UNIMPLEMENTED', 'INVALID_ARGUMENT'] },
    { name: 'two messages', req: (m) => ({ body: [frame(m), frame(m)] }), outcomes: ['UNIMPLEMENTED'] },
    { name: 'a length prefix of 4 GiB', req: (m) => ({ body: [frame(m, { length: 0xffffffff })] }), outcomes: ['RESOURCE_EXHAUSTED'] },
    { name: 'compressed flag, no grpc-encoding', req: (m) => ({ body: [frame(m, { compressed: true })] }), outcomes: ['OK', 'INVALID_ARGUMENT', 'UNIMPLEMENTED'] },
    { name: 'gzip, well formed', req: (m) => ({ headers: { 'grpc-encoding': 'gzip' }, body: [frame(gzipSync(m), { compressed: true })] }), outcomes: ['OK'] },
    {
      name: 'gzip of 50 MiB of zeros',
      req: () => ({ headers: { 'grpc-encoding': 'gzip' }, body: [frame(gzipSync(Buffer.alloc(50 * 1024 * 1024)), { compressed: true })] }),
      outcomes: ['RESOURCE_EXHAUSTED'],
    },
    { name: 'gzip flag on bytes that are not gzip', req: (m) => ({ headers: { 'grpc-encoding': 'gzip' }, body: [frame(m, { compressed: true })] }), outcomes: ['INVALID_ARGUMENT'] },
    { name: 'deflate flag on bytes that are not deflate', req: (m) => ({ headers: { 'grpc-encoding': 'deflate' }, body: [frame(m, { compressed: true })] }), outcomes: ['INVALID_ARGUMENT'] },
    { name: 'an encoding the server lacks', req: (m) => ({ headers: { 'grpc-encoding': 'br' }, body: [frame(m, { compressed: true })] }), outcomes: ['UNIMPLEMENTED'] },
    { name: 'a grpc-timeout that does not parse', req: (m) => ({ headers: { 'grpc-timeout': 'soon' }, body: [frame(m)] }), outcomes: ['INVALID_ARGUMENT'] },
    // A header cannot plant a fault (the boundary's marks are keyed ':…', which no request header can be): served.
    { name: 'a forged x-sfdb-wire-fault header', req: (m) => ({ headers: { 'x-sfdb-wire-fault': 'grpc-timeout: forged' }, body: [frame(m)] }), outcomes: ['OK'] },
    { name: 'content-type text/plain', req: (m) => ({ headers: { 'content-type': 'text/plain' }, body: [frame(m)] }), outcomes: ['HTTP 415'] },
    // grpc-js would drop a header value that is not printable ASCII: the tier refuses the claim instead (server/grpc/caller-headers.ts).
    // (node:http2 sends a value's chars as bytes: UTF-8 is given as the Latin-1 chars of its bytes.)
    {
      name: 'caller daemon in UTF-8',
      req: (m) => ({ headers: { 'x-sfdb-caller-daemon': Buffer.from('d\u00e9mon-\u{1F600}').toString('latin1') }, body: [frame(m)] }),
      outcomes: ['INVALID_ARGUMENT'],
    },
    { name: 'caller node in Latin-1', req: (m) => ({ headers: { 'x-sfdb-caller-node': '\u00e9' }, body: [frame(m)] }), outcomes: ['INVALID_ARGUMENT'] },
    { name: 'caller node twice, a uuid and junk', req: (m) => ({ headers: { 'x-sfdb-caller-node': [randomUUID(), 'junk'] }, body: [frame(m)] }), outcomes: ['INVALID_ARGUMENT'] },
    // Past the header-list limit (SFDB_GRPC_MAX_METADATA_BYTES) or Node's 128 header pairs: that stream is reset.
    { name: 'a 70 KB header', req: (m) => ({ headers: { 'x-big': 'x'.repeat(70_000) }, body: [frame(m)] }), outcomes: ['reset'] },
    {
      name: '500 headers',
      req: (m) => ({ headers: Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`x-h${i}`, 'v'.repeat(50)])), body: [frame(m)] }),
      outcomes: ['reset'],
    },
  ];

  it.each(cases)('$name', async ({ req, outcomes }) => {
    const before = await checksums(t.direct, tables);
    const refusals = async (): Promise<number> => metricValue(await t.metrics(), 'database_request_errors_total', { operation: 'CreateNode', code: 'INVALID_ARGUMENT' });
    const refusedBefore = await refusals();
    const answer = await h2call(t.tier.grpcPort, { path, ...req(createNode()) });
    const got = outcome(answer);
    expect(outcomes, `answered ${got} ${answer.grpcMessage ?? answer.error ?? ''}`).toContain(got);
    if (got !== 'OK') expect(changedTables(before, await checksums(t.direct, tables)), 'rows written by a refused call').toEqual([]);
    if (got === 'INVALID_ARGUMENT') {
      expect(answer.grpcMessage ?? '').toMatch(/^(request|x-sfdb-caller-node|x-sfdb-caller-daemon|grpc-encoding|grpc-timeout):/);
      // Refused through the tier's normal path: counted once, as what it is.
      expect(await refusals()).toBe(refusedBefore + 1);
    }
    await expectServing();
  });

  it('an RPC the proto does not have is UNIMPLEMENTED, and the tier keeps serving', async () => {
    const answer = await h2call(t.tier.grpcPort, { path: '/sfdb.v1.Database/DropAllTables', body: [frame(Buffer.alloc(0))] });
    expect(outcome(answer)).toBe('UNIMPLEMENTED');
    await expectServing();
  });
});
