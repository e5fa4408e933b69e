// gRPC spoken by hand over one node:http2 session, as a hostile client speaks it: any
// headers, any body bytes, several calls side by side on the same connection. A call's
// outcome is what came back, in one word a table can count: the grpc-status name, an
// HTTP status, the stream's reset code, or the connection's GOAWAY code. Never throws.
// Also the Database service's paths and valid request bytes, for the fuzzer and the probes.
import * as http2 from 'node:http2';
import * as grpc from '@grpc/grpc-js';
import { loadDatabaseProto } from '../../proto/load.js';

/** What came back: `OK`, `INVALID_ARGUMENT`, … ; `HTTP 415`; `rst 11`; `goaway 9`; `no answer` (cancelled by the client). */
export type Outcome = string;

export interface H2CallResult {
  outcome: Outcome;
  /** grpc-message, as sent (for a failure message; may be long). */
  message?: string;
  /** Milliseconds from the request to its end. */
  ms: number;
}

type Codec = { path: string; requestSerialize: (v: unknown) => Buffer };
const service = loadDatabaseProto().proto.sfdb.v1.Database.service as unknown as Record<string, Codec>;

/** The request bytes of the Database service's `method` (a valid message). */
export function requestBytes(method: string, request: unknown): Buffer {
  const codec = service[method];
  if (!codec) throw new Error(`no method ${method}`);
  return codec.requestSerialize(request);
}

/** The HTTP/2 path of the Database service's `method`. */
export const pathOf = (method: string): string => service[method]?.path ?? `/sfdb.v1.Database/${method}`;

/** A gRPC message frame: compressed flag (any byte), 4-byte big-endian length (any: it may lie), bytes. */
export function grpcFrame(message: Buffer, opts: { flag?: number; length?: number } = {}): Buffer {
  const head = Buffer.alloc(5);
  head.writeUInt8(opts.flag ?? 0, 0);
  head.writeUInt32BE(opts.length ?? message.length, 1);
  return Buffer.concat([head, message]);
}

/**
 * A client session that sends any header block (Node's own refuses to send one over
 * 64 KiB: grpc-js lifts that limit the same way) and reports its GOAWAY to its calls.
 */
export function connect(address: string): http2.ClientHttp2Session {
  const session = http2.connect(`http://${address}`, { maxSendHeaderBlockLength: Number.MAX_SAFE_INTEGER });
  session.on('error', () => undefined);
  session.on('goaway', (code: number) => {
    (session as GoawaySeen)[GOAWAY] = code;
  });
  return session;
}

const GOAWAY = Symbol('goaway code');
type GoawaySeen = http2.ClientHttp2Session & { [GOAWAY]?: number };

/** The GOAWAY code the server sent on `session`, if it did. */
export function goawayOf(session: http2.ClientHttp2Session): number | undefined {
  return (session as GoawaySeen)[GOAWAY];
}

/** Resolves once the server's SETTINGS came (or the session failed first). */
export function settled(session: http2.ClientHttp2Session): Promise<http2.Settings | undefined> {
  if (session.remoteSettings && Object.keys(session.remoteSettings).length > 0 && !session.connecting) return Promise.resolve(session.remoteSettings);
  return new Promise((resolve) => {
    session.once('remoteSettings', resolve);
    session.once('close', () => resolve(undefined));
  });
}

export interface H2Call {
  path: string;
  /** Request headers over the defaults (POST, application/grpc, te: trailers); an array is a repeated field, undefined drops a default. */
  headers?: http2.OutgoingHttpHeaders;
  /** Headers node:http2 must never index (HPACK literal never indexed). */
  sensitive?: readonly string[];
  /** Body chunks, written in order. */
  body: readonly Buffer[];
  /** End the stream after the body (a unary call does): true unless told. */
  end?: boolean;
  /** Cancel (RST_STREAM CANCEL) after this long without an answer: outcome `no answer`. */
  timeoutMs: number;
}

/** One call on `session`; answers what came back, never throws. */
export function h2Call(session: http2.ClientHttp2Session, call: H2Call): Promise<H2CallResult> {
  const start = performance.now();
  return new Promise((resolve) => {
    let status: number | undefined;
    let message: string | undefined;
    let http: number | undefined;
    let settledAs: Outcome | undefined;
    let stream: http2.ClientHttp2Stream;
    const finish = (outcome: Outcome): void => {
      if (settledAs !== undefined) return;
      settledAs = outcome;
      clearTimeout(timer);
      resolve({ outcome, ...(message !== undefined ? { message } : {}), ms: Math.round(performance.now() - start) });
    };
    const timer = setTimeout(() => {
      finish('no answer');
      stream?.close(http2.constants.NGHTTP2_CANCEL);
    }, call.timeoutMs);
    const read = (h: http2.IncomingHttpHeaders): void => {
      if (h[':status'] !== undefined) http = Number(h[':status']);
      if (typeof h['grpc-message'] === 'string') message = h['grpc-message'];
      if (h['grpc-status'] !== undefined) {
        // The answer is complete (trailers, or trailers-only), even while the client's side
        // is still open: that side is reset, as a client that has its answer would.
        status = Number(h['grpc-status']);
        finish(grpc.status[status] ?? `grpc-status ${status}`);
        if (call.end === false) stream.close(http2.constants.NGHTTP2_CANCEL);
      }
    };
    const ended = (): void => {
      if (status !== undefined) return finish(grpc.status[status] ?? `grpc-status ${status}`);
      const goaway = goawayOf(session);
      if (goaway !== undefined && goaway !== 0) return finish(`goaway ${goaway}`);
      if (stream?.rstCode) return finish(`rst ${stream.rstCode}`);
      if (session.destroyed || session.closed) return finish('connection closed');
      finish(http !== undefined ? `HTTP ${http}` : 'ended without status');
    };
    try {
      const headers: http2.OutgoingHttpHeaders = { ':method': 'POST', ':path': call.path, 'content-type': 'application/grpc', te: 'trailers', ...call.headers };
      for (const [name, value] of Object.entries(headers)) if (value === undefined) delete headers[name];
      if (call.sensitive) (headers as Record<string | symbol, unknown>)[http2.sensitiveHeaders] = call.sensitive;
      stream = session.request(headers, { endStream: false });
    } catch (err) {
      clearTimeout(timer);
      resolve({ outcome: `refused by the client (${(err as { code?: string }).code ?? 'error'})`, ms: 0 });
      return;
    }
    stream.on('response', read);
    stream.on('trailers', read);
    stream.on('error', () => undefined);
    stream.on('frameError', () => undefined);
    stream.on('close', ended);
    stream.resume();
    for (const chunk of call.body) stream.write(chunk);
    if (call.end !== false) stream.end();
  });
}
