// The UTF-8 walk over request bytes, on hand-made wire bytes of the real contract: it
// finds a string that is not UTF-8 wherever protobufjs would decode one (nested, repeated,
// map key or value, a string field sent with another wire type, after unknown fields and
// groups), names it as the tier's details do, and answers nothing for valid text or for
// bytes it cannot follow.
import { describe, expect, it } from 'vitest';
import { loadDatabaseProto } from '../../proto/load.js';
import { Utf8Plans, invalidUtf8Field } from '../../server/grpc/utf8-fields.js';
import type { Definitions } from '../../server/grpc/utf8-fields.js';

const { packageDefinition, proto } = loadDatabaseProto();
const plans = new Utf8Plans(packageDefinition as unknown as Definitions, 'sfdb.v1');
const service = proto.sfdb.v1.Database.service as unknown as Record<string, { requestDeserialize: (b: Buffer) => unknown }>;

function varint(n: number): Buffer {
  const out: number[] = [];
  let v = n;
  while (v >= 0x80) {
    out.push((v & 0x7f) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return Buffer.from(out);
}
const tag = (field: number, wireType: number): Buffer => varint(field * 8 + wireType);
const lengthDelimited = (field: number, bytes: Buffer): Buffer => Buffer.concat([tag(field, 2), varint(bytes.length), bytes]);
const text = (field: number, s: string | Buffer): Buffer => lengthDelimited(field, typeof s === 'string' ? Buffer.from(s) : s);

/** Not UTF-8: a lone continuation byte, an overlong '/', a surrogate, a cut sequence. */
const BROKEN = [Buffer.from([0x80]), Buffer.from([0xc0, 0xaf]), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from([0x61, 0xe2, 0x82])];

const check = (type: string, bytes: Buffer): string | undefined => invalidUtf8Field(plans.plan(`sfdb.v1.${type}`), bytes);

describe('the UTF-8 walk over request bytes', () => {
  it('names a top-level string field, and passes valid text of any script', () => {
    for (const bad of BROKEN) {
      expect(check('CreateNodeRequest', Buffer.concat([text(1, 'u'), text(2, bad), text(3, '10.0.0.1')]))).toBe('fqdn');
      expect(check('CreateNodeRequest', text(3, bad))).toBe('ip_address');
    }
    expect(check('CreateNodeRequest', Buffer.concat([text(1, 'u'), text(2, 'caf\u00e9.\u4f8b\u3048.\u{1F600}')]))).toBeUndefined();
    expect(check('CreateNodeRequest', Buffer.alloc(0))).toBeUndefined();
  });

  it('names a field of a repeated message by its index, and a repeated string', () => {
    const event = (message: string | Buffer): Buffer => lengthDelimited(1, Buffer.concat([text(2, 'uuid'), text(3, 'type'), text(4, message)]));
    const bytes = Buffer.concat([event('fine'), event('also fine'), event(BROKEN[0] as Buffer)]);
    expect(check('RecordEventsRequest', bytes)).toBe('events[2].message');
    expect(check('DeleteObjectAttributesRequest', Buffer.concat([text(2, 'u'), text(3, 'a'), text(3, BROKEN[1] as Buffer)]))).toBe('field_mask[1]');
    expect(check('WaitForChangesRequest', Buffer.concat([text(1, 't'), lengthDelimited(4, text(1, BROKEN[2] as Buffer))]))).toBe('interest.topics[0]');
  });

  it('names a map as a whole, for a bad key or a bad value', () => {
    const entry = (k: string | Buffer, v: string | Buffer): Buffer => lengthDelimited(3, Buffer.concat([text(1, k), text(2, v)]));
    expect(check('SetObjectAttributesRequest', Buffer.concat([text(2, 'u'), entry('a', '1'), entry(BROKEN[0] as Buffer, '2')]))).toBe('attributes');
    expect(check('SetObjectAttributesRequest', Buffer.concat([text(2, 'u'), entry('a', BROKEN[3] as Buffer)]))).toBe('attributes');
    expect(check('SetObjectAttributesRequest', Buffer.concat([text(2, 'u'), entry('a', '"\u00e9"')]))).toBeUndefined();
  });

  it('reads a declared string as protobufjs does whatever its wire type, and skips unknown fields and groups', () => {
    // Field 2 (fqdn) tagged as a varint: protobufjs still reads a length and string bytes.
    const mistyped = Buffer.concat([tag(2, 0), varint(2), Buffer.from([0xff, 0xfe])]);
    expect(check('CreateNodeRequest', mistyped)).toBe('fqdn');
    expect(service['CreateNode']?.requestDeserialize(mistyped)).toMatchObject({ fqdn: '\ufffd\ufffd' });
    // Unknown fields of every wire type, a group among them, before the bad string.
    const unknown = Buffer.concat([
      tag(9, 0), varint(300),
      tag(10, 1), Buffer.alloc(8),
      text(11, BROKEN[0] as Buffer), // not a declared field: not the walk's business
      tag(12, 3), tag(1, 0), varint(1), text(2, 'x'), tag(12, 4),
      tag(13, 5), Buffer.alloc(4),
      text(2, BROKEN[1] as Buffer),
    ]);
    expect(check('CreateNodeRequest', unknown)).toBe('fqdn');
    expect(check('CreateNodeRequest', unknown.subarray(0, unknown.length - 4))).toBeUndefined();
  });

  it('answers nothing where the bytes end or cannot be followed', () => {
    expect(check('CreateNodeRequest', Buffer.concat([tag(2, 2), varint(10), Buffer.from([0xff])]))).toBeUndefined();
    expect(check('CreateNodeRequest', Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]))).toBeUndefined();
    expect(check('CreateNodeRequest', Buffer.concat([tag(9, 7), text(2, BROKEN[0] as Buffer)]))).toBeUndefined();
  });

  it('has a plan for the request of every RPC', () => {
    const service = (packageDefinition as unknown as Record<string, Record<string, { requestType: { type: { name: string } } }>>)['sfdb.v1.Database'] ?? {};
    for (const [name, method] of Object.entries(service)) {
      expect(() => plans.plan(`sfdb.v1.${method.requestType.type.name}`), name).not.toThrow();
    }
  });
});
