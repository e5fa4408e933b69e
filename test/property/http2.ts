// gRPC spoken by hand over node:http2, for what grpc-js will not send: header values
// outside printable ASCII, a message cut short, a compressed flag with no encoding, two
// messages for a unary call, no message at all, a length prefix that lies.
import * as http2 from 'node:http2';

export interface H2Answer {
  /** grpc-status from the trailers (or a trailers-only answer), as a number. */
  grpcStatus?: number;
  grpcMessage?: string;
  /** HTTP :status. */
  httpStatus?: number;
  /** The stream or session failed instead of answering (reset, refused). */
  error?: string;
}

/** A gRPC message frame: compressed flag, 4-byte big-endian length, bytes. */
export function frame(message: Buffer, opts: { compressed?: boolean; length?: number } = {}): Buffer {
  const head = Buffer.alloc(5);
  head.writeUInt8(opts.compressed ? 1 : 0, 0);
  head.writeUInt32BE(opts.length ?? message.length, 1);
  return Buffer.concat([head, message]);
}

export interface H2Request {
  path: string;
  /** Extra request headers (values as node:http2 takes them). */
  headers?: Record<string, string | string[]>;
  /** Body chunks, written in order; the stream ends after them. */
  body: Buffer[];
  timeoutMs?: number;
}

/** One request on its own session; answers what came back, never throws. */
export function h2call(port: number, req: H2Request): Promise<H2Answer> {
  return new Promise((resolve) => {
    const answer: H2Answer = {};
    let settled = false;
    const session = http2.connect(`http://127.0.0.1:${port}`);
    const done = (): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      session.close();
      resolve(answer);
    };
    const fail = (err: Error): void => {
      answer.error ??= err.message;
      done();
    };
    const timer = setTimeout(() => fail(new Error('no answer in time')), req.timeoutMs ?? 10_000);
    session.on('error', fail);
    const read = (h: http2.IncomingHttpHeaders): void => {
      if (h[':status'] !== undefined) answer.httpStatus = Number(h[':status']);
      if (h['grpc-status'] !== undefined) answer.grpcStatus = Number(h['grpc-status']);
      if (typeof h['grpc-message'] === 'string') answer.grpcMessage = decodeURIComponent(h['grpc-message']);
    };
    let stream: http2.ClientHttp2Stream;
    try {
      stream = session.request({
        ':method': 'POST',
        ':path': req.path,
        'content-type': 'application/grpc',
        te: 'trailers',
        ...req.headers,
      });
    } catch (err) {
      fail(err as Error);
      return;
    }
    stream.on('response', read);
    stream.on('trailers', read);
    stream.on('error', fail);
    stream.on('close', () => {
      if (answer.grpcStatus === undefined && stream.rstCode) answer.error ??= `stream reset with code ${stream.rstCode}`;
      done();
    });
    stream.on('data', () => undefined);
    for (const chunk of req.body) stream.write(chunk);
    stream.end();
  });
}
