// Field validation. Every check throws InvalidArgumentError naming the field, before a
// handler writes anything. Field names are the proto's snake_case names.
import { SocketAddress, isIP } from 'node:net';
import { UUID_PATTERN } from '@sfdb/proto/identity';
import { InvalidArgumentError, echo } from './errors.js';

export { InvalidArgumentError };

/** Daemon, queue, relation, event type, attribute key, config key names. */
const NAME = /^[a-z0-9][a-z0-9_.:-]*$/;
const FQDN = /^(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$/;

export const MAX_PAGE_SIZE = 1000;
export const DEFAULT_PAGE_SIZE = 100;

export function uuid(field: string, value: string): string {
  if (!UUID_PATTERN.test(value)) throw new InvalidArgumentError(field, value === '' ? 'required' : 'not a lower-case uuid');
  return value;
}

/** Empty means "not given"; anything else must be a uuid. */
export function optionalUuid(field: string, value: string): string {
  return value === '' ? '' : uuid(field, value);
}

export function text(field: string, value: string, opts: { max: number; required?: boolean }): string {
  if (opts.required && value.length === 0) throw new InvalidArgumentError(field, 'required');
  // Bytes, not UTF-16 units: column limits are in characters but this is the safer bound.
  if (value.length > opts.max) throw new InvalidArgumentError(field, `longer than ${opts.max} characters`);
  if (value.includes('\u0000')) throw new InvalidArgumentError(field, 'contains a NUL character');
  return value;
}

const LEASE_NAME = /^[a-z0-9][a-z0-9_.:/-]*$/;

/** A lease name: 1..128 of a-z 0-9 _ . : - / starting with a letter or digit. */
export function leaseName(field: string, value: string): string {
  if (value.length === 0) throw new InvalidArgumentError(field, 'required');
  if (value.length > 128) throw new InvalidArgumentError(field, 'longer than 128 characters');
  if (!LEASE_NAME.test(value)) throw new InvalidArgumentError(field, 'must be lower-case letters, digits, _ . : - /');
  return value;
}

/**
 * A holder name (leases, claims, fences): text compared for equality in SQL. The tables'
 * collation ignores trailing spaces ("x " = "x"), so names with outer whitespace are refused
 * rather than matched loosely.
 */
export function holder(field: string, value: string, opts: { required?: boolean } = {}): string {
  text(field, value, { max: 128, required: opts.required });
  if (value !== value.trim()) throw new InvalidArgumentError(field, 'must not begin or end with whitespace');
  return value;
}

export function name(field: string, value: string, max = 64): string {
  if (value.length === 0) throw new InvalidArgumentError(field, 'required');
  if (value.length > max) throw new InvalidArgumentError(field, `longer than ${max} characters`);
  if (!NAME.test(value)) throw new InvalidArgumentError(field, 'must be lower-case letters, digits, _ . : -');
  return value;
}

/**
 * A node's fqdn in its one normal form, lower case without a trailing dot, as it is stored
 * and looked up (`Case-X.example.` is `case-x.example`; migration 0011 holds the table to it).
 */
export function fqdn(field: string, value: string): string {
  if (value.length === 0) throw new InvalidArgumentError(field, 'required');
  if (value.length > 253) throw new InvalidArgumentError(field, 'longer than 253 characters');
  if (!FQDN.test(value)) throw new InvalidArgumentError(field, 'not a valid host name');
  return (value.endsWith('.') ? value.slice(0, -1) : value).toLowerCase();
}

/** The longest text form of an address we store (an IPv4-mapped IPv6 address is 45). */
export const MAX_IP_ADDRESS_LENGTH = 45;

/**
 * An IPv4 or IPv6 address in canonical text form. One rule for every address field (node
 * addresses and IPAM reservations): no zone id — a zone names a link on one host, and these
 * addresses are cluster-wide.
 */
export function ipAddress(field: string, value: string, opts: { required: boolean }): string {
  if (value === '') {
    if (!opts.required) return '';
    throw new InvalidArgumentError(field, 'required');
  }
  if (value.length > MAX_IP_ADDRESS_LENGTH) throw new InvalidArgumentError(field, `longer than ${MAX_IP_ADDRESS_LENGTH} characters`);
  if (value.includes('%')) throw new InvalidArgumentError(field, 'zone ids are not allowed');
  const family = isIP(value);
  if (family === 0) throw new InvalidArgumentError(field, 'not an IPv4 or IPv6 address');
  return family === 4 ? value : new SocketAddress({ address: value, family: 'ipv6' }).address;
}

/**
 * An enum field as proto-loader hands it over: the value's name when known, its number
 * when the sender used one this server does not know. UNSPECIFIED (or an absent field)
 * is refused unless `optional`, in which case it comes back as undefined.
 */
export function enumValue<T extends string>(
  field: string,
  value: string | number,
  allowed: readonly T[],
  opts: { optional?: boolean } = {},
): T | undefined {
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  if (typeof value === 'string' && value.endsWith('_UNSPECIFIED')) {
    if (opts.optional) return undefined;
    throw new InvalidArgumentError(field, 'required');
  }
  if (value === 0 && opts.optional) return undefined;
  throw new InvalidArgumentError(field, `unknown value ${typeof value === 'string' ? echo(value) : value}; expected one of ${allowed.join(', ')}`);
}

export function requiredEnum<T extends string>(field: string, value: string | number, allowed: readonly T[]): T {
  return enumValue(field, value, allowed) as T;
}

/**
 * JSON text: valid, within `maxBytes`, and an object when `object` is set. Empty means
 * absent: `dflt` is returned when given, else the field is required.
 */
export function json(
  field: string,
  value: string,
  opts: { maxBytes: number; object?: boolean; dflt?: string },
): string {
  if (value === '') {
    if (opts.dflt !== undefined) return opts.dflt;
    throw new InvalidArgumentError(field, 'required');
  }
  const bytes = Buffer.byteLength(value, 'utf8');
  if (bytes > opts.maxBytes) throw new InvalidArgumentError(field, `JSON of ${bytes} bytes is over the ${opts.maxBytes}-byte limit`);
  // MariaDB's JSON_VALID (the CHECK on every JSON column) refuses 32 or more levels. Read
  // off the text before parsing, so no nesting under the size limit can exhaust a stack.
  if (textNestsDeeper(value, MAX_JSON_DEPTH)) throw new InvalidArgumentError(field, `JSON nested deeper than ${MAX_JSON_DEPTH} levels`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new InvalidArgumentError(field, 'not valid JSON');
  }
  // "\ud800" is valid JSON text but no Unicode string, and MariaDB refuses it.
  if (hasLoneSurrogate(parsed)) throw new InvalidArgumentError(field, 'JSON string holds a lone UTF-16 surrogate (\\ud800-\\udfff without its pair)');
  if (opts.object && (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))) {
    throw new InvalidArgumentError(field, 'must be a JSON object');
  }
  return value;
}

export const MAX_JSON_DEPTH = 31;

/** Whether JSON text opens more than `max` arrays or objects at once (strings skipped). */
export function textNestsDeeper(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i += 1;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > max) return true;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      depth -= 1;
    }
  }
  return false;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether any string or key of a parsed JSON value (depth already bounded) is not well formed. */
function hasLoneSurrogate(value: unknown): boolean {
  if (typeof value === 'string') return LONE_SURROGATE.test(value);
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return value.some(hasLoneSurrogate);
  return Object.entries(value).some(([k, v]) => LONE_SURROGATE.test(k) || hasLoneSurrogate(v));
}

/** page_size / limit: 0 means the default; otherwise 1..max. */
export function pageSize(field: string, value: number, opts: { max?: number; dflt?: number } = {}): number {
  const max = opts.max ?? MAX_PAGE_SIZE;
  if (value === 0) return opts.dflt ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(value) || value < 1 || value > max) throw new InvalidArgumentError(field, `must be 1..${max}`);
  return value;
}

/** An int64 field (a decimal string with longs: String) within [min, max], as a number. */
export function int64(field: string, value: string | number, min: number, max: number): number {
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isSafeInteger(n) || n < min || n > max) throw new InvalidArgumentError(field, `must be an integer in ${min}..${max}`);
  return n;
}

/** An int64 id or version kept as a decimal string (never through a JS number). */
export function int64String(field: string, value: string | number, opts: { min: bigint }): string {
  const s = String(value);
  if (!/^-?\d+$/.test(s)) throw new InvalidArgumentError(field, 'not an integer');
  const n = BigInt(s);
  if (n < opts.min || n > 18446744073709551615n) throw new InvalidArgumentError(field, `must be at least ${opts.min}`);
  return n.toString();
}

export function distinct(field: string, values: readonly string[]): void {
  if (new Set(values).size !== values.length) throw new InvalidArgumentError(field, 'repeats a value');
}

export function count(field: string, values: readonly unknown[], opts: { min?: number; max: number }): void {
  if (values.length < (opts.min ?? 0)) throw new InvalidArgumentError(field, `needs at least ${opts.min} entries`);
  if (values.length > opts.max) throw new InvalidArgumentError(field, `more than ${opts.max} entries`);
}
