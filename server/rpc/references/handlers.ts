// References between objects ("interface X is on network Y"). Recording is idempotent,
// removal answers whether there was something to remove.
import type { Reference } from '@sfdb/proto/gen/sfdb/v1/Reference';
import type { RecordReferenceRequest__Output } from '@sfdb/proto/gen/sfdb/v1/RecordReferenceRequest';
import { topics } from '@sfdb/proto/topics';
import { isoTime } from '../../time.js';
import * as v from '../../validate.js';
import type { Handlers } from '../context.js';
import { holdFence, optionalFence } from '../fence.js';
import { objectTypeField, objectTypeFromColumn } from '../object-types.js';
import { lockTargets } from '../targets.js';
import * as q from './queries.js';

/** GetReferencesFrom / GetReferencesTo answer at most this many (also the default). */
export const MAX_REFERENCES = 1000;

function referenceKey(req: RecordReferenceRequest__Output): q.ReferenceKey {
  return {
    fromType: objectTypeField('from_type', req.fromType),
    fromUuid: v.uuid('from_uuid', req.fromUuid),
    toType: objectTypeField('to_type', req.toType),
    toUuid: v.uuid('to_uuid', req.toUuid),
    relation: v.name('relation', req.relation, 64),
  };
}

function toReference(row: q.ReferenceRow): Reference {
  return {
    fromType: objectTypeFromColumn(row.from_type),
    fromUuid: row.from_uuid,
    toType: objectTypeFromColumn(row.to_type),
    toUuid: row.to_uuid,
    relation: row.relation,
    createdAt: isoTime(row.created_at),
  };
}

function limitOf(value: number): number {
  return v.pageSize('limit', value, { max: MAX_REFERENCES, dflt: MAX_REFERENCES });
}

export const referenceHandlers: Handlers<'RecordReference' | 'RemoveReference' | 'GetReferencesFrom' | 'GetReferencesTo'> = {
  // A reference to an object came or went: waiters on references to its type (a
  // reconciler reading what changed since its last sweep) hear the target's id.
  // Both ends must exist (NOT_FOUND naming from_uuid or to_uuid); removal needs neither.
  async RecordReference(req, { write }) {
    const key = referenceKey(req);
    const fence = optionalFence(req.fence);
    const created = await write(async (tx, publish) => {
      await holdFence(tx, fence);
      await lockTargets(tx, [
        { field: 'from_uuid', type: key.fromType, uuid: key.fromUuid },
        { field: 'to_uuid', type: key.toType, uuid: key.toUuid },
      ]);
      const n = await q.insertReference(tx, key);
      if (n > 0) publish({ topic: topics.references(key.toType), objectType: 'reference', objectId: key.toUuid, kind: 'created' });
      return n > 0;
    });
    return { created };
  },

  async RemoveReference(req, { write }) {
    const key = referenceKey(req);
    const fence = optionalFence(req.fence);
    const removed = await write(async (tx, publish) => {
      await holdFence(tx, fence);
      const n = await q.deleteReference(tx, key);
      if (n > 0) publish({ topic: topics.references(key.toType), objectType: 'reference', objectId: key.toUuid, kind: 'deleted' });
      return n > 0;
    });
    return { removed };
  },

  async GetReferencesFrom(req, { sql }) {
    const type = objectTypeField('object_type', req.objectType);
    const uuid = v.uuid('uuid', req.uuid);
    const rows = await q.selectReferencesFrom(sql, type, uuid, limitOf(req.limit));
    return { references: rows.map(toReference) };
  },

  async GetReferencesTo(req, { sql }) {
    const type = objectTypeField('object_type', req.objectType);
    const uuid = v.uuid('uuid', req.uuid);
    const rows = await q.selectReferencesTo(sql, type, uuid, limitOf(req.limit));
    return { references: rows.map(toReference) };
  },
};
