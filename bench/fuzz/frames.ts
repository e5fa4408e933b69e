// HTTP/2 frames written by hand on a raw TCP socket, for what node:http2 will not send:
// frames on the wrong stream, bad SETTINGS, window overflows, a header block left without
// its END_HEADERS, header blocks HPACK-encoded here (literals never indexed, no Huffman:
// enough to reach the server's decoder with any field). What the server does with them
// is read back at the frame level only: the GOAWAY code it sends, or that it closed.
import * as net from 'node:net';

const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');

export const FRAME = { DATA: 0, HEADERS: 1, PRIORITY: 2, RST_STREAM: 3, SETTINGS: 4, PUSH_PROMISE: 5, PING: 6, GOAWAY: 7, WINDOW_UPDATE: 8, CONTINUATION: 9 } as const;
export const FLAG = { END_STREAM: 0x1, ACK: 0x1, END_HEADERS: 0x4, PADDED: 0x8, PRIORITY: 0x20 } as const;

export interface RawFrame {
  type: number;
  flags: number;
  /** 31 bits (the reserved bit is sent as given when over 2^31 - 1). */
  stream: number;
  payload: Buffer;
}

export function encodeFrame(f: RawFrame): Buffer {
  const head = Buffer.alloc(9);
  head.writeUIntBE(f.payload.length & 0xffffff, 0, 3);
  head.writeUInt8(f.type & 0xff, 3);
  head.writeUInt8(f.flags & 0xff, 4);
  head.writeUInt32BE(f.stream >>> 0, 5);
  return Buffer.concat([head, f.payload]);
}

/** An HPACK integer with an `n`-bit prefix and the representation's high bits `first`. */
function hpackInt(value: number, n: number, first: number): Buffer {
  const max = (1 << n) - 1;
  if (value < max) return Buffer.from([first | value]);
  const out = [first | max];
  let v = value - max;
  while (v >= 128) {
    out.push((v % 128) + 128);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return Buffer.from(out);
}

const hpackString = (s: Buffer): Buffer => Buffer.concat([hpackInt(s.length, 7, 0), s]);

/** A header block: every field a literal never indexed with a literal name, no Huffman (RFC 7541 §6.2.3). */
export function headerBlock(fields: readonly (readonly [string, string | Buffer])[]): Buffer {
  return Buffer.concat(fields.flatMap(([name, value]) => [Buffer.from([0x10]), hpackString(Buffer.from(name, 'latin1')), hpackString(typeof value === 'string' ? Buffer.from(value, 'latin1') : value)]));
}

/** SETTINGS entries: [id, value] pairs. */
export function settingsPayload(entries: readonly (readonly [number, number])[]): Buffer {
  const out = Buffer.alloc(entries.length * 6);
  entries.forEach(([id, value], i) => {
    out.writeUInt16BE(id & 0xffff, i * 6);
    out.writeUInt32BE(value >>> 0, i * 6 + 2);
  });
  return out;
}

export interface RawOutcome {
  /** `goaway N` (the server's code), `closed` (no GOAWAY), `open` (still talking when we left), `connect failed`. */
  outcome: string;
  /** RST_STREAM codes the server sent. */
  resets: number[];
}

/**
 * Connects, sends the preface, an empty SETTINGS (and the ACK of the server's) and then
 * `frames`, and reads what comes back for `listenMs` or until the server closes; the socket
 * is destroyed at the end.
 */
export function sendFrames(host: string, port: number, frames: readonly RawFrame[], listenMs: number): Promise<RawOutcome> {
  return new Promise((resolve) => {
    const resets: number[] = [];
    let goaway: number | undefined;
    let pending = Buffer.alloc(0);
    let done = false;
    const socket = net.connect(port, host);
    const finish = (outcome: string): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ outcome: goaway !== undefined ? `goaway ${goaway}` : outcome, resets });
    };
    const timer = setTimeout(() => finish('open'), listenMs);
    socket.on('error', () => finish(goaway !== undefined ? 'closed' : 'connect failed'));
    socket.on('close', () => finish('closed'));
    socket.on('connect', () => {
      socket.write(Buffer.concat([PREFACE, encodeFrame({ type: FRAME.SETTINGS, flags: 0, stream: 0, payload: Buffer.alloc(0) }), ...frames.map(encodeFrame)]));
    });
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 9) {
        const length = pending.readUIntBE(0, 3);
        if (pending.length < 9 + length) break;
        const type = pending.readUInt8(3);
        const flags = pending.readUInt8(4);
        const payload = pending.subarray(9, 9 + length);
        pending = pending.subarray(9 + length);
        if (type === FRAME.SETTINGS && (flags & FLAG.ACK) === 0 && !socket.destroyed) {
          socket.write(encodeFrame({ type: FRAME.SETTINGS, flags: FLAG.ACK, stream: 0, payload: Buffer.alloc(0) }));
        }
        if (type === FRAME.RST_STREAM && payload.length >= 4) resets.push(payload.readUInt32BE(0));
        if (type === FRAME.GOAWAY && payload.length >= 8) goaway = payload.readUInt32BE(4);
      }
    });
  });
}
