// Original file: proto/sfdb/v1/changes.proto


/**
 * An interest summary: a Bloom filter over the ids the caller holds on `topics` (a
 * static-object cache holds objects of the `static/<type>` topics). A change on one of
 * these topics wakes the long-poll only when its id may be in the filter (proto/interest.ts):
 * m = 8 * len(bloom) bits; bit j is bloom[j >> 3] & (1 << (j & 7));
 * h1 = murmur3_x86_32(utf8(id), seed 0); h2 = murmur3_x86_32(utf8(id), seed 0x9e3779b9) | 1;
 * the id may be held when bits (h1 + i * h2) mod 2^32 mod m are set for i = 0 .. hashes-1.
 * Send a new summary (cancel the poll, ask again with the same cursor) when the caller
 * starts holding an id the one in flight does not have.
 */
export interface Interest {
  /**
   * Topics the filter narrows; each one also in the request's `topics`. Empty: no filter.
   */
  'topics'?: (string)[];
  /**
   * 1..65536 bytes when `topics` is not empty.
   */
  'bloom'?: (Buffer | Uint8Array | string);
  /**
   * Probes per id: 1..16.
   */
  'hashes'?: (number);
}

/**
 * An interest summary: a Bloom filter over the ids the caller holds on `topics` (a
 * static-object cache holds objects of the `static/<type>` topics). A change on one of
 * these topics wakes the long-poll only when its id may be in the filter (proto/interest.ts):
 * m = 8 * len(bloom) bits; bit j is bloom[j >> 3] & (1 << (j & 7));
 * h1 = murmur3_x86_32(utf8(id), seed 0); h2 = murmur3_x86_32(utf8(id), seed 0x9e3779b9) | 1;
 * the id may be held when bits (h1 + i * h2) mod 2^32 mod m are set for i = 0 .. hashes-1.
 * Send a new summary (cancel the poll, ask again with the same cursor) when the caller
 * starts holding an id the one in flight does not have.
 */
export interface Interest__Output {
  /**
   * Topics the filter narrows; each one also in the request's `topics`. Empty: no filter.
   */
  'topics': (string)[];
  /**
   * 1..65536 bytes when `topics` is not empty.
   */
  'bloom': (Buffer);
  /**
   * Probes per id: 1..16.
   */
  'hashes': (number);
}
