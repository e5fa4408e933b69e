// Objects: static values. One generic implementation per operation, bound to each type
// of the table in types.ts, so CreateIPAM and CreateBlob are distinct RPCs (and counters)
// running the same code.
import type { StaticObject } from '@sfdb/proto/gen/sfdb/v1/StaticObject';
import { ER_DUP_ENTRY, RerunTransactionError, sqlErrno } from '../../db/retryable.js';
import { ConflictError, InvalidArgumentError } from '../../errors.js';
import { decodePageToken, page } from '../../paging.js';
import { topics } from '@sfdb/proto/topics';
import type { ChangeRow } from '../../changefeed/queries.js';
import { isoTime } from '../../time.js';
import * as v from '../../validate.js';
import type { Sql } from '../../db/sql.js';
import type { Publish } from '../../changefeed/publish.js';
import type { Handler, Handlers } from '../context.js';
import { fencedWrite, holdFence, optionalFence } from '../fence.js';
import { missing } from '../targets.js';
import { deleteAttributes } from './attribute-queries.js';
import { refusingBadJson } from './json-check.js';
import * as q from './queries.js';
import { deleteState } from './state-queries.js';
import { IMMUTABLE_TYPES, OBJECT_TYPE_COLUMN, UPGRADEABLE_TYPES } from './types.js';
import type { StaticObjectMethod, StaticTypeName } from './types.js';

/** Static values (a JSON object) and every JSON attribute value: at most 64 KiB. */
export const MAX_JSON_BYTES = 64 * 1024;
const MAX_NAMESPACE_CHARS = 128;

/** MariaDB normalises JSON text it stores; compare the lists, not their spelling. */
function sameFields(stored: string, wanted: string): boolean {
  return JSON.stringify(JSON.parse(stored)) === wanted;
}

export function toStaticObject(row: q.ObjectRow): StaticObject {
  return {
    secretFields: JSON.parse(row.secret_fields) as string[],
    uuid: row.uuid,
    namespace: row.namespace,
    nodeUuid: row.node_uuid,
    version: row.version,
    staticValues: row.static_values,
    createdAt: isoTime(row.created_at),
    updatedAt: isoTime(row.updated_at),
  };
}

/** Empty means "none" (or "any", as a list scope); otherwise a name of at most 128 characters. */
function namespaceField(value: string): string {
  return value === '' ? '' : v.name('namespace', value, MAX_NAMESPACE_CHARS);
}

function staticValuesField(value: string): string {
  return v.json('static_values', value, { maxBytes: MAX_JSON_BYTES, object: true, dflt: '{}' });
}

/** At most this many secret keys per object. */
export const MAX_SECRET_FIELDS = 16;

/**
 * The secret keys of `staticValues` (validated JSON object text): distinct top-level keys
 * it has, at most MAX_SECRET_FIELDS. Stored as a sorted JSON array, so an idempotent
 * create compares them by value. The messages name keys, never values.
 */
function secretFieldsField(fields: readonly string[], staticValues: string): string {
  v.count('secret_fields', fields, { max: MAX_SECRET_FIELDS });
  v.distinct('secret_fields', fields);
  const keys = new Set(Object.keys(JSON.parse(staticValues) as object));
  fields.forEach((f, i) => {
    if (!keys.has(f)) throw new InvalidArgumentError(`secret_fields[${i}]`, 'not a top-level key of static_values');
  });
  return JSON.stringify([...fields].sort());
}

/**
 * The change rows of a static object's write: its node's and its namespace's topics (a
 * waiter on either hears the object appear, change or go) and, for an update or a delete,
 * the type's static topic (caches drop their copy; a create needs none: misses are never cached).
 */
export function objectChanges(type: string, uuid: string, place: { namespace: string; node_uuid: string }, kind: 'created' | 'updated' | 'deleted'): ChangeRow[] {
  const rows: ChangeRow[] = [];
  if (kind !== 'created') rows.push({ topic: topics.staticValues(type), objectType: type, objectId: uuid, kind });
  if (place.node_uuid !== '') rows.push({ topic: topics.nodeObjects(place.node_uuid, type), objectType: type, objectId: uuid, kind });
  if (place.namespace !== '') rows.push({ topic: topics.namespaceObjects(place.namespace, type), objectType: type, objectId: uuid, kind });
  return rows;
}

function create(type: string): Handler<'CreateInstance'> {
  return async (req, { sql, write }) => {
    const uuid = v.uuid('uuid', req.uuid);
    const namespace = namespaceField(req.namespace);
    const nodeUuid = v.optionalUuid('node_uuid', req.nodeUuid);
    const staticValues = staticValuesField(req.staticValues);
    const a = { type, uuid, namespace, nodeUuid, staticValues, secretFields: secretFieldsField(req.secretFields, staticValues) };
    const fence = optionalFence(req.fence);
    try {
      // An object with neither node nor namespace is on no topic: a plain insert, no
      // transaction around it (a create never publishes on static/<type>). One placed on
      // a node is written only when the node exists (insertObject): else NOT_FOUND.
      const place = { namespace: a.namespace, node_uuid: a.nodeUuid };
      const insert = async (tx: Sql, publish?: Publish): Promise<q.ObjectRow> => {
        const r = await q.insertObject(tx, a);
        if (!r) throw missing({ field: 'node_uuid', type: 'node', uuid: a.nodeUuid });
        publish?.(...objectChanges(type, a.uuid, place, 'created'));
        return r;
      };
      const row = await refusingBadJson('static_values', () =>
        objectChanges(type, a.uuid, place, 'created').length === 0
          ? fencedWrite(sql, fence, (tx) => insert(tx))
          : write(async (tx, publish) => {
              await holdFence(tx, fence);
              return insert(tx, publish);
            }),
      );
      return { object: toStaticObject(row), created: true };
    } catch (err) {
      if (sqlErrno(err) !== ER_DUP_ENTRY) throw err;
    }
    // Idempotent create: the same namespace, node and byte-identical static values
    // answer the stored object. After an update of an upgradeable object, a retried
    // create with the original values is a conflict: it no longer describes the object.
    const existing = await q.selectObject(sql, type, a.uuid);
    if (!existing) throw new ConflictError(`${type} ${a.uuid} was deleted while being created`);
    const same =
      existing.namespace === a.namespace &&
      existing.node_uuid === a.nodeUuid &&
      existing.static_values === a.staticValues &&
      sameFields(existing.secret_fields, a.secretFields);
    if (same) {
      return { object: toStaticObject(existing), created: false };
    }
    throw new ConflictError(`${type} ${a.uuid} exists with other values`);
  };
}

function get(type: string): Handler<'GetInstance'> {
  return async (req, { sql }) => {
    const row = await q.selectObject(sql, type, v.uuid('uuid', req.uuid));
    return row ? { found: true, object: toStaticObject(row) } : { found: false };
  };
}

function remove(type: string): Handler<'DeleteInstance'> {
  return async (req, { write }) => {
    const uuid = v.uuid('uuid', req.uuid);
    const fence = optionalFence(req.fence);
    return write(async (tx, publish) => {
      await holdFence(tx, fence);
      // Taken exclusively (after the counter floor: queries.ts deleteObjectReturning): a
      // write naming the object (it reads the row under a shared lock) committed before, and
      // its rows go here, or it waits and finds nothing.
      const place = await q.deleteObjectReturning(tx, type, uuid);
      // No such object: nothing written (DeleteObjectState and DeleteObjectAttributes
      // remove rows that name no object).
      if (!place) return { deleted: false };
      await deleteState(tx, type, uuid);
      await deleteAttributes(tx, type, uuid, []);
      publish(...objectChanges(type, uuid, place, 'deleted'));
      return { deleted: true };
    });
  };
}

function list(type: string): Handler<'ListInstances'> {
  return async (req, { sql }) => {
    const namespace = namespaceField(req.namespace);
    const nodeUuid = v.optionalUuid('node_uuid', req.nodeUuid);
    const limit = v.pageSize('page_size', req.pageSize);
    const after = decodePageToken('page_token', req.pageToken, 1)?.[0];
    const rows = await q.listObjects(sql, { type, namespace, nodeUuid, after, limit: limit + 1 });
    const { items, nextPageToken } = page(rows, limit, (r) => [r.uuid]);
    return { objects: items.map(toStaticObject), nextPageToken };
  };
}

function update(type: string): Handler<'UpdateBlob'> {
  return async (req, { write }) => {
    const uuid = v.uuid('uuid', req.uuid);
    const staticValues = staticValuesField(req.staticValues);
    const expectedVersion = v.int64String('expected_version', req.expectedVersion, { min: 0n });
    const a = { type, uuid, staticValues, secretFields: secretFieldsField(req.secretFields, staticValues), expectedVersion };
    const fence = optionalFence(req.fence);
    const { object, published } = await write(async (tx, publish) => {
      await holdFence(tx, fence);
      const changed = await refusingBadJson('static_values', () => q.updateObject(tx, a));
      if (changed === 0) {
        const current = await q.selectObject(tx, type, a.uuid);
        if (!current) throw missing({ field: 'uuid', type, uuid: a.uuid });
        throw new ConflictError(`${type} ${a.uuid} is at version ${current.version}, not ${a.expectedVersion}`, 'version');
      }
      const row = await q.selectObject(tx, type, a.uuid);
      if (!row) throw new RerunTransactionError(`${type} vanished inside its update`);
      return { object: toStaticObject(row), published: publish(...objectChanges(type, a.uuid, row, 'updated')) };
    });
    // The static/<type> change's seq: a cache that re-reads after this answer skips that change.
    return { object, changeSeq: published.seqOn(topics.staticValues(type)) ?? '0' };
  };
}

function handlersOf(name: StaticTypeName, upgradeable: boolean): [string, unknown][] {
  const type = OBJECT_TYPE_COLUMN[name];
  return [
    [`Create${name}`, create(type)],
    [`Get${name}`, get(type)],
    [`Delete${name}`, remove(type)],
    [`List${name}s`, list(type)],
    ...(upgradeable ? [[`Update${name}`, update(type)] as [string, unknown]] : []),
  ];
}

/**
 * Every static-object handler. The one cast: the keys are built from the table, and
 * every Create*, Get*, ... shares its request and response types with CreateInstance,
 * GetInstance, ... (the proto gives them one message pair each).
 */
export const staticObjectHandlers = Object.fromEntries([
  ...IMMUTABLE_TYPES.flatMap((name) => handlersOf(name, false)),
  ...UPGRADEABLE_TYPES.flatMap((name) => handlersOf(name, true)),
]) as Handlers<StaticObjectMethod>;
