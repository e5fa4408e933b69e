// Objects: attributes, key -> JSON text, generic and keyed by ObjectType (NODE included).
// Never cached; secret-bearing values live here, not in static values.
import { InvalidArgumentError, echo } from '../../errors.js';
import * as v from '../../validate.js';
import type { Handlers } from '../context.js';
import { fencedWrite, optionalFence } from '../fence.js';
import { objectTypeField } from '../object-types.js';
import * as q from './attribute-queries.js';
import { existingTargets, missing } from '../targets.js';
import { setAttributesAlone } from './attribute-writes.js';
import { MAX_JSON_BYTES } from './static.js';

/** Keys one SetObjectAttributes may write. */
export const MAX_ATTRIBUTES_PER_CALL = 100;
const MAX_KEY_CHARS = 128;

/** A field mask: attribute keys, each a name; repeats are dropped. */
function fieldMask(values: readonly string[]): string[] {
  v.count('field_mask', values, { max: q.MAX_ATTRIBUTES_PER_OBJECT });
  return [...new Set(values.map((key) => v.name('field_mask', key, MAX_KEY_CHARS)))];
}

/** Validates one attribute's JSON text, naming the key in the reason. */
function attributeValue(key: string, value: string): string {
  try {
    return v.json('attributes', value, { maxBytes: MAX_JSON_BYTES });
  } catch (err) {
    if (!(err instanceof InvalidArgumentError)) throw err;
    throw new InvalidArgumentError('attributes', `key ${echo(key)}: ${err.message.slice('attributes: '.length)}`);
  }
}

export const objectAttributeHandlers: Handlers<'GetObjectAttributes' | 'SetObjectAttributes' | 'DeleteObjectAttributes'> = {
  async GetObjectAttributes(req, { sql }) {
    const type = objectTypeField('object_type', req.objectType);
    const uuid = v.uuid('uuid', req.uuid);
    const rows = await q.selectAttributes(sql, type, uuid, fieldMask(req.fieldMask));
    return { attributes: Object.fromEntries(rows.map((r) => [r.attr_key, r.value])) };
  },

  async SetObjectAttributes(req, { sql, groups }) {
    const type = objectTypeField('object_type', req.objectType);
    const uuid = v.uuid('uuid', req.uuid);
    const entries = Object.entries(req.attributes);
    v.count('attributes', entries, { max: MAX_ATTRIBUTES_PER_CALL });
    const pairs = entries.map(([key, value]): [string, string] => [v.name('attributes', key, MAX_KEY_CHARS), attributeValue(key, value)]);
    const fence = optionalFence(req.fence);
    if (pairs.length === 0) {
      // Nothing to write, but a missing object is still NOT_FOUND (one plain read; fenced,
      // the lease is checked as for a write).
      const target = { field: 'uuid', type, uuid };
      if ((await fencedWrite(sql, fence, (tx) => existingTargets(tx, [target], false))).size === 0) throw missing(target);
      return { written: 0 };
    }
    const write = { type, uuid, pairs };
    const { commit, kinds } = groups;
    // A fenced call runs alone, in its own transaction behind its lease's row: a batch is
    // one statement for many callers, and a fence refused must roll back its caller's rows
    // only. Fenced attribute writes are a singleton job's, rare beside the nodes' periodic
    // ones, so the batches of the rest are kept (bench:fence measures both paths).
    if (fence) await fencedWrite(sql, fence, (tx) => setAttributesAlone(tx, write));
    else if (commit.enabled) await commit.submit(type === 'node' ? kinds.nodeAttributes : kinds.objectAttributes, write);
    else await setAttributesAlone(sql, write);
    return { written: pairs.length };
  },

  async DeleteObjectAttributes(req, { sql }) {
    const type = objectTypeField('object_type', req.objectType);
    const uuid = v.uuid('uuid', req.uuid);
    const keys = fieldMask(req.fieldMask);
    const deleted = await fencedWrite(sql, optionalFence(req.fence), (tx) => q.deleteAttributes(tx, type, uuid, keys));
    return { deleted: deleted > 0 };
  },
};
