// The interest summary a long-poll carries (docs/change-feed.md, "Interest summaries"): a Bloom filter over the ids a
// process holds (its static-object cache), so that a change on a topic the summary
// narrows wakes that long-poll only when the changed id may be held. The client builds it,
// the tier tests it; both use this file, and a client in another language implements the
// same few lines (documented on WaitForChangesRequest.interest in the .proto):
//
//   bits   m = 8 · len(bloom); bit j is bloom[j >> 3] & (1 << (j & 7))
//   hashes h1 = murmur3_32(utf8(id), seed 0), h2 = murmur3_32(utf8(id), seed 0x9e3779b9) | 1
//   probe  g_i = (h1 + i · h2) mod 2^32 mod m, for i = 0 .. k-1 (k = `hashes`)
//
// An id may be held when all k bits are set. A false positive costs one needless wake-up;
// a false negative cannot happen, and the filter only ever decides whether to wake:
// every change on the topics is still delivered whenever the long-poll is answered.

/** Largest summary a long-poll may carry (bytes): 65 536 bytes hold ~47 000 ids at 0.5 %. */
export const INTEREST_MAX_BYTES = 65_536;
/** Most hash probes per id. */
export const INTEREST_MAX_HASHES = 16;
/** The false-positive rate a summary is sized for (the target is ≤ 1 %). */
export const INTEREST_FALSE_POSITIVE_RATE = 0.005;

const SEED_1 = 0;
const SEED_2 = 0x9e3779b9;
const encoder = new TextEncoder();

/** MurmurHash3, x86 32-bit variant, over `bytes`. */
export function murmur3(bytes: Uint8Array, seed: number): number {
  let h = seed >>> 0;
  const n = bytes.length;
  const blocks = n & ~3;
  for (let i = 0; i < blocks; i += 4) {
    let k = (bytes[i] as number) | ((bytes[i + 1] as number) << 8) | ((bytes[i + 2] as number) << 16) | ((bytes[i + 3] as number) << 24);
    k = Math.imul(k, 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, 0x1b873593);
    h ^= k;
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  const tail = n & 3;
  if (tail > 0) {
    let k = bytes[blocks] as number;
    if (tail > 1) k |= (bytes[blocks + 1] as number) << 8;
    if (tail > 2) k |= (bytes[blocks + 2] as number) << 16;
    k = Math.imul(k, 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, 0x1b873593);
    h ^= k;
  }
  h ^= n;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** An id's two base hashes: computed once, tested against any number of summaries. */
export interface IdHash {
  readonly h1: number;
  readonly h2: number;
}

export function idHash(id: string): IdHash {
  const bytes = encoder.encode(id);
  return { h1: murmur3(bytes, SEED_1), h2: (murmur3(bytes, SEED_2) | 1) >>> 0 };
}

/** Bits and probes for `n` ids at the target false-positive rate (at least 64 bits, at most the cap). */
export function interestSize(n: number): { bytes: number; hashes: number } {
  const count = Math.max(1, n);
  const bits = Math.ceil((count * -Math.log(INTEREST_FALSE_POSITIVE_RATE)) / (Math.LN2 * Math.LN2));
  const bytes = Math.min(INTEREST_MAX_BYTES, Math.max(8, Math.ceil(bits / 8)));
  const hashes = Math.min(INTEREST_MAX_HASHES, Math.max(1, Math.round(((bytes * 8) / count) * Math.LN2)));
  return { bytes, hashes };
}

export class InterestFilter {
  private readonly m: number;

  constructor(
    readonly bits: Uint8Array,
    readonly hashes: number,
  ) {
    if (bits.length < 1 || bits.length > INTEREST_MAX_BYTES) throw new RangeError(`an interest summary is 1..${INTEREST_MAX_BYTES} bytes, not ${bits.length}`);
    if (!Number.isInteger(hashes) || hashes < 1 || hashes > INTEREST_MAX_HASHES) throw new RangeError(`hashes is 1..${INTEREST_MAX_HASHES}, not ${hashes}`);
    this.m = bits.length * 8;
  }

  /** A summary of `ids`, sized for their number. */
  static of(ids: Iterable<string>): InterestFilter {
    const list = [...ids];
    const { bytes, hashes } = interestSize(list.length);
    const filter = new InterestFilter(new Uint8Array(bytes), hashes);
    for (const id of list) filter.add(id);
    return filter;
  }

  add(id: string): void {
    const { h1, h2 } = idHash(id);
    for (let i = 0; i < this.hashes; i++) {
      const j = ((h1 + Math.imul(i, h2)) >>> 0) % this.m;
      this.bits[j >> 3] = (this.bits[j >> 3] as number) | (1 << (j & 7));
    }
  }

  /** True when `id` may be held (false: it certainly is not). */
  has(id: string): boolean {
    return this.hasHash(idHash(id));
  }

  hasHash({ h1, h2 }: IdHash): boolean {
    for (let i = 0; i < this.hashes; i++) {
      const j = ((h1 + Math.imul(i, h2)) >>> 0) % this.m;
      if (((this.bits[j >> 3] as number) & (1 << (j & 7))) === 0) return false;
    }
    return true;
  }
}
