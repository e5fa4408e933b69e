// pageWithin (server/paging.ts): a keyset page ended early by its bytes. Paging through
// rows of any sizes, with any limit and byte bound, returns every row once and in order;
// a page holds at most `limit` rows, at least one, and passes the bound only by its last.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodePageToken, pageWithin } from '../../server/paging.js';

interface Row {
  key: number;
  bytes: number;
}

/** Pages through `rows` as a listing does: fetch limit + 1 after the token's key. */
function pages(rows: Row[], limit: number, maxBytes: number): Row[][] {
  const out: Row[][] = [];
  let token = '';
  for (;;) {
    const after = Number(decodePageToken('page_token', token, 1)?.[0] ?? -1);
    const fetched = rows.filter((r) => r.key > after).slice(0, limit + 1);
    const page = pageWithin(fetched, limit, (r) => [r.key], { maxBytes, bytesOf: (r) => r.bytes });
    out.push(page.items);
    if (page.nextPageToken === '') return out;
    token = page.nextPageToken;
  }
}

describe('pageWithin', () => {
  it('returns every row once whatever the sizes, the limit and the bound', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 100 }), { maxLength: 60 }), fc.integer({ min: 1, max: 20 }), fc.integer({ min: 1, max: 300 }), (sizes, limit, maxBytes) => {
        const rows = sizes.map((bytes, key) => ({ key, bytes }));
        const got = pages(rows, limit, maxBytes);
        expect(got.flat()).toEqual(rows);
        for (const page of got) {
          expect(page.length).toBeLessThanOrEqual(limit);
          if (rows.length > 0) expect(page.length).toBeGreaterThan(0);
          const bytes = page.map((r) => r.bytes);
          expect(bytes.slice(0, -1).reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(maxBytes);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('is page() when the rows fit', () => {
    const rows = [1, 2, 3].map((key) => ({ key, bytes: 1 }));
    expect(pageWithin(rows, 2, (r) => [r.key], { maxBytes: 10, bytesOf: (r) => r.bytes })).toEqual({ items: rows.slice(0, 2), nextPageToken: 'WzJd' });
    expect(pageWithin(rows, 5, (r) => [r.key], { maxBytes: 10, bytesOf: (r) => r.bytes })).toEqual({ items: rows, nextPageToken: '' });
    // Cut by bytes: the row that passes the bound ends the page.
    expect(pageWithin(rows, 3, (r) => [r.key], { maxBytes: 1, bytesOf: (r) => r.bytes }).items).toEqual(rows.slice(0, 2));
  });
});
