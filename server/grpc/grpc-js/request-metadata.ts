// A request's metadata as grpc-js builds it, and what it would hide.
//
// grpc-js builds a call's Metadata from the HTTP/2 headers (Metadata.fromHttp2Headers) and
// drops an entry whose key or text value breaks its rules (value outside printable ASCII),
// writing a line to stderr that echoes the value. A caller node sent as UTF-8 thus reached
// the tier as no claim at all: served, counted unclaimed. installRequestMetadataChecks()
// wraps fromHttp2Headers once per process: on a request's headers, entries grpc-js would
// drop are taken out first (so grpc-js logs nothing, least of all a client's value) and
// their keys are marked on that call's Metadata (call-marks.ts; droppedKeys reads the
// mark, which a copy of the Metadata keeps). What the tier makes of
// them is its own rule (../caller-headers.ts). A header Node's HTTP/2 layer itself ignores
// (a value starting or ending with a blank, or holding CR, LF or NUL) never reaches
// JavaScript.
//
// Server side only. grpc-js's client builds Metadata through the same static function
// (subchannel-call.js: a response's headers and trailers), and the tier's own peer client
// (server/changefeed/peers.ts) and the tests' clients share this process. Only a request's
// header block holds :path: HTTP/2 requires it of every request but CONNECT (RFC 9113
// §8.3.1) and forbids it in a response (§8.3), and nghttp2 refuses a stream that breaks
// either. grpc-js's server builds a call's metadata from the request's headers
// (server-interceptors.js); everything without :path goes to grpc-js untouched.
import { Metadata } from '@grpc/grpc-js';
import type { IncomingHttpHeaders } from 'node:http2';
import { DROPPED_KEYS_MARK, readMark, setMark } from './call-marks.js';

/** grpc-js's own rules (its metadata.js): a key, and a value of a key not ending -bin. */
const LEGAL_KEY = /^[:0-9a-z_.-]+$/;
const PRINTABLE = /^[ -~]*$/;

let installed = false;

function legal(key: string, value: string | string[] | undefined): boolean {
  if (!LEGAL_KEY.test(key)) return false;
  if (key.endsWith('-bin') || value === undefined) return true;
  return typeof value === 'string' ? PRINTABLE.test(value) : value.every((v) => PRINTABLE.test(v));
}

export function installRequestMetadataChecks(): void {
  if (installed) return;
  const original = Metadata.fromHttp2Headers;
  if (typeof original !== 'function') {
    throw new Error('@grpc/grpc-js no longer has Metadata.fromHttp2Headers: server/grpc/grpc-js/request-metadata.ts needs updating');
  }
  Metadata.fromHttp2Headers = function (this: typeof Metadata, headers: IncomingHttpHeaders): Metadata {
    // A response's headers or trailers, on a client call of this process: grpc-js's own.
    if (headers[':path'] === undefined) return original.call(this, headers);
    let illegal: string[] | undefined;
    for (const key of Object.keys(headers)) {
      if (key.charCodeAt(0) === 58 /* ':' pseudo-header */) continue;
      if (!legal(key, headers[key])) (illegal ??= []).push(key);
    }
    if (illegal === undefined) return original.call(this, headers);
    const kept: IncomingHttpHeaders = { ...headers };
    for (const key of illegal) delete kept[key];
    const metadata = original.call(this, kept);
    // Header names are tokens (nghttp2 refuses others): printable, and never a comma.
    setMark(metadata, DROPPED_KEYS_MARK, illegal.map((key) => key.replace(/[^ -~]/g, '?')).join(','));
    return metadata;
  };
  installed = true;
}

/** Keys of a request's metadata that grpc-js would have dropped (their values are never kept). */
export function droppedKeys(metadata: Metadata): readonly string[] {
  return readMark(metadata, DROPPED_KEYS_MARK)?.split(',') ?? [];
}
