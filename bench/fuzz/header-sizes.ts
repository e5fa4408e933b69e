// What one oversized request header does to the other calls of its connection, size by
// size and shape by shape, from two clients: node:http2 with its send limit lifted and
// grpc-js (which lifts it the same way, and sends whatever the caller gives it). Each
// probe opens a connection of its own and puts on it a held long-poll (WaitForChanges,
// answered OK at its timeout when nothing disturbs it), a unary call sent beside the
// oversized one, the oversized call, and a unary call after it; it records each one's
// outcome and whether the server sent GOAWAY.
import { randomBytes } from 'node:crypto';
import type * as http2 from 'node:http2';
import * as grpc from '@grpc/grpc-js';
import { loadDatabaseProto } from '../../proto/load.js';
import { connect, goawayOf, grpcFrame, h2Call, pathOf, requestBytes, settled } from './h2.js';
import type { Outcome } from './h2.js';

/** How the oversized header is made up. */
export type HeaderShape = 'one field' | 'one field, no Huffman' | 'one field, never indexed' | '1 KB fields' | 'one 100 B field repeated';
export const HEADER_SHAPES: readonly HeaderShape[] = ['one field', 'one field, no Huffman', 'one field, never indexed', '1 KB fields', 'one 100 B field repeated'];

/** Printable ASCII whose HPACK Huffman codes are over 8 bits: an encoder sends it as it is. */
const LONG_CODES = '{}<^`#$|\\~';

/** `bytes` of header value text: base64 (Huffman shrinks it to about 80 %), or characters Huffman would grow. */
function text(bytes: number, huffman: boolean): string {
  if (huffman) return randomBytes(Math.ceil((bytes * 3) / 4) + 3).toString('base64').slice(0, bytes);
  const r = randomBytes(bytes);
  let s = '';
  for (let i = 0; i < bytes; i++) s += LONG_CODES[(r[i] as number) % LONG_CODES.length];
  return s;
}

/** The extra header fields of a shape, `bytes` of value text in all, as [name, value] pairs (a name may repeat). */
export function headerFields(shape: HeaderShape, bytes: number): [string, string][] {
  switch (shape) {
    case 'one field':
    case 'one field, never indexed':
      return [['x-big', text(bytes, true)]];
    case 'one field, no Huffman':
      return [['x-big', text(bytes, false)]];
    case '1 KB fields':
      return Array.from({ length: Math.ceil(bytes / 1000) }, (_, i): [string, string] => [`x-f${i}`, text(1000, true)]);
    case 'one 100 B field repeated': {
      const v = text(100, true);
      return Array.from({ length: Math.ceil(bytes / 100) }, (): [string, string] => ['x-rep', v]);
    }
  }
}

export interface HeaderProbe {
  client: 'node:http2' | 'grpc-js';
  shape: HeaderShape;
  /** The header's value text in bytes (1 KB = 1000 bytes). */
  bytes: number;
  oversized: Outcome;
  /** The long-poll held on the same connection before the oversized call. */
  heldPoll: Outcome;
  /** A unary call sent at the same moment as the oversized one. */
  beside: Outcome;
  /** A unary call sent on the same connection once the oversized one ended. */
  after: Outcome;
  /** The GOAWAY code the server sent on the connection, if any. */
  goaway?: number;
}

/** The long-poll's hold: long enough to be held across the probe, short enough to end it. */
const POLL_MS = 2_000;
const getNode = (): Buffer => requestBytes('GetNode', { uuid: '00000000-0000-4000-8000-000000000000' });
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** One probe with a raw node:http2 connection. */
async function probeH2(address: string, shape: HeaderShape, bytes: number): Promise<HeaderProbe> {
  const session = connect(address);
  try {
    await settled(session);
    const plain = { 'x-sfdb-caller-daemon': 'test' };
    const unary = (headers: http2.OutgoingHttpHeaders = plain, sensitive?: string[]) =>
      h2Call(session, { path: pathOf('GetNode'), headers, ...(sensitive ? { sensitive } : {}), body: [grpcFrame(getNode())], timeoutMs: 10_000 });
    const cursor = await cursorOf(session);
    const poll = h2Call(session, {
      path: pathOf('WaitForChanges'),
      headers: plain,
      body: [grpcFrame(requestBytes('WaitForChanges', { topics: ['cluster-config'], cursor, timeoutMs: POLL_MS }))],
      timeoutMs: POLL_MS + 8_000,
    });
    await sleep(150);
    const headers: http2.OutgoingHttpHeaders = { ...plain };
    for (const [name, value] of headerFields(shape, bytes)) {
      const had = headers[name];
      headers[name] = had === undefined ? value : [...(Array.isArray(had) ? had : [String(had)]), value];
    }
    const [beside, oversized] = await Promise.all([unary(), unary(headers, shape === 'one field, never indexed' ? ['x-big'] : undefined)]);
    await sleep(20);
    const after = await unary();
    const heldPoll = await poll;
    const goaway = goawayOf(session);
    return { client: 'node:http2', shape, bytes, oversized: oversized.outcome, heldPoll: heldPoll.outcome, beside: beside.outcome, after: after.outcome, ...(goaway !== undefined ? { goaway } : {}) };
  } finally {
    session.destroy();
  }
}

/** The change feed's current cursor, read on `session` (WaitForChanges with an empty cursor answers at once). */
async function cursorOf(session: http2.ClientHttp2Session): Promise<string> {
  const codec = loadDatabaseProto().proto.sfdb.v1.Database.service as unknown as Record<string, { responseDeserialize: (b: Buffer) => unknown }>;
  return new Promise((resolve, reject) => {
    const stream = session.request({ ':method': 'POST', ':path': pathOf('WaitForChanges'), 'content-type': 'application/grpc', te: 'trailers', 'x-sfdb-caller-daemon': 'test' });
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('error', reject);
    stream.on('close', () => {
      const all = Buffer.concat(chunks);
      if (all.length < 5) return reject(new Error('WaitForChanges answered no message'));
      const answer = codec['WaitForChanges']?.responseDeserialize(all.subarray(5, 5 + all.readUInt32BE(1))) as { cursor: string };
      resolve(answer.cursor);
    });
    stream.end(grpcFrame(requestBytes('WaitForChanges', { topics: ['cluster-config'], cursor: '' })));
  });
}

/** One probe with a grpc-js client on a connection of its own. */
async function probeGrpcJs(address: string, shape: HeaderShape, bytes: number): Promise<HeaderProbe> {
  const client = new grpc.Client(address, grpc.credentials.createInsecure(), { 'grpc.use_local_subchannel_pool': 1, 'grpc.enable_retries': 0 });
  const call = (method: string, body: Buffer, md: grpc.Metadata, ms = 10_000): Promise<{ outcome: Outcome; bytes?: Buffer }> =>
    new Promise((resolve) => {
      client.makeUnaryRequest(pathOf(method), (b: Buffer) => b, (b: Buffer) => b, body, md, { deadline: Date.now() + ms }, (err, res) =>
        resolve(err ? { outcome: grpc.status[err.code] ?? String(err.code) } : { outcome: 'OK', ...(res ? { bytes: res } : {}) }),
      );
    });
  const plain = (): grpc.Metadata => {
    const md = new grpc.Metadata();
    md.set('x-sfdb-caller-daemon', 'test');
    return md;
  };
  try {
    const decode = (loadDatabaseProto().proto.sfdb.v1.Database.service as unknown as Record<string, { responseDeserialize: (b: Buffer) => unknown }>)['WaitForChanges']?.responseDeserialize;
    const first = await call('WaitForChanges', requestBytes('WaitForChanges', { topics: ['cluster-config'], cursor: '' }), plain());
    if (first.outcome !== 'OK' || !first.bytes || !decode) throw new Error(`the first WaitForChanges answered ${first.outcome}`);
    const { cursor } = decode(first.bytes) as { cursor: string };
    const poll = call('WaitForChanges', requestBytes('WaitForChanges', { topics: ['cluster-config'], cursor, timeoutMs: POLL_MS }), plain(), POLL_MS + 8_000);
    await sleep(150);
    const md = plain();
    for (const [name, value] of headerFields(shape, bytes)) md.add(name, value);
    const [beside, oversized] = await Promise.all([call('GetNode', getNode(), plain()), call('GetNode', getNode(), md)]);
    await sleep(20);
    const after = await call('GetNode', getNode(), plain());
    return { client: 'grpc-js', shape, bytes, oversized: oversized.outcome, heldPoll: (await poll).outcome, beside: beside.outcome, after: after.outcome };
  } finally {
    client.close();
  }
}

/** Probes every (client, shape, size); `kbs` in units of 1000 bytes. */
export async function probeHeaderSizes(address: string, kbs: readonly number[], say: (line: string) => void): Promise<HeaderProbe[]> {
  const out: HeaderProbe[] = [];
  for (const shape of HEADER_SHAPES) {
    for (const kb of kbs) {
      for (const probe of [probeH2, probeGrpcJs]) {
        if (probe === probeGrpcJs && shape === 'one field, never indexed') continue; // grpc-js has no way to ask for it
        const p = await probe(address, shape, kb * 1000);
        say(`${p.client} ${shape} ${kb} KB: oversized ${p.oversized}, held poll ${p.heldPoll}, beside ${p.beside}, after ${p.after}${p.goaway !== undefined ? `, GOAWAY ${p.goaway}` : ''}`);
        out.push(p);
      }
    }
  }
  return out;
}
