// Who may open the admin view. Without SFDB_ADMIN_TOKEN (only possible while the HTTP port
// binds loopback: the configuration refuses anything else) loopback clients may; with it,
// every request must carry it: `Authorization: Bearer <token>`, or `?token=<token>` once
// (answered with a cookie, HttpOnly and SameSite=Strict, and a redirect that drops the
// token from the address bar), then the cookie. The cookie holds a digest of the token,
// not the token. Identities are logged; the token never is.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const COOKIE = 'sfdb_admin';

export type Access =
  | { ok: true; identity: 'loopback' | 'token'; via?: 'header' | 'query' | 'cookie'; setCookie?: string }
  | { ok: false; status: 401 | 403; reason: string };

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

function same(a: string, b: Buffer): boolean {
  return timingSafeEqual(digest(a), b);
}

export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const a = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  return a === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(a);
}

function cookieOf(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export class AdminAccess {
  private readonly tokenDigest: Buffer | undefined;
  private readonly cookieValue: string;
  private readonly cookieDigest: Buffer | undefined;

  constructor(token: string) {
    this.tokenDigest = token === '' ? undefined : digest(token);
    this.cookieValue = token === '' ? '' : createHash('sha256').update(`sfdb-admin-cookie\u0000${token}`).digest('hex');
    this.cookieDigest = token === '' ? undefined : digest(this.cookieValue);
  }

  get tokenRequired(): boolean {
    return this.tokenDigest !== undefined;
  }

  check(req: IncomingMessage, url: URL): Access {
    if (!this.tokenDigest || !this.cookieDigest) {
      if (isLoopback(req.socket.remoteAddress)) return { ok: true, identity: 'loopback' };
      return { ok: false, status: 403, reason: 'the admin view answers loopback clients only (no SFDB_ADMIN_TOKEN is set)' };
    }
    const header = req.headers.authorization;
    if (header !== undefined) {
      const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
      if (m && same(m[1] as string, this.tokenDigest)) return { ok: true, identity: 'token', via: 'header' };
      return { ok: false, status: 401, reason: 'the Authorization header does not carry the admin token' };
    }
    const query = url.searchParams.get('token');
    if (query !== null) {
      if (same(query, this.tokenDigest)) {
        return { ok: true, identity: 'token', via: 'query', setCookie: `${COOKIE}=${this.cookieValue}; Path=/admin; HttpOnly; SameSite=Strict` };
      }
      return { ok: false, status: 401, reason: 'the token in the address is not the admin token' };
    }
    const cookie = cookieOf(req, COOKIE);
    if (cookie !== undefined && same(cookie, this.cookieDigest)) return { ok: true, identity: 'token', via: 'cookie' };
    return { ok: false, status: 401, reason: cookie === undefined ? 'the admin token is required' : 'the admin cookie is not valid (the token changed?)' };
  }
}

/** The request's path and query for the log, without the token. */
export function loggedPath(url: URL): string {
  const params = new URLSearchParams(url.searchParams);
  if (params.has('token')) params.set('token', '(redacted)');
  const q = params.toString();
  return q === '' ? url.pathname : `${url.pathname}?${q}`;
}
