// Generators of field values an outside client might send, per kind of field. Each kind
// has `valid` (what the tier should accept, boundaries included: at a length limit,
// Unicode, the largest number) and `hostile` (malformed, over a limit, or merely odd).
// Pools (`pool`) are ids and names that exist in the tier's database, filled by the test's
// fixtures, so valid requests reach real rows rather than only "not found".
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';

export interface Gen<T = unknown> {
  readonly valid: Arbitrary<T>;
  readonly hostile: Arbitrary<T>;
}

/** What exists in the database under test; filled before the properties run. */
export const pool = {
  nodes: [] as string[],
  fqdns: [] as string[],
  objects: [] as string[],
  /** [ObjectType name, uuid] of objects that exist. */
  typed: [] as [string, string][],
  items: [] as string[],
  transfers: [] as string[],
  leases: ['fuzz-lease', 'fuzz/other'] as string[],
  holders: ['fuzz', 'holder-a'] as string[],
  names: ['q1', 'q2', 'd1', 'rel', 'ev', 'k1', 'ns1', 'attr'] as string[],
  addresses: ['10.0.0.1', '2001:db8::1'] as string[],
  replicaIds: [] as string[],
  ownerTokens: [] as string[],
  /** A lease the fixtures hold, as a maintenance RPC presents it. */
  fence: { name: 'fuzz/maint', holder: 'fuzz', token: '1' },
};

/** One of a pool's entries, read when a value is generated (the pool fills up late). */
export function fromPool(get: () => readonly string[], fallback: Arbitrary<string>): Arbitrary<string> {
  return fc.nat({ max: 1 << 20 }).chain((i) => {
    const values = get();
    return values.length === 0 ? fallback : fc.constant(values[i % values.length] as string);
  });
}

const repeat = (unit: string, n: number): string => unit.repeat(n);

/** Around each limit: one under, at, one over; in ASCII, 3-byte and 4-byte (2 UTF-16 units) characters. */
export function aroundLimits(limits: readonly number[]): Arbitrary<string> {
  return fc.tuple(fc.constantFrom(...limits), fc.constantFrom(-1, 0, 1), fc.constantFrom('a', '\u20ac', '\u{1F600}')).map(([n, d, u]) =>
    repeat(u, Math.max(0, u.length === 2 ? Math.ceil((n + d) / 2) : n + d)),
  );
}

/** Strings an outside client could put anywhere: Unicode edge cases, control characters, blanks. */
export const oddText: Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '   ',
    '\t\n\r',
    '\u0000',
    'a\u0000b',
    '\u200f\u202eabc',
    'e\u0301\u0302\u0303',
    '\u{1F600}\u{1F469}\u200d\u{1F4BB}',
    '\uFFFD',
    '\uFEFFx',
    '\u00a0',
    '\u2028\u2029',
    '\u{10FFFF}',
    '\uFFFF',
    'x ',
    ' x',
    '\u0130\u212A\u00df',
    '%s%n',
    "'; DROP TABLE nodes; --",
    '\\',
    '"',
    '../..',
    'null',
    // Lone surrogates cannot be UTF-8; protobufjs encodes them anyway (as CESU-8 bytes).
    '\ud800',
    'a\udfffb',
  ),
  fc.string({ unit: 'binary', maxLength: 24 }),
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.string({ unit: 'binary-ascii', maxLength: 24 }),
);

/** Free text of at most `max` UTF-16 units (messages, holders). */
export function textGen(max: number, opts: { required?: boolean } = {}): Gen<string> {
  const valid = fc.oneof(
    fc.string({ unit: 'grapheme', minLength: opts.required ? 1 : 0, maxLength: 16 }),
    fc.constantFrom('x', 'fuzz', 'holder-a', 'e\u0301', '\u{1F600}', '\u200f\u05d0', 'x '),
    fc.constant(repeat('a', max)),
    fc.constant(repeat('\u{1F600}', max / 2)),
  );
  return { valid, hostile: fc.oneof(oddText, aroundLimits([max]), fc.constant(repeat('a', max + 1))) };
}

const NAME = /^[a-z0-9][a-z0-9_.:-]{0,30}$/;

/** Daemon, queue, relation, event type, attribute and config key names: lower-case, `max` long. */
export function nameGen(max: number, opts: { slash?: boolean } = {}): Gen<string> {
  const pattern = opts.slash ? /^[a-z0-9][a-z0-9_.:/-]{0,30}$/ : NAME;
  const valid = fc.oneof(
    { arbitrary: fromPool(() => (opts.slash ? pool.leases : pool.names), fc.constant('q1')), weight: 3 },
    { arbitrary: fc.stringMatching(pattern), weight: 3 },
    fc.constant(repeat('z', max)),
    fc.constantFrom('0', 'a-', 'a.b:c_d', '9.9'),
  );
  const hostile = fc.oneof(
    oddText,
    fc.constant(repeat('z', max + 1)),
    aroundLimits([max, 64, 128]),
    fc.constantFrom('Q1', '-a', '_a', '.a', 'a b', 'a/b', 'a\u0000', 'a ', 'ä', '\u0430', 'a%', 'a*'),
  );
  return { valid, hostile };
}

/** uuid-shaped: the pool, fresh uuids; near misses and junk as hostile. */
export function uuidGen(get: () => readonly string[]): Gen<string> {
  const valid = fc.oneof({ arbitrary: fromPool(get, fc.uuid({ version: 4 })), weight: 3 }, fc.uuid(), fc.constant('00000000-0000-0000-0000-000000000000'));
  const near = fc.tuple(fc.uuid(), fc.nat({ max: 35 }), fc.nat({ max: 13 })).map(([u, i, how]) => {
    switch (how) {
      case 0: return u.toUpperCase();
      case 1: return u.replace(/-/g, '');
      case 2: return `{${u}}`;
      case 3: return ` ${u}`;
      case 4: return `${u} `;
      case 5: return `${u}\u0000`;
      case 6: return u.slice(0, i) + 'g' + u.slice(i + 1);
      case 7: return u.slice(0, -1);
      case 8: return `${u}0`;
      case 9: return `urn:uuid:${u}`;
      case 10: return u.replace(/0/g, '\uff10');
      case 11: return u.replace(/-/g, '_');
      case 12: return `${u}\n`;
      default: return u.slice(0, i) + u.slice(i).toUpperCase();
    }
  });
  return { valid, hostile: fc.oneof({ arbitrary: near, weight: 3 }, oddText, fc.constant(repeat('a', 4096))) };
}

/** `[[[…]]]` or `{"a":{"a":…}}` nested `levels` deep (optionally with a value inside). */
export const nested = (levels: number, object: boolean): string =>
  object ? '{"a":'.repeat(levels) + '1' + '}'.repeat(levels) : '['.repeat(levels) + ']'.repeat(levels);

/** JSON text. `object`: the field wants an object; `maxBytes`: its size limit. */
export function jsonGen(opts: { object: boolean; maxBytes: number }): Gen<string> {
  const values = fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.jsonValue({ maxDepth: 2, stringUnit: 'binary' }));
  const objects = fc.dictionary(fc.string({ unit: 'grapheme', maxLength: 8 }), values, { maxKeys: 4 }).map((o) => JSON.stringify(o));
  const pad = (bytes: number): string => JSON.stringify({ p: repeat('a', Math.max(0, bytes - 8)) });
  const valid = fc.oneof(
    { arbitrary: objects, weight: 4 },
    ...(opts.object ? [] : [{ arbitrary: values.map((v) => JSON.stringify(v)), weight: 2 }]),
    { arbitrary: fc.constantFrom(nested(30, true), nested(31, true), '{"a":"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}'), weight: 1 },
    {
      arbitrary: fc.constantFrom(
        '{}',
        '{"a":1,"a":2}',
        '{"n":1e999}',
        '{"n":-0}',
        '{"n":123456789012345678901234567890}',
        '{"s":"\\u0000"}',
        '{"\\u0000":1}',
        '{"s":"\\ud83d\\ude00"}',
        ' {"a":[]} ',
        '{"\u{1F600}":"\u200f"}',
        pad(opts.maxBytes),
      ),
      weight: 2,
    },
  );
  const hostile = fc.oneof(
    fc.constantFrom(
      ...[30, 31, 32, 33, 1000, 30_000].flatMap((n) => [nested(n, false), nested(n, true)]),
      '{"a":' + nested(31, false) + '}',
      '"\\ud800"',
      '{"\\udfff":1}',
      '["a\\ud800"]',
      '{"k":"\\udc00\\ud800"}',
      '{"k":"\ud800"}',
      pad(opts.maxBytes + 1),
      JSON.stringify({ p: repeat('\u{1F600}', opts.maxBytes / 4) }),
      '{',
      '{"a":}',
      "{'a':1}",
      'NaN',
      'undefined',
      '[1,]',
      '01',
      '.5',
      '1.',
      '"open',
      '{"a":1}}',
      '{"a":1} x',
      '\uFEFF{}',
      '\u00a0{}',
      '\u0000',
      ' ',
      'nul',
      '1e999',
      '-1e999',
      '[1e999]',
      '"\\u0000"',
      'null',
      '[]',
      '"s"',
      '0',
    ),
    oddText,
  );
  return { valid, hostile };
}

/** Host names: RFC 1123 labels, 253 characters at most. */
export function fqdnGen(): Gen<string> {
  const label = (n: number): string => repeat('a', n);
  const valid = fc.oneof(
    { arbitrary: fromPool(() => pool.fqdns, fc.domain()), weight: 2 },
    { arbitrary: fc.tuple(fc.domain(), fc.nat()).map(([d, n]) => `n${n}.${d}`), weight: 3 },
    fc.constantFrom(`${label(63)}.test`, `${[label(63), label(63), label(63), label(61)].join('.')}`, 'A.Test', 'host.test.', 'x'),
  );
  const hostile = fc.oneof(
    oddText,
    fc.constantFrom(`${label(64)}.test`, [label(63), label(63), label(63), label(62)].join('.'), '-a.test', 'a-.test', 'a..test', '_a.test', 'a.test ', 'a_b.test', 'xn--\u00e4.test', 'a.test/x', '.', '..', repeat('a.', 200)),
  );
  return { valid, hostile };
}

/** IPv4 and IPv6 addresses in any text form inet_pton takes; zone ids and junk as hostile. */
export function ipGen(): Gen<string> {
  const valid = fc.oneof(
    fromPool(() => pool.addresses, fc.ipV4()),
    fc.ipV4(),
    fc.ipV6(),
    fc.constantFrom('::', '::1', '::ffff:1.2.3.4', '2001:DB8:0:0::1', '0:0:0:0:0:0:0:0', '1:2:3:4:5:6:1.2.3.4', '0000:0000:0000:0000:0000:ffff:255.255.255.255'),
  );
  const hostile = fc.oneof(
    oddText,
    fc.ipV4Extended(),
    fc.constantFrom('fe80::1%eth0', `fe80::1%${repeat('e', 300)}`, repeat('1', 46), '1.2.3.4/24', '1.2.3.256', '01.2.3.4', '::ffff:01.2.3.4', '1:2:3:4:5:6:7:8:9', 'localhost', '[::1]', '1.2.3.4:80', ' 1.2.3.4'),
  );
  return { valid, hostile };
}

/** int64 as proto-loader takes it (longs: String): decimal strings over the whole range. */
export function int64Gen(valid: Arbitrary<string>): Gen<string> {
  const hostile = fc.oneof(
    fc.constantFrom(
      '-1',
      '-9223372036854775808',
      '9223372036854775807',
      '9007199254740992',
      '9007199254740993',
      // Not numbers: protobufjs's Long.fromString makes these 0 or wraps them; the wire only carries varints.
      '18446744073709551615',
      'abc',
      '1e3',
    ),
    fc.bigInt(-(2n ** 63n), 2n ** 63n - 1n).map(String),
  );
  return { valid, hostile };
}

export const int64In = (min: number, max: number, extra: readonly number[] = []): Arbitrary<string> =>
  fc.oneof(fc.constantFrom(...[min, max, ...extra].map(String)), fc.integer({ min, max }).map(String));

/** int32 counts: page sizes and limits (0 is the default). */
export function int32Gen(max: number): Gen<number> {
  return {
    valid: fc.oneof(fc.constantFrom(0, 1, max), fc.integer({ min: 0, max: Math.min(max, 50) })),
    hostile: fc.constantFrom(-1, max + 1, 2_147_483_647, -2_147_483_648, 1_000_000),
  };
}

/** Enum values by name; UNSPECIFIED (0) and numbers no name has as hostile. */
export function enumGen(names: readonly string[], count: number): Gen<string | number> {
  return {
    valid: fc.constantFrom(...names),
    hostile: fc.oneof(fc.constantFrom<string | number>(0, count, 99, -1, 2_147_483_647, -2_147_483_648), fc.integer({ min: -3, max: count + 3 })),
  };
}

const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64url');

/** Keyset page tokens: base64url JSON arrays; hostile JSON, other encodings, junk. */
export function pageTokenGen(): Gen<string> {
  const key = fc.oneof(fromPool(() => [...pool.nodes, ...pool.objects, ...pool.leases], fc.uuid()), fc.string({ maxLength: 12 }), fc.nat().map(String));
  const valid = fc.oneof(fc.constant(''), key.map((k) => b64(JSON.stringify([k]))));
  const hostile = fc.oneof(
    fc.constantFrom(
      ...['{"a":1}', '[]', '[1,2]', '[null]', '[[1]]', '["\\ud800"]', '["\\u0000"]', '[true]', '"x"', '[-1]', '[1.5]', '[1e20]', '[1e-7]', '[1e999]', '["18446744073709551616"]', '[18446744073709551615]', '[" 1"]', '[' + '['.repeat(1400), 'not json', ''].map(b64),
      b64('["x"]').replace(/./, '+'),
      Buffer.from('["x"]').toString('base64'),
      '====',
      '!!!',
      repeat('A', 2048),
      repeat('A', 2049),
    ),
    oddText,
    fc.base64String({ maxLength: 40 }),
  );
  return { valid, hostile };
}

/** Change-feed cursors: "high" or "high:g1.g2…" with ascending gaps below high. */
export function cursorGen(): Gen<string> {
  const gaps = (n: number): string => Array.from({ length: n }, (_, i) => String(i + 1)).join('.');
  const valid = fc.oneof(fc.constant(''), fc.constantFrom('0', '1', '5:1.2.3', `100:${gaps(63)}`), fc.bigInt(0n, 2n ** 64n - 1n).map(String));
  const hostile = fc.oneof(
    fc.constantFrom('18446744073709551616', '99999999999999999999', '123456789012345678901', '5:3.2', '5:5', '5:', ':1', '-1', '1.5', ' 1', '1 ', `100:${gaps(64)}`, `100:${gaps(65)}`, '0x10', '\uff11'),
    oddText,
  );
  return { valid, hostile };
}

/** Arrays of `item` around a count limit: empty, a few, at the limit, one over. */
export function arrayGen<T>(item: Gen<T>, limit: number, opts: { min?: number } = {}): Gen<T[]> {
  const few = (arb: Arbitrary<T>): Arbitrary<T[]> => fc.array(arb, { minLength: opts.min ?? 0, maxLength: Math.min(3, limit) });
  const exactly = (n: number): Arbitrary<T[]> => item.valid.map((v) => Array.from({ length: n }, () => v));
  return {
    valid: fc.oneof({ arbitrary: few(item.valid), weight: 5 }, exactly(limit)),
    hostile: fc.oneof(few(fc.oneof(item.valid, item.hostile)), exactly(limit + 1), fc.constant<T[]>([])),
  };
}
