// Objects: mutable state, generic and keyed by ObjectType (NODE included). Never cached.
import type { ObjectStateRecord } from '../../../proto/gen/sfdb/v1/ObjectStateRecord.js';
import { NotFoundError } from '../../errors.js';
import { decodePageToken, page } from '../../paging.js';
import { isoTime } from '../../time.js';
import * as v from '../../validate.js';
import type { Handlers } from '../context.js';
import { objectTypeField, objectTypeFromColumn } from '../object-types.js';
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

export const objectStateHandlers: Handlers<'GetObjectState' | 'SetObjectState' | 'DeleteObjectState' | 'ListObjectsByState'> = {
  async GetObjectState(req, { sql }) {
    const row = await q.selectState(sql, objectTypeField('object_type', req.objectType), v.uuid('uuid', req.uuid));
    return row ? { found: true, state: toStateRecord(row) } : { found: false };
  },

  async SetObjectState(req, { sql }) {
    const a = {
      type: objectTypeField('object_type', req.objectType),
      uuid: v.uuid('uuid', req.uuid),
      state: v.requiredEnum('state', req.state, OBJECT_STATES),
      message: v.text('message', req.message, { max: MAX_MESSAGE_CHARS }),
    };
    const row = await q.upsertState(sql, a);
    if (!row) throw new NotFoundError(`${a.type} ${a.uuid} does not exist`);
    return { state: toStateRecord(row) };
  },

  async DeleteObjectState(req, { sql }) {
    const deleted = await q.deleteState(sql, objectTypeField('object_type', req.objectType), v.uuid('uuid', req.uuid));
    return { deleted: deleted > 0 };
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
