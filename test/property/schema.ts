// The contract as data, read from the proto descriptor proto-loader built: every RPC, its
// request message, the fields of every message (snake_case, as the proto and the tier's
// error details spell them). The property tests walk this, so an RPC or a field added to
// the proto is generated for without touching them.
import { loadDatabaseProto } from '../../proto/load.js';
import type { MessageDescriptor } from '../../server/grpc/grpc-js/protobufjs-utf8.js';

export type FieldKind = 'string' | 'bytes' | 'int64' | 'int32' | 'bool' | 'enum' | 'message' | 'map';

export interface Field {
  /** As the proto spells it: `ip_address`. */
  readonly name: string;
  /** As proto-loader objects spell it (keepCase: false): `ipAddress`. */
  readonly jsName: string;
  readonly kind: FieldKind;
  /** The field number on the wire. */
  readonly number: number;
  readonly repeated: boolean;
  /** enum: the enum's full name; message: the message's full name. */
  readonly typeName: string;
}

export interface Method {
  readonly name: string;
  readonly path: string;
  readonly requestType: string;
}

interface EnumDescriptor {
  value: { name: string; number: number }[];
}
type Definition = Record<string, { format?: string; type?: unknown } & Record<string, unknown>>;

const PACKAGE = 'sfdb.v1';
const definition = loadDatabaseProto().packageDefinition as unknown as Definition;

export const snakeCase = (s: string): string => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

function message(fullName: string): MessageDescriptor {
  const d = definition[fullName];
  if (!d || d.format !== 'Protocol Buffer 3 DescriptorProto') throw new Error(`no message ${fullName}`);
  return d.type as MessageDescriptor;
}

const SCALARS: Record<string, FieldKind> = {
  TYPE_STRING: 'string',
  TYPE_BYTES: 'bytes',
  TYPE_INT64: 'int64',
  TYPE_UINT64: 'int64',
  TYPE_INT32: 'int32',
  TYPE_UINT32: 'int32',
  TYPE_BOOL: 'bool',
  TYPE_ENUM: 'enum',
  TYPE_MESSAGE: 'message',
};

/** The fields of a message (`sfdb.v1.EventInput`); a map field is one field of kind map. */
export function fieldsOf(fullName: string): Field[] {
  const m = message(fullName);
  return m.field.map((f): Field => {
    const kind = SCALARS[f.type];
    if (!kind) throw new Error(`${fullName}.${f.name}: field type ${f.type} is new to these tests`);
    const nested = m.nestedType.find((n) => n.name === f.typeName);
    if (nested?.options?.mapEntry) return { name: snakeCase(f.name), jsName: f.name, kind: 'map', number: f.number, repeated: false, typeName: '' };
    return {
      name: snakeCase(f.name),
      jsName: f.name,
      kind,
      number: f.number,
      repeated: f.label === 'LABEL_REPEATED',
      typeName: kind === 'enum' || kind === 'message' ? `${PACKAGE}.${f.typeName}` : '',
    };
  });
}

/** An enum's values, UNSPECIFIED (0) included. */
export function enumValues(fullName: string): { name: string; number: number }[] {
  const d = definition[fullName];
  if (!d || d.format !== 'Protocol Buffer 3 EnumDescriptorProto') throw new Error(`no enum ${fullName}`);
  return (d.type as EnumDescriptor).value;
}

/** Every RPC of the Database service, in proto order. */
export function methods(): Method[] {
  const service = definition[`${PACKAGE}.Database`] as unknown as Record<string, { path: string; requestType: { type: { name: string } } }>;
  return Object.entries(service).map(([name, m]) => ({ name, path: m.path, requestType: `${PACKAGE}.${m.requestType.type.name}` }));
}

/**
 * Whether `path` (the part of an INVALID_ARGUMENT's details before the first ':') names
 * a field of `request`: `uuid`, `fence.token`, `events[3].extra` with 3 an index the
 * request has. Map fields are named as a whole (`attributes`), as are repeated scalars.
 */
export function namesAField(messageType: string, request: Record<string, unknown> | undefined, path: string): boolean {
  const [head, ...rest] = path.split('.');
  const m = /^([a-z][a-z0-9_]*)(?:\[(\d+)\])?$/.exec(head ?? '');
  if (!m) return false;
  const field = fieldsOf(messageType).find((f) => f.name === m[1]);
  if (!field) return false;
  const value = request?.[field.jsName];
  let element: unknown = value;
  if (m[2] !== undefined) {
    if (!field.repeated || !Array.isArray(value) || Number(m[2]) >= value.length) return false;
    element = value[Number(m[2])];
  }
  if (rest.length === 0) return true;
  // A path into a message: the element must be one (a repeated message needs its index).
  if (field.kind !== 'message' || (field.repeated && m[2] === undefined)) return false;
  return namesAField(field.typeName, element as Record<string, unknown> | undefined, rest.join('.'));
}
