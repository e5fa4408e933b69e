// Invalid UTF-8 in a string field, for every string field of every request the proto
// has (top level, in sub-messages, repeated, map keys and values; generated from the
// descriptor, so a field added to the proto is covered): INVALID_ARGUMENT naming that
// field (`events[0].message: not valid UTF-8`), and no row changes. protobufjs alone
// decodes such bytes with U+FFFD in their place, and the tier stored them.
// Then, for writes that succeed with valid text, the same write with broken text leaves
// nothing behind: the refusal is what kept it out.
import { randomUUID } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newNode } from '../helpers/targets.js';
import { useTestTier } from '../helpers/tier.js';
import { RawClient, changedTables, checksums, comparedTables, encode } from './raw.js';
import { fieldsOf, methods } from './schema.js';

const { t, db } = useTestTier();
let raw: RawClient;
let tables: string[];
let eventNode = '';

beforeAll(async () => {
  raw = new RawClient(`127.0.0.1:${t.tier.grpcPort}`);
  tables = await comparedTables(t.direct);
  eventNode = await newNode(db);
});
afterAll(() => raw?.close());

/** Eight ASCII bytes the encoded request holds once, swapped for eight that are not UTF-8. */
const MARK = 'Q7Z5Q7Z5';
const BROKEN = Buffer.from([0xc3, 0x28, 0xa0, 0xa1, 0xe2, 0x28, 0xa1, 0xff]);

function broken(method: string, request: unknown): Buffer {
  const bytes = encode(method, request);
  if (typeof bytes === 'string') throw new Error(`${method}: ${bytes}`);
  const at = bytes.indexOf(MARK);
  if (at < 0 || bytes.indexOf(MARK, at + 1) >= 0) throw new Error(`${method}: the mark is not in the request exactly once`);
  const out = Buffer.from(bytes);
  BROKEN.copy(out, at);
  return out;
}

interface Target {
  /** As the tier names it: `fqdn`, `events[0].message`, `attributes` (a map, key or value). */
  path: string;
  /** The request (proto-loader object) with `value` at that field and nothing else set. */
  build: (value: string) => Record<string, unknown>;
}

/** Every string reachable in message `type`: one target per string field, two per string map. */
function targets(type: string, depth = 0): Target[] {
  const out: Target[] = [];
  for (const f of fieldsOf(type)) {
    const wrap = (v: unknown): Record<string, unknown> => ({ [f.jsName]: f.repeated ? [v] : v });
    const index = f.repeated ? '[0]' : '';
    if (f.kind === 'string') out.push({ path: `${f.name}${index}`, build: (v) => wrap(v) });
    if (f.kind === 'map') {
      out.push({ path: f.name, build: (v) => ({ [f.jsName]: { [v]: 'x' } }) }, { path: f.name, build: (v) => ({ [f.jsName]: { k: v } }) });
    }
    if (f.kind === 'message' && depth < 4) {
      for (const sub of targets(f.typeName, depth + 1)) out.push({ path: `${f.name}${index}.${sub.path}`, build: (v) => wrap(sub.build(v)) });
    }
  }
  return out;
}

const cases = methods().flatMap((m) => targets(m.requestType).map((target) => [`${m.name} ${target.path}`, m.name, target] as const));

describe('a string field that is not UTF-8', () => {
  it('has string fields to try in most RPCs', () => {
    expect(new Set(cases.map(([, method]) => method)).size).toBeGreaterThan(methods().length / 2);
    expect(cases.map(([name]) => name)).toContain('RecordEvents events[0].message');
    expect(cases.map(([name]) => name)).toContain('SetObjectAttributes attributes');
  });

  it.each(cases)('%s', async (_name, method, target) => {
    const before = await checksums(t.direct, tables);
    const answer = await raw.send(method, broken(method, target.build(MARK)), { daemon: 'test' });
    expect(answer.code, answer.details).toBe(grpc.status.INVALID_ARGUMENT);
    expect(answer.details).toBe(`${target.path}: not valid UTF-8`);
    expect(changedTables(before, await checksums(t.direct, tables))).toEqual([]);
  });
});

describe('writes that succeed with valid text write nothing with broken text', () => {
  it.each([
    ['CreateNode', (v: string) => ({ uuid: randomUUID(), fqdn: `${v}-${randomUUID()}.test` }), 'nodes'],
    ['SetClusterConfig', (v: string) => ({ key: `k-${randomUUID()}`, value: JSON.stringify(v), expectedVersion: '0' }), 'cluster_config'],
    // The events name a node that exists (a write naming a missing one is NOT_FOUND).
    ['RecordEvents', (v: string) => ({ events: [{ objectType: 'NODE', objectUuid: eventNode, eventType: 'utf8', message: v, extra: '' }] }), 'events'],
  ] as const)('%s', async (method, request, table) => {
    const rows = await t.count(table);
    const control = await raw.send(method, encode(method, request(MARK)) as Buffer, { daemon: 'test' });
    expect(control.code, control.details).toBe(grpc.status.OK);
    expect(await t.count(table)).toBe(rows + 1);
    const answer = await raw.send(method, broken(method, request(MARK)), { daemon: 'test' });
    expect(answer.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(await t.count(table)).toBe(rows + 1);
  });

  it('attributes: a broken value writes no attribute', async () => {
    const node = randomUUID();
    const uuid = randomUUID();
    await db.createNode({ uuid: node, fqdn: `utf8-${node}.test` });
    await db.createInstance({ uuid, nodeUuid: node, staticValues: { name: 'x' } });
    const count = (): Promise<number> => t.count('object_attributes', 'uuid = ?', [uuid]);
    const request = (key: string): unknown => ({ objectType: 'INSTANCE', uuid, attributes: { [key]: JSON.stringify(MARK) } });
    const control = await raw.send('SetObjectAttributes', encode('SetObjectAttributes', request('a')) as Buffer);
    expect(control.code, control.details).toBe(grpc.status.OK);
    expect(await count()).toBe(1);
    const answer = await raw.send('SetObjectAttributes', broken('SetObjectAttributes', request('b')));
    expect(answer.details).toBe('attributes: not valid UTF-8');
    expect(await count()).toBe(1);
  });
});
