// Oversized request metadata, on one HTTP/2 connection that also holds a long-poll:
// - the tier advertises its header-list limit (SETTINGS_MAX_HEADER_LIST_SIZE);
// - a header block over it resets that call alone: the long-poll on the same connection
//   completes normally and the connection keeps serving; so do 100 KB of metadata in many
//   fields and a single field up to 64 KiB encoded, from grpc-js (which sends whatever it
//   is given: it reads no SETTINGS_MAX_HEADER_LIST_SIZE);
// - a header field Node's HTTP/2 layer cannot decode (over 64 KiB encoded) ends the whole
//   connection: its calls fail at once (grpc-js: INTERNAL, "code 9"), never by deadline,
//   and the tier closes the socket and cancels the held long-poll (in-flight gauge back to
//   0) without waiting for the long-poll's own timeout or the connection-age timer;
//   repeated 50 times, no connection is left open. So does a header block of more than
//   nine 16 KiB frames (over 144 KiB encoded), after resetting its own call. A connection
//   nghttp2 gave up on for a frame it refused, with no header block begun, is closed too,
//   within the guard's idle bound.
// Connections are counted as grpc-js holds them (its session sets), besides the gauge.
import { randomBytes } from 'node:crypto';
import * as http2 from 'node:http2';
import * as grpc from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { FRAME, sendFrames } from '../../bench/fuzz/frames.js';
import { metricValue } from '../../harness/scrape.js';
import { useTestTier } from '../helpers/tier.js';
import { RawClient, codeName, encode, inFlight } from '../property/raw.js';
import type { Answer } from '../property/raw.js';

const { t, db } = useTestTier();
const target = (): string => `127.0.0.1:${t.tier.grpcPort}`;
/** A client with a connection of its own (grpc-js otherwise shares one between clients alike). */
const fresh = (): RawClient => new RawClient(target(), { 'grpc.use_local_subchannel_pool': 1 });

/** Connections the tier's gRPC server holds open, as grpc-js keeps them (those closing not counted). */
function sessions(): number {
  const server = (t.tier as unknown as { grpcServer: { http2Servers: Map<unknown, { sessions: Set<http2.ServerHttp2Session> }> } }).grpcServer;
  let n = 0;
  for (const info of server.http2Servers.values()) for (const s of info.sessions) if (!s.closed && !s.destroyed) n += 1;
  return n;
}

const connectionsGauge = async (): Promise<number> => metricValue(await t.metrics(), 'database_grpc_connections');

/** Waits (real time, bounded) until `cond` holds; a bound well below the long-poll's 30 s hold and the connection age. */
async function until(cond: () => Promise<boolean> | boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * The connections open when only the test's typed client is connected: earlier tests'
 * clients close their connections asynchronously.
 */
async function settled(): Promise<number> {
  await db.call('GetClusterConfig', { key: 'edge-none' });
  await until(() => sessions() === 1, 'only the typed client is connected');
  return 1;
}

/** Caller metadata plus one extra header of `bytes` random base64 text (it compresses little). */
function withHeader(bytes: number): grpc.Metadata {
  const md = new grpc.Metadata();
  md.set('x-sfdb-caller-daemon', 'test');
  md.set('x-padding', randomBytes(Math.ceil((bytes * 3) / 4)).toString('base64').slice(0, bytes));
  return md;
}

const plain = (): grpc.Metadata => withHeader(10);

/** Caller metadata plus `fields` (a name may repeat: each is a header field of its own). */
function withFields(fields: readonly [string, string][]): grpc.Metadata {
  const md = new grpc.Metadata();
  md.set('x-sfdb-caller-daemon', 'test');
  for (const [name, value] of fields) md.add(name, value);
  return md;
}

function getNode(raw: RawClient, md: grpc.Metadata, deadlineMs = 20_000): Promise<Answer> {
  return raw.send('GetNode', encode('GetNode', { uuid: '00000000-0000-4000-8000-000000000000' }) as Buffer, md, deadlineMs);
}

/** Starts a long-poll on cluster-config held up to `holdMs`; resolves once the tier holds it (with its answer to come). */
async function holdLongPoll(raw: RawClient, holdMs = 30_000): Promise<{ poll: Promise<Answer> }> {
  const first = await raw.send('WaitForChanges', encode('WaitForChanges', { topics: ['cluster-config'], cursor: '' }) as Buffer, plain());
  expect(codeName(first.code)).toBe('OK');
  const { cursor } = first.response as { cursor: string };
  const before = inFlight(await t.metrics());
  const poll = raw.send('WaitForChanges', encode('WaitForChanges', { topics: ['cluster-config'], cursor, timeoutMs: holdMs }) as Buffer, plain(), 60_000);
  await until(async () => inFlight(await t.metrics()) === before + 1, 'the long-poll is held');
  return { poll };
}

describe('metadata limits', () => {
  it('advertises a bounded header list size in its SETTINGS', async () => {
    const session = http2.connect(`http://${target()}`);
    try {
      const settings = await new Promise<http2.Settings>((resolve, reject) => {
        session.once('remoteSettings', resolve);
        session.once('error', reject);
      });
      expect(settings.maxHeaderListSize).toBe(t.config.grpcMaxMetadataBytes);
      expect(t.config.grpcMaxMetadataBytes).toBe(16_384);
    } finally {
      session.close();
    }
  });

  it('a header block over the limit resets that call alone: a long-poll on the same connection completes, the connection serves on', async () => {
    const raw = fresh();
    try {
      const { poll } = await holdLongPoll(raw);
      const open = sessions();
      const big = await getNode(raw, withHeader(20_000));
      expect(codeName(big.code), big.details).toBe('RESOURCE_EXHAUSTED');
      // The same connection serves the next call.
      expect(codeName((await getNode(raw, plain())).code)).toBe('OK');
      expect(sessions()).toBe(open);
      // The long-poll is still held and answers normally when a change comes.
      await db.call('SetClusterConfig', { key: `edge-${randomBytes(4).toString('hex')}`, value: '1', expectedVersion: '0' });
      const answer = await poll;
      expect(codeName(answer.code), answer.details).toBe('OK');
      expect((answer.response as { changes: unknown[] }).changes.length).toBeGreaterThan(0);
      expect(inFlight(await t.metrics())).toBe(0);
    } finally {
      raw.close();
    }
  });

  it('100 KB of metadata in many fields, or one field of up to 64 KiB encoded, fails its own call only: a held long-poll and a call beside it answer OK', async () => {
    // grpc-js sends whatever it is given: it reads no SETTINGS_MAX_HEADER_LIST_SIZE and lifts Node's own 64 KiB send limit.
    const shapes: [string, () => grpc.Metadata][] = [
      ['100 fields of 1 KB', () => withFields(Array.from({ length: 100 }, (_, i): [string, string] => [`x-f${i}`, randomBytes(750).toString('base64')]))],
      ['one 100-byte field 1,000 times (HPACK-indexed: a few KB on the wire)', () => withFields(Array.from({ length: 1_000 }, (): [string, string] => ['x-rep', 'r'.repeat(100)]))],
      // Characters whose Huffman codes are over 8 bits: sent as they are, 60,000 bytes encoded.
      ['one field of 60,000 bytes encoded', () => withFields([['x-big', '{}<^'.repeat(15_000)]])],
    ];
    for (const [shape, metadata] of shapes) {
      const raw = fresh();
      try {
        const { poll } = await holdLongPoll(raw, 3_000);
        const [beside, big] = await Promise.all([getNode(raw, plain()), getNode(raw, metadata())]);
        expect(codeName(big.code), `${shape}: ${big.details}`).toBe('RESOURCE_EXHAUSTED');
        expect(codeName(beside.code), `${shape}: the call beside it`).toBe('OK');
        expect(codeName((await getNode(raw, plain())).code), `${shape}: the next call`).toBe('OK');
        const held = await poll;
        expect(codeName(held.code), `${shape}: the held long-poll: ${held.details}`).toBe('OK');
      } finally {
        raw.close();
      }
    }
  });

  it('a header field the HTTP/2 layer cannot decode ends its connection at once; the tier closes it and cancels the held call', async () => {
    const baseline = await settled();
    const closedBefore = metricValue(await t.metrics(), 'database_grpc_connections_closed_total', { reason: 'stalled' });
    const raw = fresh();
    try {
      const { poll } = await holdLongPoll(raw);
      expect(sessions()).toBe(baseline + 1);
      const big = await getNode(raw, withHeader(100_000));
      // Both calls of the connection fail, at once, not by their deadlines: GOAWAY
      // COMPRESSION_ERROR, which grpc-js reports as INTERNAL (as docs/deploying.md says).
      expect(codeName(big.code), big.details).toBe('INTERNAL');
      const held = await poll;
      expect(codeName(held.code), held.details).toBe('INTERNAL');
      expect(held.details).toMatch(/code 9/);
      // The tier lets go of the connection and of the call it held, well before the
      // long-poll's own 30 s.
      await until(() => sessions() === baseline, 'the connection is closed');
      await until(async () => inFlight(await t.metrics()) === 0, 'the in-flight gauge is back to 0');
      await until(async () => (await connectionsGauge()) === baseline, 'the connection gauge is back');
      expect(metricValue(await t.metrics(), 'database_grpc_connections_closed_total', { reason: 'stalled' })).toBe(closedBefore + 1);
    } finally {
      raw.close();
    }
  });

  it('a header block over 144 KiB encoded (nine 16 KiB frames) has its call reset, then ends its connection: the held call fails at once', async () => {
    const baseline = await settled();
    const raw = fresh();
    try {
      const { poll } = await holdLongPoll(raw);
      // 200 fields of 1,000 base64 characters: about 156 KiB once Huffman-coded.
      const big = await getNode(raw, withFields(Array.from({ length: 200 }, (_, i): [string, string] => [`x-f${i}`, randomBytes(750).toString('base64')])));
      expect(codeName(big.code), big.details).toBe('RESOURCE_EXHAUSTED');
      // nghttp2 (1.61) takes at most 8 CONTINUATION frames after a HEADERS frame: GOAWAY INTERNAL_ERROR.
      const held = await poll;
      expect(codeName(held.code), held.details).toBe('INTERNAL');
      expect(held.details).toMatch(/code 2/);
      await until(() => sessions() === baseline, 'the connection is closed');
    } finally {
      raw.close();
    }
  });

  it('repeated 50 times on new connections, leaves no connection open', async () => {
    const baseline = await settled();
    for (let i = 0; i < 50; i++) {
      const raw = fresh();
      const answer = await getNode(raw, withHeader(100_000));
      expect(['OK', 'DEADLINE_EXCEEDED']).not.toContain(codeName(answer.code));
      raw.close();
    }
    await until(() => sessions() === baseline, `${sessions() - baseline} connections of 50 still open`);
    await until(async () => (await connectionsGauge()) === baseline, 'the connection gauge is back');
    const after = fresh();
    expect(codeName((await getNode(after, plain())).code)).toBe('OK');
    after.close();
  });

  it('a connection the HTTP/2 layer gave up on for a refused frame, with no header block begun, is closed within the idle bound', async () => {
    const baseline = await settled();
    const closedBefore = metricValue(await t.metrics(), 'database_grpc_connections_closed_total', { reason: 'stalled' });
    // A stream depending on itself: nghttp2 answers GOAWAY PROTOCOL_ERROR and stops reading;
    // the client leaves, and Node never notices.
    const priority = { type: FRAME.PRIORITY, flags: 0, stream: 3, payload: Buffer.from([0, 0, 0, 3, 16]) };
    const answer = await sendFrames('127.0.0.1', t.tier.grpcPort, [priority], 300);
    expect(answer.outcome).toBe('goaway 1');
    // The guard's idle bound and ping timeout (10 s each), and a sweep.
    await until(() => sessions() === baseline, 'the connection is closed', 30_000);
    expect(metricValue(await t.metrics(), 'database_grpc_connections_closed_total', { reason: 'stalled' })).toBe(closedBefore + 1);
  });

  it('a client still writing a huge header block when the tier gives up hears of it, not by its deadline', async () => {
    const raw = fresh();
    try {
      // 20 MB: more than the socket buffers hold, so the client is mid-write when nghttp2 stops reading.
      const answer = await getNode(raw, withHeader(20_000_000), 30_000);
      expect(['OK', 'DEADLINE_EXCEEDED'], answer.details).not.toContain(codeName(answer.code));
    } finally {
      raw.close();
    }
  });
});
