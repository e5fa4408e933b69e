// Request builders for every RPC, walked from the proto descriptor: each field gets the
// generator of what it means (a uuid, JSON text, a name, a page token…) by its name, and
// any field these tests do not know yet gets the generic generator of its type. Each
// field is valid with probability ~4/6, hostile ~1/6, absent ~1/6, so a good share of
// requests pass validation whole and reach MariaDB.
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import * as a from './arbitraries.js';
import type { Gen } from './arbitraries.js';
import { enumValues, fieldsOf } from './schema.js';
import type { Field, Method } from './schema.js';

const uuids = {
  node: a.uuidGen(() => a.pool.nodes),
  object: a.uuidGen(() => [...a.pool.objects, ...a.pool.nodes]),
  item: a.uuidGen(() => a.pool.items),
  transfer: a.uuidGen(() => a.pool.transfers),
  any: a.uuidGen(() => [...a.pool.objects, ...a.pool.nodes]),
  ownerToken: a.uuidGen(() => a.pool.ownerTokens),
};

const name64 = a.nameGen(64);
const name128 = a.nameGen(128);
const leaseName = a.nameGen(128, { slash: true });
const text1024 = a.textGen(1024);
const text128 = a.textGen(128, { required: true });
const holders: Gen<string> = { valid: fc.oneof(a.fromPool(() => a.pool.holders, fc.constant('fuzz')), text128.valid), hostile: text128.hostile };
const replicaId: Gen<string> = { valid: fc.oneof(a.fromPool(() => a.pool.replicaIds, fc.constant('r')), text128.valid), hostile: text128.hostile };

/** Valid ranges of the int64 fields (from the handlers' documented limits). */
const int64s: Record<string, Gen<string>> = {
  delay_ms: a.int64Gen(a.int64In(0, 86_400_000, [1])),
  lease_ms: a.int64Gen(a.int64In(0, 3_600_000, [1000, 999])),
  ttl_ms: a.int64Gen(a.int64In(1000, 3_600_000, [999])),
  older_than_ms: a.int64Gen(a.int64In(1000, 315_576_000_000, [0, 15_000, 2_592_000_000])),
  epoch: a.int64Gen(fc.oneof({ arbitrary: fc.constant('1'), weight: 3 }, fc.constantFrom('2', '3', '0', '18446744073709551615'))),
  token: a.int64Gen(fc.constantFrom('1', '2', '0', '9223372036854775807')),
  expected_version: a.int64Gen(fc.constantFrom('0', '1', '2', '-1', '9223372036854775807')),
  bytes_total: a.int64Gen(fc.oneof(a.int64In(0, 1_000_000), fc.constant('9223372036854775807'))),
  bytes_done: a.int64Gen(a.int64In(0, 1_000_000, [1000, 1001])),
  seqs: a.int64Gen(fc.constantFrom('1', '2', '100', '9223372036854775807')),
};

/** Count limits of the repeated fields (one over is generated too). */
const LIMITS: Record<string, number> = {
  events: 1000,
  queues: 16,
  field_mask: 1000,
  topics: 64,
  seqs: 10_000,
  update_mask: 2,
  states: 4,
  secret_fields: 16,
};

const topicGen: Gen<string> = {
  valid: fc.oneof(
    a.fromPool(() => a.pool.nodes, fc.uuid()).chain((n) => fc.constantFrom(`queue/${n}/q1`, `daemon/${n}/d1`, `transfers/${n}`, `node/${n}/instance`)),
    fc.constantFrom('static/instance', 'static/node', 'cluster-config', 'ipam-reservations', 'references/network', 'namespace/ns1/blob', 'x'),
    fc.stringMatching(/^[a-z0-9][a-z0-9_.:/-]{0,40}$/),
    fc.constant('t'.repeat(200)),
  ),
  hostile: fc.oneof(a.oddText, fc.constantFrom('t'.repeat(201), 'Queue/x', '/x', 'a b', 'x\u0000', '\u00e9')),
};

const MAX_JSON = 64 * 1024;
const MAX_SMALL_JSON = 16 * 1024;

/** The generator of a scalar field, by what its name says it is. */
function scalarGen(method: string, field: Field): Gen<unknown> {
  const n = field.name;
  if (field.kind === 'enum') {
    const values = enumValues(field.typeName);
    return a.enumGen(values.filter((v) => v.number !== 0).map((v) => v.name), values.length);
  }
  if (field.kind === 'bool') return { valid: fc.boolean(), hostile: fc.boolean() };
  if (field.kind === 'bytes') {
    // The interest summary's Bloom bits: 1..65536 bytes.
    return { valid: fc.uint8Array({ minLength: 1, maxLength: 64 }), hostile: fc.constantFrom(new Uint8Array(0), new Uint8Array(65_537)) };
  }
  if (field.kind === 'int32') {
    if (n === 'hashes') return { valid: fc.integer({ min: 1, max: 16 }), hostile: fc.constantFrom(0, -1, 17, 2_147_483_647) };
    if (n === 'timeout_ms') return { valid: fc.integer({ min: 1, max: 150 }), hostile: fc.constantFrom(-1, 30_001, 2_147_483_647, -2_147_483_648) };
    const max = n === 'limit' && /^(Requeue|PruneEvents)/.test(method) ? 10_000 : n === 'limit' && method === 'PruneChanges' ? 100_000 : n === 'limit' && method === 'Dequeue' ? 100 : 1000;
    return a.int32Gen(max);
  }
  if (field.kind === 'int64') return int64s[n] ?? a.int64Gen(a.int64In(0, 1_000_000));
  // Strings, by name.
  if (n === 'owner_token') return uuids.ownerToken;
  if (n === 'id') return /Transfer/.test(method) ? uuids.transfer : uuids.item;
  if (n === 'node_uuid' || n === 'source_node_uuid') return uuids.node;
  if (n.endsWith('uuid')) return n === 'uuid' && /Node$|NodeRequest/.test(method) ? uuids.node : uuids.object;
  if (n === 'fqdn') return a.fqdnGen();
  if (n === 'ip_address' || n === 'address') return a.ipGen();
  if (n === 'page_token') return a.pageTokenGen();
  if (n === 'cursor') return a.cursorGen();
  if (n === 'topics' || n === 'quiet_reports') return topicGen;
  if (n === 'stats' || n === 'extra') return a.jsonGen({ object: true, maxBytes: MAX_SMALL_JSON });
  if (n === 'static_values') return a.jsonGen({ object: true, maxBytes: MAX_JSON });
  if (n === 'payload' || n === 'result' || n === 'value') return a.jsonGen({ object: false, maxBytes: MAX_JSON });
  if (n === 'update_mask') return { valid: fc.constantFrom('fqdn', 'ip_address'), hostile: fc.oneof(a.oddText, fc.constantFrom('FQDN', 'uuid', 'version', 'ipAddress')) };
  if (n === 'name' || n === 'prefix') return leaseName;
  if (n === 'holder') return holders;
  if (n === 'replica_id') return replicaId;
  if (n === 'message') return text1024;
  if (n === 'key' || n === 'namespace' || n === 'field_mask') return name128;
  // Top-level keys of static_values (requestGen also makes them the request's own keys).
  if (n === 'secret_fields') return { valid: fc.constantFrom('name', 'a', 'p', 'password', '\u0000', '__proto__'), hostile: a.oddText };
  if (n === 'daemon' || n === 'queue' || n === 'queues' || n === 'relation' || n === 'event_type') return name64;
  // A string field new to these tests: any text.
  return { valid: a.oddText, hostile: a.oddText };
}

/** valid ×4, hostile ×1, absent ×1 (absent: the proto default, '' or 0). */
function pick<T>(g: Gen<T>): Arbitrary<T | undefined> {
  return fc.oneof({ arbitrary: g.valid, weight: 4 }, { arbitrary: g.hostile, weight: 1 }, { arbitrary: fc.constant(undefined), weight: 1 });
}

function fieldGen(method: string, field: Field, depth: number): Gen<unknown> {
  let one: Gen<unknown>;
  if (field.kind === 'map') {
    // SetObjectAttributes: attribute key -> JSON text; 100 per call.
    const json = a.jsonGen({ object: false, maxBytes: MAX_JSON });
    const entry = (k: Arbitrary<string>, v: Arbitrary<string>): Arbitrary<Record<string, string>> => fc.dictionary(k, v, { maxKeys: 3, noNullPrototype: true });
    const many = (n: number): Arbitrary<Record<string, string>> =>
      json.valid.map((v) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, v])));
    return {
      valid: fc.oneof({ arbitrary: entry(name128.valid, json.valid), weight: 5 }, many(100)),
      hostile: fc.oneof(entry(fc.oneof(name128.valid, name128.hostile), fc.oneof(json.valid, json.hostile)), many(101)),
    };
  }
  if (field.kind === 'message') {
    const nested = messageGen(method, field.typeName, depth + 1);
    // A maintenance fence: often the lease the fixtures hold, so the job itself runs.
    const valid = field.typeName.endsWith('.LeaseFence') ? fc.oneof(nested.valid, fc.constant(0).map(() => ({ ...a.pool.fence }))) : nested.valid;
    one = { valid, hostile: fc.oneof(nested.hostile, fc.constant(null)) };
  } else {
    one = scalarGen(method, field);
  }
  if (!field.repeated) return one;
  return a.arrayGen(one, LIMITS[field.name] ?? 8, { min: field.name === 'events' || field.name === 'queues' || field.name === 'topics' || field.name === 'seqs' ? 1 : 0 });
}

/** A request message: valid requests are every field valid; hostile ones mix. */
export function messageGen(method: string, typeName: string, depth = 0): Gen<Record<string, unknown>> {
  const fields = fieldsOf(typeName);
  const gens = fields.map((f) => [f.jsName, fieldGen(method, f, depth)] as const);
  const build = (choose: (g: Gen<unknown>) => Arbitrary<unknown>): Arbitrary<Record<string, unknown>> =>
    fc.tuple(...gens.map(([, g]) => choose(g))).map((values) => {
      const out: Record<string, unknown> = {};
      gens.forEach(([key], i) => {
        if (values[i] !== undefined) out[key] = values[i];
      });
      return out;
    });
  return { valid: build((g) => g.valid), hostile: build(pick) };
}

/** Requests of `method`: a quarter all-valid, the rest with any field hostile or absent. */
export function requestGen(method: Method): Arbitrary<Record<string, unknown>> {
  const g = messageGen(method.name, method.requestType);
  let arb = fc.oneof({ arbitrary: g.valid, weight: 1 }, { arbitrary: g.hostile, weight: 3 });
  if (method.name === 'PokeChanges') {
    // Half the pokes come from a registered peer (its id and owner token), so they pass.
    const peer = fc.constant(0).map(() => ({ replicaId: a.pool.replicaIds[0] ?? '', ownerToken: a.pool.ownerTokens[0] ?? '' }));
    arb = fc.oneof(arb, fc.tuple(arb, peer).map(([r, p]) => ({ ...r, ...p })));
  }
  const fields = fieldsOf(method.requestType).map((f) => f.jsName);
  if (fields.includes('staticValues') && fields.includes('secretFields')) {
    // Half name secret keys the static values have (a subset, in any order).
    const keysOf = (json: unknown): string[] => {
      try {
        const v: unknown = typeof json === 'string' ? JSON.parse(json) : undefined;
        return v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.keys(v) : [];
      } catch {
        return [];
      }
    };
    arb = fc.oneof(arb, arb.chain((r) => fc.shuffledSubarray(keysOf(r['staticValues'])).map((secretFields) => ({ ...r, secretFields }))));
  }
  const uuidKey = ['uuid', 'objectUuid'].find((k) => fields.includes(k));
  if (fields.includes('objectType') && uuidKey) {
    // Half name an object that exists, with its own type: the write paths run.
    const typed = fc.nat().map((i) => a.pool.typed[i % Math.max(1, a.pool.typed.length)] ?? ['NODE', '']);
    arb = fc.oneof(arb, fc.tuple(arb, typed).map(([r, [type, uuid]]) => ({ ...r, objectType: type, [uuidKey]: uuid })));
  }
  if (method.name === 'WatchReplicas') {
    // A current version holds the call for timeout_ms (0 means 300 s): with 0, a version
    // the tier never answered, which is answered at once.
    return arb.map((r) => (r['timeoutMs'] === 0 || r['timeoutMs'] === undefined ? { ...r, known: '99999999' } : r));
  }
  if (method.name !== 'WaitForChanges') return arb;
  // Half keep reports quiet on some of their own topics: the valid path runs.
  const topicsOf = (r: Record<string, unknown>): string[] => (Array.isArray(r['topics']) ? (r['topics'] as unknown[]).filter((t): t is string => typeof t === 'string') : []);
  arb = fc.oneof(arb, arb.chain((r) => fc.subarray(topicsOf(r)).map((quietReports) => ({ ...r, quietReports }))));
  // A valid cursor with no change past it holds the call for timeout_ms (0 means 30 s):
  // keep every hold short; 0 only with the empty cursor, which answers at once.
  return arb.map((r) => (r['timeoutMs'] === 0 || r['timeoutMs'] === undefined ? { ...r, cursor: '' } : r));
}
