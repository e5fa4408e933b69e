// Objects: mutable state, generic and keyed by ObjectType (NODE included). Never cached.
import type { ObjectStateRecord } from '@sfdb/proto/gen/sfdb/v1/ObjectStateRecord';
import { decodePageToken, page } from '../../paging.js';
import { topics } from '@sfdb/proto/topics';
import { isoTime } from '../../time.js';
import * as v from '../../validate.js';
import type { ChangeRow } from '../../changefeed/queries.js';
import type { Handlers } from '../context.js';
import { holdFence, optionalFence } from '../fence.js';
import { objectTypeField, objectTypeFromColumn } from '../object-types.js';
import { missing } from '../targets.js';
import * as q from './state-queries.js';

/** Every ObjectState name but OBJECT_STATE_UNSPECIFIED. */
export const OBJECT_STATES = [
  'INITIAL',
  'PREFLIGHT',
  'CREATING',
  'CREATED',
  'DELETE_WAIT',
  'DELETING',
  'DELETED',
  'ERRORED',
] as const;

const MAX_MESSAGE_CHARS = 1024;

function toStateRecord(row: q.StateRow): ObjectStateRecord {
  return {
    objectType: objectTypeFromColumn(row.object_type),
    uuid: row.uuid,
    nodeUuid: row.node_uuid,
    state: row.state as ObjectStateRecord['state'],
    message: row.message,
    updatedAt: isoTime(row.updated_at),
  };
}

/**
 * The change rows of a state write: the topic of the node the object is placed on and
 * that of its namespace, each when it has one. An object with neither publishes nothing:
 * no waiter can scope a wait on it.
 */
function stateChanges(type: string, uuid: string, place: { node_uuid: string; namespace: string }, kind: 'state' | 'deleted'): ChangeRow[] {
  const rows: ChangeRow[] = [];
  if (place.node_uuid !== '') rows.push({ topic: topics.nodeObjects(place.node_uuid, type), objectType: type, objectId: uuid, kind });
  if (place.namespace !== '') rows.push({ topic: topics.namespaceObjects(place.namespace, type), objectType: type, objectId: uuid, kind });
  return rows;
}

export const objectStateHandlers: Handlers<'GetObjectState' | 'SetObjectState' | 'DeleteObjectState' | 'ListObjectsByState'> = {
  async GetObjectState(req, { sql }) {
    const row = await q.selectState(sql, objectTypeField('object_type', req.objectType), v.uuid('uuid', req.uuid));
    return row ? { found: true, state: toStateRecord(row) } : { found: false };
  },

  async SetObjectState(req, { write }) {
    const a = {
      type: objectTypeField('object_type', req.objectType),
      uuid: v.uuid('uuid', req.uuid),
      state: v.requiredEnum('state', req.state, OBJECT_STATES),
      message: v.text('message', req.message, { max: MAX_MESSAGE_CHARS }),
    };
    const fence = optionalFence(req.fence);
    // Waiters on the object's node and on its namespace hear it.
    const row = await write(async (tx, publish) => {
      await holdFence(tx, fence);
      const r = await q.upsertState(tx, a);
      if (r) publish(...stateChanges(a.type, a.uuid, r, 'state'));
      return r;
    });
    if (!row) throw missing({ field: 'uuid', type: a.type, uuid: a.uuid });
    return { state: toStateRecord(row) };
  },

  async DeleteObjectState(req, { write }) {
    const type = objectTypeField('object_type', req.objectType);
    const uuid = v.uuid('uuid', req.uuid);
    const fence = optionalFence(req.fence);
    const place = await write(async (tx, publish) => {
      await holdFence(tx, fence);
      const p = await q.deleteStateReturning(tx, type, uuid);
      if (p) publish(...stateChanges(type, uuid, p, 'deleted'));
      return p;
    });
    return { deleted: place !== undefined };
  },

  async ListObjectsByState(req, { sql }) {
    const type = objectTypeField('object_type', req.objectType);
    const state = v.requiredEnum('state', req.state, OBJECT_STATES);
    const nodeUuid = v.optionalUuid('node_uuid', req.nodeUuid);
    const limit = v.pageSize('page_size', req.pageSize);
    const after = decodePageToken('page_token', req.pageToken, 1)?.[0];
    const rows = await q.listByState(sql, { type, state, nodeUuid, after, limit: limit + 1 });
    const { items, nextPageToken } = page(rows, limit, (r) => [r.uuid]);
    return { states: items.map(toStateRecord), nextPageToken };
  },
};
