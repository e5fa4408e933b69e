// The interest summary (proto/interest.ts): the hash matches MurmurHash3's published
// values (a client in another language must compute the same bits), a summary never
// forgets an id it was given, and its false-positive rate stays under 1 % at every size
// it is built for, the cap included.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { INTEREST_MAX_BYTES, InterestFilter, idHash, interestSize, murmur3 } from '../../proto/interest.js';

const utf8 = (s: string) => new TextEncoder().encode(s);

/** A deterministic uuid-shaped id per number (no two alike), so rates do not vary between runs. */
function id(n: number, salt: string): string {
  const hex = (n * 2654435761 + salt.length).toString(16).padStart(12, '0').slice(-12);
  return `${salt.padEnd(8, '0').slice(0, 8)}-0000-4000-8000-${hex}`;
}

describe('murmur3 (x86, 32-bit)', () => {
  it('gives the published test vectors', () => {
    expect(murmur3(utf8(''), 0)).toBe(0);
    expect(murmur3(utf8(''), 1)).toBe(0x514e28b7);
    expect(murmur3(utf8('a'), 0)).toBe(0x3c2569b2);
    expect(murmur3(utf8('abc'), 0)).toBe(0xb3dd93fa);
    expect(murmur3(utf8('test'), 0)).toBe(0xba6bd213);
    expect(murmur3(utf8('Hello, world!'), 0x9747b28c)).toBe(0x24884cba);
    expect(murmur3(utf8('The quick brown fox jumps over the lazy dog'), 0x9747b28c)).toBe(0x2fa826cd);
  });

  it('hashes the UTF-8 bytes, so a non-ASCII id probes the same bits everywhere', () => {
    expect(idHash('é')).toEqual({ h1: murmur3(Uint8Array.of(0xc3, 0xa9), 0), h2: (murmur3(Uint8Array.of(0xc3, 0xa9), 0x9e3779b9) | 1) >>> 0 });
  });
});

describe('InterestFilter', () => {
  it('has every id it was built from', () => {
    for (const n of [0, 1, 7, 1000]) {
      const ids = Array.from({ length: n }, () => randomUUID());
      const f = InterestFilter.of(ids);
      for (const x of ids) expect(f.has(x)).toBe(true);
    }
  });

  it('is empty of everything when built from nothing', () => {
    const f = InterestFilter.of([]);
    expect(f.bits.every((b) => b === 0)).toBe(true);
    expect(f.has(randomUUID())).toBe(false);
  });

  it('stays under a 1 % false-positive rate at sizes from 1 to the cap', () => {
    for (const n of [1, 10, 100, 5_000, 20_000]) {
      const f = InterestFilter.of(Array.from({ length: n }, (_, i) => id(i, 'aaaa')));
      let wrong = 0;
      const probes = 50_000;
      for (let i = 0; i < probes; i++) if (f.has(id(i, 'bbbb'))) wrong += 1;
      expect(wrong / probes, `${n} ids`).toBeLessThan(0.01);
    }
  });

  it('is sized by what it holds, within the cap', () => {
    expect(interestSize(0).bytes).toBe(8);
    expect(interestSize(10).bytes).toBeLessThan(interestSize(1000).bytes);
    expect(interestSize(10_000_000).bytes).toBe(INTEREST_MAX_BYTES);
    for (const n of [1, 100, 20_000]) expect(interestSize(n).hashes).toBeGreaterThanOrEqual(1);
  });

  it('refuses a summary outside its bounds', () => {
    expect(() => new InterestFilter(new Uint8Array(0), 3)).toThrow(RangeError);
    expect(() => new InterestFilter(new Uint8Array(INTEREST_MAX_BYTES + 1), 3)).toThrow(RangeError);
    expect(() => new InterestFilter(new Uint8Array(8), 0)).toThrow(RangeError);
    expect(() => new InterestFilter(new Uint8Array(8), 17)).toThrow(RangeError);
  });
});
