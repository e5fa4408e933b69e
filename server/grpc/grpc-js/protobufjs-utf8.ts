// Invalid UTF-8 in a request's string fields, and what it relies on in protobufjs.
//
// protobufjs (7.x, under proto-loader) decodes a string field of a Buffer with Node's
// utf8Slice (reader_buffer.js): it never refuses the bytes, it puts U+FFFD where they are
// not UTF-8, so a request with broken text would be stored with replacement characters.
// Here the request's wire bytes are walked with its message descriptor, reading every
// field the way protobufjs's decoder reads it (by the field's declared type, whatever the
// wire type says; a length as its Reader.uint32 reads one, a string's cut at the end of
// its message; unknown fields skipped by wire type, groups included), and each string field's bytes are checked with
// buffer.isUtf8, into sub-messages, repeated fields and maps. The walk answers the field
// path of the first string that is not UTF-8 (`node.fqdn`, `events[2].message`,
// `attributes` for a map key or value). It runs only on bytes protobufjs decoded; where
// it cannot follow them the same way it answers nothing.
//
// That mirror is the reliance: a protobufjs that reads fields otherwise could decode a
// string the walk does not see. unexplainedReplacement() closes that gap: a decoded
// request holding U+FFFD that its bytes do not hold (as EF BF BD) had text that was not
// UTF-8, and is refused as a whole when the walk named no field.
// test/unit/utf8-fields.test.ts checks the walk against protobufjs's decoder on generated
// bytes, so a protobufjs that reads them otherwise fails there.
import { isAscii, isUtf8 } from 'node:buffer';

/** proto-loader's descriptor of a field (the parts read here; the tests' schema reads them too). */
export interface FieldDescriptor {
  name: string;
  number: number;
  label: string;
  type: string;
  typeName: string;
}
export interface MessageDescriptor {
  name: string;
  field: FieldDescriptor[];
  nestedType: MessageDescriptor[];
  options: { mapEntry?: boolean } | null;
}
/** proto-loader's package definition: full name -> descriptor object. */
export type Definitions = Readonly<Record<string, { format?: string; type?: unknown } | unknown>>;

type Read = 'uint32' | 'varint64' | 'fixed32' | 'fixed64' | 'bytes' | 'string' | 'message';

interface FieldPlan {
  /** snake_case, as the proto and the tier's error details spell it. */
  readonly name: string;
  readonly read: Read;
  readonly repeated: boolean;
  /** A map field: named as a whole; its entries read with `message`. */
  readonly map: boolean;
  /** Sub-message (or map entry) plan; resolved lazily (messages may refer to each other). */
  message?: MessagePlan;
}

type MessagePlan = Map<number, FieldPlan>;

const READS: Record<string, Read> = {
  TYPE_INT32: 'uint32',
  TYPE_UINT32: 'uint32',
  TYPE_SINT32: 'uint32',
  TYPE_ENUM: 'uint32',
  TYPE_BOOL: 'uint32',
  TYPE_INT64: 'varint64',
  TYPE_UINT64: 'varint64',
  TYPE_SINT64: 'varint64',
  TYPE_FIXED32: 'fixed32',
  TYPE_SFIXED32: 'fixed32',
  TYPE_FLOAT: 'fixed32',
  TYPE_FIXED64: 'fixed64',
  TYPE_SFIXED64: 'fixed64',
  TYPE_DOUBLE: 'fixed64',
  TYPE_BYTES: 'bytes',
  TYPE_STRING: 'string',
  TYPE_MESSAGE: 'message',
};

const snakeCase = (s: string): string => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Builds the plans of a package's messages: which field numbers hold strings, and where. */
export class Utf8Plans {
  private readonly plans = new Map<string, MessagePlan>();

  constructor(
    private readonly definitions: Definitions,
    private readonly pkg: string,
  ) {}

  private descriptor(fullName: string): MessageDescriptor {
    const d = this.definitions[fullName] as { format?: string; type?: unknown } | undefined;
    if (!d || d.format !== 'Protocol Buffer 3 DescriptorProto') throw new Error(`protobufjs-utf8: no message ${fullName}`);
    return d.type as MessageDescriptor;
  }

  /** The plan of message `fullName` (`sfdb.v1.CreateNodeRequest`). */
  plan(fullName: string): MessagePlan {
    return this.planOf(fullName, this.descriptor(fullName));
  }

  private planOf(key: string, m: MessageDescriptor): MessagePlan {
    const known = this.plans.get(key);
    if (known) return known;
    const plan: MessagePlan = new Map();
    this.plans.set(key, plan);
    for (const f of m.field) {
      const read = READS[f.type];
      if (!read) throw new Error(`protobufjs-utf8: ${key}.${f.name} has type ${f.type}, which the request walk does not read`);
      const nested = m.nestedType.find((n) => n.name === f.typeName);
      const map = nested?.options?.mapEntry === true;
      const field: FieldPlan = { name: snakeCase(f.name), read, repeated: f.label === 'LABEL_REPEATED' && !map, map };
      if (read === 'message') {
        field.message = nested ? this.planOf(`${key}.${nested.name}`, nested) : this.plan(this.qualified(f.typeName));
      }
      plan.set(f.number, field);
    }
    return plan;
  }

  private qualified(typeName: string): string {
    const name = typeName.startsWith('.') ? typeName.slice(1) : typeName;
    return name in this.definitions ? name : `${this.pkg}.${name}`;
  }
}

/** Thrown where the walk cannot follow the bytes as protobufjs did: it then answers nothing. */
class Lost extends Error {}
const LOST = new Lost();

class Walk {
  pos = 0;
  constructor(readonly buf: Buffer) {}

  /** protobufjs's Reader.uint32: four 7-bit groups, 4 bits of a fifth, then 5 bytes skipped unread. */
  uint32(end: number): number {
    let value = 0;
    for (let i = 0; i < 4; i++) {
      if (this.pos >= end) throw LOST;
      const b = this.buf[this.pos++] as number;
      value |= (b & 127) << (7 * i);
      if (b < 128) return value >>> 0;
    }
    if (this.pos >= end) throw LOST;
    const b = this.buf[this.pos++] as number;
    value |= (b & 15) << 28;
    if (b < 128) return value >>> 0;
    this.pos += 5;
    if (this.pos > end) throw LOST;
    return value >>> 0;
  }

  /** A 64-bit varint: at most 10 bytes. */
  varint64(end: number): void {
    for (let i = 0; i < 10; i++) {
      if (this.pos >= end) throw LOST;
      if ((this.buf[this.pos++] as number) < 128) return;
    }
    throw LOST;
  }

  skip(n: number, end: number): void {
    this.pos += n;
    if (this.pos > end) throw LOST;
  }

  /** protobufjs's skipType for a field the message does not declare. */
  skipType(wireType: number, end: number, depth: number): void {
    if (depth > 100) throw LOST;
    switch (wireType) {
      case 0:
        do {
          if (this.pos >= end) throw LOST;
        } while ((this.buf[this.pos++] as number) & 128);
        return;
      case 1:
        return this.skip(8, end);
      case 2:
        return this.skip(this.uint32(end), end);
      case 3:
        for (let wt = this.uint32(end) & 7; wt !== 4; wt = this.uint32(end) & 7) this.skipType(wt, end, depth + 1);
        return;
      case 5:
        return this.skip(4, end);
      default:
        throw LOST;
    }
  }

  /** Whether bytes [start, end) are UTF-8: short ASCII checked here, the rest by isUtf8. */
  utf8(start: number, end: number): boolean {
    if (end - start <= 64) {
      let i = start;
      while (i < end && (this.buf[i] as number) < 0x80) i++;
      if (i === end) return true;
    }
    return isUtf8(this.buf.subarray(start, end));
  }

  /**
   * One value of a declared field. Answers where a string is not UTF-8 below it: '' for
   * this very string, `.sub` or `[i].sub`... for one in a sub-message (built only then).
   */
  value(field: FieldPlan, end: number, depth: number): string | undefined {
    switch (field.read) {
      case 'uint32':
        this.uint32(end);
        return undefined;
      case 'varint64':
        this.varint64(end);
        return undefined;
      case 'fixed32':
        this.skip(4, end);
        return undefined;
      case 'fixed64':
        this.skip(8, end);
        return undefined;
      case 'bytes':
        this.skip(this.uint32(end), end);
        return undefined;
      case 'string': {
        // protobufjs's BufferReader.string does not check the length: it reads to the
        // end of the message (or map entry) when the length runs past it.
        const len = this.uint32(end);
        const start = this.pos;
        this.pos = Math.min(start + len, end);
        return this.utf8(start, this.pos) ? undefined : '';
      }
      case 'message': {
        const len = this.uint32(end);
        const stop = this.pos + len;
        if (stop > end) throw LOST;
        const bad = this.message(field.message as MessagePlan, stop, depth + 1);
        if (bad === undefined) return undefined;
        // A map is named as a whole, whichever part of an entry is broken.
        return field.map ? '' : `.${bad}`;
      }
    }
  }

  /** The fields of one message up to `end`; the path (`a`, `b[2].c`) of a string that is not UTF-8. */
  message(plan: MessagePlan, end: number, depth: number): string | undefined {
    if (depth > 100) throw LOST;
    let counts: Map<number, number> | undefined;
    while (this.pos < end) {
      const tag = this.uint32(end);
      const field = plan.get(tag >>> 3);
      if (!field) {
        this.skipType(tag & 7, end, depth);
        continue;
      }
      let index = -1;
      if (field.repeated) {
        counts ??= new Map();
        index = counts.get(tag >>> 3) ?? 0;
        counts.set(tag >>> 3, index + 1);
        // A packed run of numbers (wire type 2) is one tag for many values.
        if ((tag & 7) === 2 && (field.read === 'uint32' || field.read === 'varint64' || field.read === 'fixed32' || field.read === 'fixed64')) {
          this.skip(this.uint32(end), end);
          continue;
        }
      }
      const bad = this.value(field, end, depth);
      if (bad !== undefined) return `${field.name}${index < 0 ? '' : `[${index}]`}${bad}`;
    }
    return undefined;
  }
}

/** The field path of the first string field of `bytes` (a message of `plan`) that is not UTF-8. */
export function invalidUtf8Field(plan: MessagePlan, bytes: Buffer): string | undefined {
  // ASCII is UTF-8: most requests (ids, names) are, and need no walk.
  if (plan.size === 0 || isAscii(bytes)) return undefined;
  try {
    return new Walk(bytes).message(plan, bytes.length, 0);
  } catch (err) {
    if (err === LOST) return undefined;
    throw err;
  }
}

const REPLACEMENT = Buffer.from('\ufffd');

function holdsReplacement(value: unknown, depth: number): boolean {
  if (typeof value === 'string') return value.includes('\ufffd');
  if (typeof value !== 'object' || value === null || Buffer.isBuffer(value) || depth > 100) return false;
  for (const [key, v] of Object.entries(value)) {
    // A map's keys are the client's strings too.
    if (key.includes('\ufffd') || holdsReplacement(v, depth + 1)) return true;
  }
  return false;
}

/**
 * Whether protobufjs put U+FFFD into a string of `decoded` (the request it decoded from
 * `bytes`) that the bytes do not hold as UTF-8: text that was not UTF-8. Asked only when
 * the walk named no field; a request whose bytes hold U+FFFD itself is not second-guessed.
 */
export function unexplainedReplacement(decoded: unknown, bytes: Buffer): boolean {
  if (isAscii(bytes) || bytes.includes(REPLACEMENT)) return false;
  return holdsReplacement(decoded, 0);
}

export type { MessagePlan };
