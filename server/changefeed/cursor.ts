// The change-feed cursor: "everything up to `high` has been seen, except the open
// `gaps`". Rows commit out of sequence order, so a reader that has seen seq 12 may not
// yet have seen seq 11 (its transaction is still open): 11 stays in the cursor's gaps,
// and a later answer delivers it if it commits. Text form: "high" or "high:g1.g2…";
// clients pass it back as they got it.
import { InvalidArgumentError } from '../errors.js';

export interface Cursor {
  readonly high: bigint;
  /** Ascending, each below `high`. */
  readonly gaps: readonly bigint[];
}

/** Most gaps a cursor carries; beyond this the oldest are given up (counted by the feed). */
export const MAX_CURSOR_GAPS = 64;

const FORM = /^(\d{1,20})(?::(\d{1,20}(?:\.\d{1,20}){0,63}))?$/;

export function encodeCursor(c: Cursor): string {
  return c.gaps.length === 0 ? String(c.high) : `${c.high}:${c.gaps.join('.')}`;
}

/** '' → undefined (no cursor yet). Anything malformed is INVALID_ARGUMENT on `field`. */
export function decodeCursor(field: string, text: string): Cursor | undefined {
  if (text === '') return undefined;
  const m = FORM.exec(text);
  if (!m) throw new InvalidArgumentError(field, 'not a cursor this tier answered (pass back the last one as received)');
  const high = BigInt(m[1] as string);
  if (high > 0xffffffffffffffffn) throw new InvalidArgumentError(field, 'out of range');
  const gaps = m[2] === undefined ? [] : m[2].split('.').map((g) => BigInt(g));
  for (let i = 0; i < gaps.length; i++) {
    const g = gaps[i] as bigint;
    if (g >= high) throw new InvalidArgumentError(field, 'a gap is not below the cursor');
    if (i > 0 && g <= (gaps[i - 1] as bigint)) throw new InvalidArgumentError(field, 'gaps are not ascending');
  }
  return { high, gaps };
}
