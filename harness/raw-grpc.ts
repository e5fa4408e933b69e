// gRPC calls made the way a hostile or broken client makes them (bench/edge and the edge's
// integration test), with no gRPC library between the test and the frames:
//   - a slow reader (node:http2): a connection that announces a stream flow-control window
//     of 0, so the server can send no answer's bytes, and sends calls whose answers then
//     wait (or, as a control, the same calls from a connection that reads);
//   - reset calls, as raw frames on a TCP socket: HEADERS, DATA and RST_STREAM(CANCEL) of
//     each call written together, so that the server reads a call and its reset at once (a
//     client library's batching would decide that): a burst in one write (resetBurst), or
//     a churn at a rate that reconnects whenever the server ends a connection
//     (churnStreams), as an attacker would.
import * as http2 from 'node:http2';
import * as net from 'node:net';
import { loadDatabaseProto } from '../proto/load.js';
import { CALLER_DAEMON_HEADER } from '../proto/metadata.js';

/** A gRPC message as sent on the wire: uncompressed, length-prefixed. */
export function grpcFrame(message: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head.writeUInt32BE(message.length, 1);
  return Buffer.concat([head, message]);
}

/** A Database request message serialized with the contract's own serializer. */
export function databaseRequest(method: string, request: object): Buffer {
  const service = loadDatabaseProto().proto.sfdb.v1.Database.service as unknown as Record<string, { requestSerialize(v: unknown): Buffer }>;
  const m = service[method];
  if (m === undefined) throw new Error(`no method ${method} in sfdb.v1.Database`);
  return grpcFrame(m.requestSerialize(request));
}

function headers(method: string, daemon: string): http2.OutgoingHttpHeaders {
  return {
    ':method': 'POST',
    ':path': `/sfdb.v1.Database/${method}`,
    'content-type': 'application/grpc',
    te: 'trailers',
    [CALLER_DAEMON_HEADER]: daemon,
  };
}

/** What became of a slow reader's calls so far. */
export interface SlowReaderTally {
  sent: number;
  /** Answer headers came without a status: its message waits for a window that never opens. */
  waiting: number;
  /** Ended with a gRPC status (a refusal, in headers or trailers): count by code. */
  statuses: Record<string, number>;
  /** Reset by the server (RST_STREAM) or ended with the connection: count by code. */
  resets: Record<string, number>;
  /** The server's advertised SETTINGS_MAX_CONCURRENT_STREAMS. */
  maxConcurrentStreams: number | undefined;
  /** GOAWAY received, or the connection closed. */
  connectionClosed: boolean;
}

/**
 * One connection that reads nothing: stream window 0 from the start. `calls` calls of
 * `method` with `request` (already framed) are sent at once; the tally follows them.
 */
export class SlowReader {
  readonly tally: SlowReaderTally = { sent: 0, waiting: 0, statuses: {}, resets: {}, maxConcurrentStreams: undefined, connectionClosed: false };
  private readonly session: http2.ClientHttp2Session;
  private readonly streams = new Set<http2.ClientHttp2Stream>();

  /** `reads`: a control, the same calls from a connection that reads its answers (and drops them). */
  constructor(address: string, opts: { daemon?: string; reads?: boolean } = {}) {
    this.reads = opts.reads ?? false;
    this.session = http2.connect(`http://${address}`, { settings: { initialWindowSize: this.reads ? 65_535 : 0, enablePush: false } });
    this.session.on('error', () => {});
    this.session.on('remoteSettings', (s) => (this.tally.maxConcurrentStreams = s.maxConcurrentStreams));
    this.session.on('goaway', () => (this.tally.connectionClosed = true));
    this.session.on('close', () => (this.tally.connectionClosed = true));
    this.daemon = opts.daemon ?? 'edge-slow-reader';
  }

  private readonly daemon: string;
  private readonly reads: boolean;

  /** Resolves once the server's SETTINGS arrived. */
  connected(): Promise<void> {
    if (this.tally.maxConcurrentStreams !== undefined) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.session.once('remoteSettings', () => resolve());
      this.session.once('error', reject);
    });
  }

  send(method: string, framed: Buffer, calls: number): void {
    for (let i = 0; i < calls; i++) {
      const stream = this.session.request(headers(method, this.daemon));
      this.tally.sent++;
      this.streams.add(stream);
      let waiting = false;
      const settle = (key: string, into: Record<string, number>): void => {
        if (waiting) this.tally.waiting--;
        waiting = false;
        into[key] = (into[key] ?? 0) + 1;
      };
      stream.on('response', (h) => {
        const status = h['grpc-status'];
        if (status !== undefined) settle(String(status), this.tally.statuses);
        else {
          waiting = true;
          this.tally.waiting++;
        }
      });
      stream.on('trailers', (t) => settle(String(t['grpc-status']), this.tally.statuses));
      stream.on('error', () => {});
      if (this.reads) stream.resume();
      stream.on('close', () => {
        this.streams.delete(stream);
        if (stream.rstCode !== http2.constants.NGHTTP2_NO_ERROR) settle(String(stream.rstCode), this.tally.resets);
      });
      stream.end(framed);
    }
  }

  /** Calls not yet ended either way (waiting, or not yet answered). */
  get open(): number {
    return this.streams.size;
  }

  close(): void {
    this.session.destroy();
  }
}

/** One HTTP/2 frame: 9-byte header and payload. */
function frame(type: number, flags: number, stream: number, payload: Buffer): Buffer {
  const head = Buffer.alloc(9);
  head.writeUIntBE(payload.length, 0, 3);
  head[3] = type;
  head[4] = flags;
  head.writeUInt32BE(stream, 5);
  return Buffer.concat([head, payload]);
}

/** A header block of literal fields without indexing (HPACK 6.2.2), names and values under 127 bytes. */
function literalHeaders(fields: readonly (readonly [string, string])[]): Buffer {
  const parts: Buffer[] = [];
  for (const [name, value] of fields) {
    const n = Buffer.from(name);
    const v = Buffer.from(value);
    if (n.length > 126 || v.length > 126) throw new Error(`header ${name}: over 126 bytes`);
    parts.push(Buffer.from([0, n.length]), n, Buffer.from([v.length]), v);
  }
  return Buffer.concat(parts);
}

const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n');
const CANCEL = Buffer.from([0, 0, 0, 8]);

function requestHeaders(address: string, method: string): Buffer {
  return literalHeaders([
    [':method', 'POST'],
    [':scheme', 'http'],
    [':path', `/sfdb.v1.Database/${method}`],
    [':authority', address],
    ['content-type', 'application/grpc'],
    ['te', 'trailers'],
  ]);
}

/** Stream `id`'s HEADERS, its DATA (the request, END_STREAM) and its RST_STREAM (CANCEL). */
function resetCall(id: number, block: Buffer, request: Buffer): Buffer[] {
  return [frame(1, 0x4, id, block), frame(0, 0x1, id, request), frame(3, 0, id, CANCEL)];
}

/** A TCP connection that has sent the client preface and empty SETTINGS; `onGoaway` hears each GOAWAY's code. */
async function rawConnection(address: string, onGoaway: (code: string) => void = () => {}): Promise<net.Socket> {
  const socket = net.connect({ host: address.slice(0, address.lastIndexOf(':')), port: Number(address.slice(address.lastIndexOf(':') + 1)) });
  socket.on('error', () => {});
  let pending = Buffer.alloc(0);
  socket.on('data', (chunk: Buffer) => {
    pending = Buffer.concat([pending, chunk]);
    while (pending.length >= 9 && pending.length >= 9 + pending.readUIntBE(0, 3)) {
      const length = pending.readUIntBE(0, 3);
      // GOAWAY: the server will take no new stream here; an attacker moves on to a new connection.
      if (pending[3] === 7 && length >= 8) {
        onGoaway(String(pending.readUInt32BE(13)));
        socket.destroy();
        return;
      }
      pending = pending.subarray(9 + length);
    }
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  socket.write(Buffer.concat([PREFACE, frame(4, 0, 0, Buffer.alloc(0))]));
  return socket;
}

/**
 * Calls of `method` (one framed request each), every one reset (RST_STREAM CANCEL) right
 * after its request, all in one write on a new connection; resolves once written and the
 * connection is closed by us `holdMs` later.
 */
export async function resetBurst(address: string, method: string, requests: readonly Buffer[], holdMs = 200): Promise<void> {
  const socket = await rawConnection(address);
  const block = requestHeaders(address, method);
  const frames = requests.flatMap((request, i) => resetCall(2 * i + 1, block, request));
  await new Promise<void>((resolve) => socket.write(Buffer.concat(frames), () => resolve()));
  await new Promise((r) => setTimeout(r, holdMs));
  socket.destroy();
}

/** What a churner did. */
export interface ChurnTally {
  opened: number;
  /** Connections made (1 + reconnections after the server ended one). */
  connections: number;
  /** GOAWAY frames received, by error code. */
  goaways: Record<string, number>;
  elapsedMs: number;
}

/**
 * Opens calls of `method` with `framed` and resets each at once (HEADERS, DATA,
 * RST_STREAM CANCEL, written together as raw frames), about `perSecond` a second in slices
 * of 10 ms for `durationMs`; a new connection whenever the server ends one.
 */
export async function churnStreams(address: string, method: string, framed: Buffer, perSecond: number, durationMs: number): Promise<ChurnTally> {
  const tally: ChurnTally = { opened: 0, connections: 0, goaways: {}, elapsedMs: 0 };
  const block = requestHeaders(address, method);
  const slice = Math.max(1, Math.round(perSecond / 100));
  let conn: { socket: net.Socket; nextId: number; open: boolean } | undefined;
  const start = performance.now();
  while (performance.now() - start < durationMs) {
    const sliceStart = performance.now();
    if (conn === undefined || !conn.open) {
      const c = { socket: await rawConnection(address, (code) => (tally.goaways[code] = (tally.goaways[code] ?? 0) + 1)), nextId: 1, open: true };
      c.socket.once('close', () => (c.open = false));
      conn = c;
      tally.connections++;
    }
    const frames: Buffer[] = [];
    for (let i = 0; i < slice && conn.nextId < 2 ** 31 - 2; i++, conn.nextId += 2) frames.push(...resetCall(conn.nextId, block, framed));
    conn.socket.write(Buffer.concat(frames));
    tally.opened += frames.length / 3;
    await new Promise((r) => setTimeout(r, Math.max(0, 10 - (performance.now() - sliceStart))));
  }
  tally.elapsedMs = Math.round(performance.now() - start);
  conn?.socket.destroy();
  return tally;
}
