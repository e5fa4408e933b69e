// Events: what happened to an object, appended in batches, listed per object, pruned by
// age. Listing and pruning each have their own index, so neither grows with the other's
// scope: ListObjectEvents reads one object's entries of events_object, PruneEvents the
// oldest entries of events_recorded.
import type { Event } from '@sfdb/proto/gen/sfdb/v1/Event';
import { InvalidArgumentError } from '../../errors.js';
import { decodePageToken, page } from '../../paging.js';
import { isoTime } from '../../time.js';
import * as v from '../../validate.js';
import type { Handlers } from '../context.js';
import { objectTypeField, objectTypeFromColumn } from '../object-types.js';
import { lockTargets } from '../targets.js';
import type { Target } from '../targets.js';
import * as q from './queries.js';

export const MAX_EVENTS_PER_BATCH = 1000;
export const MAX_EXTRA_BYTES = 16 * 1024;
export const MAX_PRUNE_LIMIT = 10_000;
export const DEFAULT_PRUNE_LIMIT = 1000;
const MIN_PRUNE_AGE_MS = 1000;
/** Ten Julian years. */
const MAX_PRUNE_AGE_MS = 315_576_000_000;

function toEvent(row: q.EventRow): Event {
  return {
    id: row.id,
    objectType: objectTypeFromColumn(row.object_type),
    objectUuid: row.object_uuid,
    eventType: row.event_type,
    message: row.message,
    extra: row.extra ?? '',
    recordedAt: isoTime(row.recorded_at),
  };
}

/** An event id from a page token: an unsigned decimal, kept as a string. */
function eventId(field: string, value: string): string {
  if (!/^\d{1,20}$/.test(value) || BigInt(value) > 18446744073709551615n) {
    throw new InvalidArgumentError(field, 'not a page token from this service');
  }
  return value;
}

export const eventHandlers: Handlers<'RecordEvents' | 'ListObjectEvents' | 'PruneEvents'> = {
  /**
   * All or nothing: every element is validated, and every event's object must exist
   * (NOT_FOUND naming events[i].object_uuid), before the one INSERT.
   */
  async RecordEvents(req, { sql }) {
    v.count('events', req.events, { min: 1, max: MAX_EVENTS_PER_BATCH });
    const events = req.events.map((e, i): q.EventValues => {
      const f = (name: string): string => `events[${i}].${name}`;
      return {
        objectType: objectTypeField(f('object_type'), e.objectType),
        objectUuid: v.uuid(f('object_uuid'), e.objectUuid),
        eventType: v.name(f('event_type'), e.eventType, 64),
        message: v.text(f('message'), e.message, { max: 1024 }),
        extra: e.extra === '' ? null : v.json(f('extra'), e.extra, { maxBytes: MAX_EXTRA_BYTES, object: true }),
      };
    });
    // Each object once, read under a shared lock until the insert commits (server/rpc/targets.ts).
    const targets = new Map<string, Target>();
    events.forEach((e, i) => {
      const key = `${e.objectType}/${e.objectUuid}`;
      if (!targets.has(key)) targets.set(key, { field: `events[${i}].object_uuid`, type: e.objectType, uuid: e.objectUuid });
    });
    const recorded = await sql.transaction(async (tx) => {
      await lockTargets(tx, [...targets.values()]);
      return q.insertEvents(tx, events);
    });
    if (recorded !== events.length) throw new Error(`recorded ${recorded} of ${events.length} events`);
    return { recorded };
  },

  async ListObjectEvents(req, { sql }) {
    const objectType = objectTypeField('object_type', req.objectType);
    const objectUuid = v.uuid('object_uuid', req.objectUuid);
    const limit = v.pageSize('page_size', req.pageSize);
    const after = decodePageToken('page_token', req.pageToken, 1);
    const afterId = after ? eventId('page_token', after[0] as string) : undefined;
    const rows = await q.listObjectEvents(sql, objectType, objectUuid, afterId, limit + 1);
    const { items, nextPageToken } = page(rows, limit, (r) => [r.id]);
    return { events: items.map(toEvent), nextPageToken };
  },

  /** Deletes up to `limit` events older than `older_than_ms`, oldest first; call again while deleted = limit. */
  async PruneEvents(req, { sql }) {
    const olderThanMs = v.int64('older_than_ms', req.olderThanMs, MIN_PRUNE_AGE_MS, MAX_PRUNE_AGE_MS);
    const limit = v.pageSize('limit', req.limit, { max: MAX_PRUNE_LIMIT, dflt: DEFAULT_PRUNE_LIMIT });
    const deleted = await q.deleteOldEvents(sql, olderThanMs * 1000, limit);
    return { deleted: String(deleted) };
  },
};
