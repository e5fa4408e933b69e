// Writes name real targets, generated from the proto: every RPC of the proto is a read
// (client/methods.ts) or has its row in the rule table (target-rule.ts), which docs/contract.md
// holds. For every target each mutating RPC names, requests are generated from the RPC's
// descriptor (valid values, as the hostile-input tests build them), every other target
// they name is set to one that exists, and that one to one that does not. The answer is
// the rule's — NOT_FOUND (or FAILED_PRECONDITION) whose details begin with the field and
// name the missing id, PERMISSION_DENIED, ABORTED, or OK with deleted/removed/released
// false — or INVALID_ARGUMENT naming another field (validation comes first: such a request
// does not count, and requests are generated until RUNS of them reach the check); and no
// call changes a row (every table's checksum, but the tier's bookkeeping, is the same
// before and after it).
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RETRY_CLASS } from '../../client/methods.js';
import type { MethodName } from '../../proto/types.js';
import { useTestTier } from '../helpers/tier.js';
import { pool } from './arbitraries.js';
import { PEER, restoreFixtures, seedFixtures } from './fixtures.js';
import { RawClient, changedTables, checksums, codeName, comparedTables, encode } from './raw.js';
import { messageGen } from './requests.js';
import { fieldsOf, methods } from './schema.js';
import { RULES, renderRuleTable } from './target-rule.js';
import type { Rule, TargetCheck } from './target-rule.js';
import { detailsField } from './verdict.js';

const SEED = Number(process.env['SFDB_PROPERTY_SEED'] ?? 20_261_201);
/** Requests per target that pass validation and reach the check. */
const RUNS = Number(process.env['SFDB_PROPERTY_RUNS'] ?? 6);
/** Generated requests at most, per target, to find RUNS that pass validation. */
const TRIES = 8 * RUNS;

const { t, db } = useTestTier();
let raw: RawClient;
let tables: string[];

beforeAll(async () => {
  raw = new RawClient(`127.0.0.1:${t.tier.grpcPort}`);
  await seedFixtures(t, db);
  tables = await comparedTables(t.direct);
});
afterAll(() => raw?.close());

const camel = (snake: string): string => snake.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
const pick = <T>(items: readonly T[], i: number): T => items[i % items.length] as T;
const typedOf = (type: string): string => pool.typed.find(([t]) => t === type)?.[1] ?? '';

/** The value of a target that exists, and the ObjectType to pair it with (a typed object). */
function existing(c: TargetCheck, i: number): { value: string; type?: string } {
  switch (c.kind) {
    case 'node':
      return { value: pick(pool.nodes, i) };
    case 'typed object': {
      const [type, uuid] = pick(pool.typed, i);
      return { value: uuid, type };
    }
    case 'IPAM':
      return { value: typedOf('IPAM') };
    case 'blob':
      return { value: typedOf('BLOB') };
    case 'work item':
      return { value: pick(pool.items, i) };
    case 'blob transfer':
      return { value: pick(pool.transfers, i) };
    case 'lease':
      return { value: pool.fence.name };
    case 'replica':
      return { value: PEER.replicaId };
    case 'config key':
      return { value: 'k1' };
    case 'own object':
      throw new Error(`${c.field}: the RPC's own object is its only target`);
  }
}

/** A value naming nothing that exists. */
function absent(c: TargetCheck): string {
  const hex = randomBytes(4).toString('hex');
  if (c.kind === 'lease') return `missing/${hex}`;
  if (c.kind === 'replica') return `missing-replica-${hex}`;
  if (c.kind === 'config key') return `missing.${hex}`;
  return randomUUID();
}

/**
 * Sets `field` (`a_b`, `fence.name`, `events[].object_uuid`: element `index`, or all when
 * index is undefined) of `request` to `value`, and its type field to `type` when given.
 */
function set(request: Record<string, unknown>, c: TargetCheck, value: string, type: string | undefined, index?: number): void {
  const each = /^(\w+)\[\]\.(\w+)$/.exec(c.field);
  if (each) {
    const list = request[camel(each[1] as string)] as Record<string, unknown>[];
    list.forEach((element, i) => {
      if (index !== undefined && i !== index) return;
      element[camel(each[2] as string)] = value;
      if (type !== undefined && c.typeField) element[camel(c.typeField.replace(/^\w+\[\]\./, ''))] = type;
    });
    return;
  }
  const [head, tail] = c.field.split('.') as [string, string | undefined];
  if (tail !== undefined) {
    request[camel(head)] = { ...(request[camel(head)] as object | undefined), [camel(tail)]: value };
    return;
  }
  request[camel(head)] = value;
  if (type !== undefined && c.typeField) request[camel(c.typeField)] = type;
}

interface Case {
  request: Record<string, unknown>;
  missingValue: string;
  /** What the details must begin with. */
  detail: string;
}

/** A request of `rule.rpc` naming a missing target in `check`, everything else it names existing. */
function missingCase(rule: Rule, check: TargetCheck, base: Record<string, unknown>, i: number): Case {
  const request = structuredClone(base);
  // Secret keys must be keys of the static values: none (not what is under test).
  if ('secretFields' in request) request['secretFields'] = [];
  if (check.field.startsWith('events[]')) {
    // Each element its own object (a generated list may hold one object several times).
    const events = ((request['events'] as Record<string, unknown>[] | undefined) ?? []).map((e) => ({ ...e }));
    if (events.length === 0) events.push({ eventType: 'ev' });
    request['events'] = events;
  }
  if (rule.rpc === 'PokeChanges') request['ownerToken'] = PEER.ownerToken;
  for (const other of rule.checks) {
    if (other === check) continue;
    if (other.kind === 'lease' && other.field === 'fence.name') {
      // Another target under test: the fence is the lease the fixtures hold, whole.
      request['fence'] = { ...pool.fence };
      continue;
    }
    // The fence under test is checked before the object is looked for: any uuid will do.
    if (other.kind === 'own object') continue;
    const e = existing(other, i);
    set(request, other, e.value, e.type);
  }
  const missingValue = absent(check);
  let detail = check.detail ?? check.field;
  if (check.field.startsWith('events[]')) {
    // Every event names an object that exists, but one.
    const count = (request['events'] as unknown[]).length;
    for (let k = 0; k < count; k++) {
      const e = existing(check, i + k);
      set(request, check, e.value, e.type, k);
    }
    const index = i % count;
    set(request, check, missingValue, undefined, index);
    detail = `events[${index}].object_uuid`;
  } else {
    set(request, check, missingValue, undefined);
  }
  Object.assign(request, check.patch ?? {});
  return { request, missingValue, detail };
}

const cases = RULES.flatMap((rule) => rule.checks.map((check) => [`${rule.rpc} ${check.field}`, rule, check] as const));

describe('writes name real targets: the rule table covers the proto', () => {
  it('has a row for every mutating RPC of the proto and none for a read', () => {
    const declared = methods().map((m) => m.name);
    const mutating = declared.filter((name) => RETRY_CLASS[name as MethodName] !== 'read');
    const ruled = RULES.map((r) => r.rpc);
    expect(mutating.filter((name) => !ruled.includes(name)), 'mutating RPCs without a row').toEqual([]);
    expect(ruled.filter((name) => !mutating.includes(name)), 'rows of reads or of RPCs not in the proto').toEqual([]);
    expect(new Set(ruled).size, 'one row each').toBe(ruled.length);
  });

  it('is the table of docs/contract.md', () => {
    expect(readFileSync('docs/contract.md', 'utf8')).toContain(renderRuleTable());
  });

  it('names fields of the RPC requests', () => {
    const byName = new Map(methods().map((m) => [m.name, m.requestType]));
    /** Whether `path` (`a`, `a.b`, `a[].b`) is a field of message `type`. */
    const has = (type: string, path: string): boolean => {
      const [head, ...rest] = path.replace('[]', '').split('.');
      const field = fieldsOf(type).find((f) => f.name === head);
      if (!field) return false;
      return rest.length === 0 || (field.kind === 'message' && has(field.typeName, rest.join('.')));
    };
    for (const [what, rule, check] of cases) {
      const type = byName.get(rule.rpc) ?? '';
      expect(has(type, check.field), `${what}: field`).toBe(true);
      if (check.typeField) expect(has(type, check.typeField), `${what}: type field`).toBe(true);
    }
  });
});

describe('a write naming a target that does not exist is refused as the rule says, and writes nothing', () => {
  it.each(cases)('%s', async (_what, rule, check) => {
    await restoreFixtures(t, db);
    const method = methods().find((m) => m.name === rule.rpc);
    if (!method) throw new Error(`${rule.rpc} is not in the proto`);
    const samples = fc.sample(messageGen(rule.rpc, method.requestType).valid, { seed: SEED, numRuns: TRIES });
    let last = await checksums(t.direct, tables);
    const seen: Record<string, number> = {};
    let hits = 0;
    for (const [i, base] of samples.entries()) {
      if (hits >= RUNS) break;
      const { request, missingValue, detail } = missingCase(rule, check, base, i);
      const body = encode(rule.rpc, request);
      if (typeof body === 'string') throw new Error(`${rule.rpc}: ${body}`);
      const answer = await raw.send(rule.rpc, body);
      const before = last;
      last = await checksums(t.direct, tables);
      const code = codeName(answer.code);
      seen[code] = (seen[code] ?? 0) + 1;
      const what = `${rule.rpc} ${JSON.stringify(request).slice(0, 300)} answered ${code} "${answer.details}"`;
      expect(changedTables(before, last), `${what}: rows changed`).toEqual([]);
      // Validation comes first: bad input in another field is refused as such.
      if (code === 'INVALID_ARGUMENT') {
        expect(detailsField(answer.details), what).not.toBe(check.field.split('.')[0]);
        continue;
      }
      hits += 1;
      const m = check.missing;
      if (m.startsWith('false:')) {
        expect(code, what).toBe('OK');
        expect(Boolean((answer.response as Record<string, unknown>)[m.slice('false:'.length)]), what).toBe(false);
        continue;
      }
      expect(code, what).toBe(m);
      if (m === 'NOT_FOUND' || m === 'FAILED_PRECONDITION') {
        expect(answer.details.startsWith(`${detail}: `), `${what}: the details do not begin with ${detail}`).toBe(true);
        expect(answer.details, `${what}: the details do not name the missing target`).toContain(missingValue);
      }
    }
    console.log(`${rule.rpc} ${check.field} (seed ${SEED}): ${Object.entries(seen).map(([c, n]) => `${c} ${n}`).join(', ')}`);
    expect(hits, `${rule.rpc} ${check.field}: too few of ${TRIES} requests passed validation to reach the check`).toBe(RUNS);
  });
});
