// Protobuf bytes bent by hand: a valid request's encoding flipped, cut, extended, merged
// with another, or given a field whose wire type or bytes are wrong (strings that are not
// UTF-8, varints of eleven bytes, lengths past the end, groups, wire types 6 and 7).
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import type { Field } from './schema.js';

export function varint(value: bigint): Buffer {
  const out: number[] = [];
  let v = BigInt.asUintN(64, value);
  do {
    const byte = Number(v & 0x7fn);
    v >>= 7n;
    out.push(v > 0n ? byte | 0x80 : byte);
  } while (v > 0n);
  return Buffer.from(out);
}

export const tag = (field: number, wireType: number): Buffer => varint((BigInt(field) << 3n) | BigInt(wireType));

/** A length-delimited field (wire type 2) holding `bytes`. */
export const lengthDelimited = (field: number, bytes: Buffer): Buffer => Buffer.concat([tag(field, 2), varint(BigInt(bytes.length)), bytes]);

/** Byte sequences that are not UTF-8: a stray continuation, overlong NUL, a surrogate (CESU-8), past U+10FFFF, cut short. */
export const NOT_UTF8: readonly Buffer[] = [
  [0xff],
  [0x80],
  [0xc0, 0x80],
  [0xed, 0xa0, 0x80],
  [0xed, 0xbf, 0xbf],
  [0xf4, 0x90, 0x80, 0x80],
  [0xe2, 0x82],
  [0x61, 0xfe, 0x62],
].map((b) => Buffer.from(b));

/** A value of `field` in a wrong or odd encoding (for any field). */
function oddValue(field: number): Arbitrary<Buffer> {
  return fc.oneof(
    // Varints: eleven bytes (too long), the largest, a negative int32.
    fc.constantFrom(
      Buffer.concat([tag(field, 0), Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01])]),
      Buffer.concat([tag(field, 0), varint(2n ** 64n - 1n)]),
      Buffer.concat([tag(field, 0), varint(-1n)]),
      Buffer.concat([tag(field, 0), varint(2n ** 31n)]),
    ),
    // Fixed widths, groups, and the wire types no field has.
    fc.constantFrom(1, 3, 4, 5, 6, 7).chain((wt) => fc.uint8Array({ maxLength: 9 }).map((b) => Buffer.concat([tag(field, wt), Buffer.from(b)]))),
    // Length-delimited: not UTF-8, random, or a length past the end of the message.
    fc.constantFrom(...NOT_UTF8).map((b) => lengthDelimited(field, b)),
    fc.uint8Array({ maxLength: 24 }).map((b) => lengthDelimited(field, Buffer.from(b))),
    fc.constantFrom(Buffer.concat([tag(field, 2), varint(1000n), Buffer.from('x')]), Buffer.concat([tag(field, 2), varint(2n ** 32n - 1n)])),
  );
}

/** A valid encoding bent one of several ways. `fields` are the request message's fields. */
export function bent(bytes: Buffer, fields: readonly Field[]): Arbitrary<{ how: string; bytes: Buffer }> {
  const numbers = [...fields.map((f) => f.number), 0, 99, 536_870_911];
  const at = fc.nat({ max: Math.max(0, bytes.length) });
  return fc.oneof(
    fc.tuple(at, fc.integer({ min: 1, max: 255 })).map(([i, x]) => {
      const b = Buffer.from(bytes);
      if (b.length > 0) b.writeUInt8(b.readUInt8(i % b.length) ^ x, i % b.length);
      return { how: `byte ${i % Math.max(1, b.length)} xor ${x}`, bytes: b };
    }),
    at.map((i) => ({ how: `cut at ${i}`, bytes: bytes.subarray(0, i) })),
    fc.uint8Array({ minLength: 1, maxLength: 16 }).map((tail) => ({ how: `+ ${Buffer.from(tail).toString('hex')}`, bytes: Buffer.concat([bytes, tail]) })),
    fc.constant({ how: 'twice (merged)', bytes: Buffer.concat([bytes, bytes]) }),
    fc
      .constantFrom(...numbers)
      .chain((n) => oddValue(n).map((extra) => ({ how: `field ${n} += ${extra.toString('hex').slice(0, 40)}`, bytes: Buffer.concat([bytes, extra]) }))),
    // Every string field not UTF-8 (the last occurrence wins: it replaces the valid value).
    fc.constantFrom(...NOT_UTF8).map((b) => ({
      how: `every string field = ${b.toString('hex')}`,
      bytes: Buffer.concat([bytes, ...fields.filter((f) => f.kind === 'string' && !f.repeated).map((f) => lengthDelimited(f.number, b))]),
    })),
  );
}
