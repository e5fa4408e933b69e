// Opaque keyset cursors: the last row's key, base64url JSON. A cursor says where to
// resume, never what to filter; the scope always comes from the request.
import { InvalidArgumentError } from './errors.js';

export function encodePageToken(key: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');
}

/** The key of a page token, or undefined for the first page. */
export function decodePageToken(field: string, token: string, arity: number): string[] | undefined {
  if (token === '') return undefined;
  if (token.length > 2048) throw new InvalidArgumentError(field, 'too long');
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidArgumentError(field, 'not a page token from this service');
  }
  if (!Array.isArray(key) || key.length !== arity || !key.every((k) => typeof k === 'string' || typeof k === 'number')) {
    throw new InvalidArgumentError(field, 'not a page token from this service');
  }
  return key.map(String);
}

/**
 * Given `limit + 1` rows fetched, the page and the token for the next one. Fetching one
 * extra row tells whether another page exists without a second query.
 */
export function page<T>(rows: T[], limit: number, keyOf: (row: T) => (string | number)[]): { items: T[]; nextPageToken: string } {
  if (rows.length <= limit) return { items: rows, nextPageToken: '' };
  const items = rows.slice(0, limit);
  const last = items[items.length - 1] as T;
  return { items, nextPageToken: encodePageToken(keyOf(last)) };
}

/**
 * page(), ended early once the items' `bytesOf` passes `maxBytes` (the item that passes
 * it is the page's last; the first is always in), for listings whose rows are large
 * enough that `limit` of them would not fit one answer.
 */
export function pageWithin<T>(
  rows: T[],
  limit: number,
  keyOf: (row: T) => (string | number)[],
  budget: { maxBytes: number; bytesOf: (row: T) => number },
): { items: T[]; nextPageToken: string } {
  const end = Math.min(rows.length, limit);
  let bytes = 0;
  for (let n = 0; n < end; n++) {
    bytes += budget.bytesOf(rows[n] as T);
    if (bytes > budget.maxBytes && n + 1 < rows.length) return page(rows.slice(0, n + 2), n + 1, keyOf);
  }
  return page(rows, limit, keyOf);
}
