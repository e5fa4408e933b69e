// gRPC calls made with node:http2 directly, the way a hostile or broken client makes them
// (bench/edge and the edge's integration test): no gRPC library between the test and the
// frames. Two clients:
//   - a slow reader: a connection that announces a stream flow-control window of 0, so the
//     server can send no answer's bytes, and sends calls whose answers then wait (or, as a
//     control, the same calls from a connection that reads);
//   - a stream churner: HEADERS and a request, then RST_STREAM(CANCEL) at once, at a rate,
//     reconnecting when the server sends GOAWAY (as an attacker would);
//   - a reset burst written as raw frames: HEADERS, DATA, RST_STREAM of many streams in one
//     socket write, so that the server reads each call and its reset together (a client
//     library's own batching decides that for the two above).
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

/** What a churner did. */
export interface ChurnTally {
  opened: number;
  /** Connections made (1 + reconnections after a GOAWAY or a close). */
  connections: number;
  goaways: Record<string, number>;
  elapsedMs: number;
}

/**
 * Opens a stream of `method` with `framed`, cancels it at once (RST_STREAM CANCEL), about
 * `perSecond` times a second (in slices of 10 ms) for `durationMs`; a new connection when
 * the server ends one.
 */
export async function churnStreams(address: string, method: string, framed: Buffer, perSecond: number, durationMs: number): Promise<ChurnTally> {
  const tally: ChurnTally = { opened: 0, connections: 0, goaways: {}, elapsedMs: 0 };
  let session: http2.ClientHttp2Session | undefined;
  const connect = (): http2.ClientHttp2Session => {
    const s = http2.connect(`http://${address}`);
    tally.connections++;
    s.on('error', () => {});
    s.on('goaway', (code) => (tally.goaways[String(code)] = (tally.goaways[String(code)] ?? 0) + 1));
    return s;
  };
  const start = performance.now();
  const h = headers(method, 'edge-churn');
  const slice = Math.max(1, Math.round(perSecond / 100));
  while (performance.now() - start < durationMs) {
    const sliceStart = performance.now();
    if (session === undefined || session.closed || session.destroyed) session = connect();
    for (let i = 0; i < slice && !session.closed && !session.destroyed; i++) {
      try {
        const stream = session.request(h);
        stream.on('error', () => {});
        stream.end(framed);
        stream.close(http2.constants.NGHTTP2_CANCEL);
        tally.opened++;
      } catch {
        break;
      }
    }
    const rest = 10 - (performance.now() - sliceStart);
    await new Promise((r) => setTimeout(r, Math.max(0, rest)));
  }
  tally.elapsedMs = Math.round(performance.now() - start);
  session?.destroy();
  return tally;
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
const NGHTTP2_CANCEL = 8;

/**
 * Calls of `method` (one framed request each), every one reset (RST_STREAM CANCEL) right
 * after its request, all in one write on a new connection; resolves once written and the
 * connection is closed by us `holdMs` later.
 */
export async function resetBurst(address: string, method: string, requests: readonly Buffer[], holdMs = 200): Promise<void> {
  const [host, port] = [address.slice(0, address.lastIndexOf(':')), Number(address.slice(address.lastIndexOf(':') + 1))];
  const socket = net.connect({ host, port });
  socket.on('error', () => {});
  socket.on('data', () => {});
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const block = literalHeaders([
    [':method', 'POST'],
    [':scheme', 'http'],
    [':path', `/sfdb.v1.Database/${method}`],
    [':authority', address],
    ['content-type', 'application/grpc'],
    ['te', 'trailers'],
  ]);
  const rst = Buffer.alloc(4);
  rst.writeUInt32BE(NGHTTP2_CANCEL);
  const frames: Buffer[] = [PREFACE, frame(4, 0, 0, Buffer.alloc(0))];
  requests.forEach((request, i) => {
    const id = 2 * i + 1;
    frames.push(frame(1, 0x4, id, block), frame(0, 0x1, id, request), frame(3, 0, id, rst));
  });
  await new Promise<void>((resolve) => socket.write(Buffer.concat(frames), () => resolve()));
  await new Promise((r) => setTimeout(r, holdMs));
  socket.destroy();
}

