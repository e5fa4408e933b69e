// Events: typed calls. `extra` travels as JSON text and is handed over parsed.
import type { Event__Output } from '@sfdb/proto/gen/sfdb/v1/Event';
import type { CallOptions, Transport } from '../transport.js';
import type { Page } from './nodes.js';
import type { ObjectType } from './objects.js';

export interface ObjectEventInput {
  objectType: ObjectType;
  objectUuid: string;
  /** Lower-case name, ≤ 64 characters. */
  eventType: string;
  /** ≤ 1024 characters. */
  message?: string;
  /** A JSON-able object, ≤ 16 KiB as JSON. */
  extra?: Record<string, unknown>;
}

export interface ObjectEvent {
  /** A decimal string (64-bit), growing in recording order. */
  id: string;
  objectType: ObjectType;
  objectUuid: string;
  eventType: string;
  message: string;
  /** Parsed; undefined when the event had none. */
  extra: Record<string, unknown> | undefined;
  recordedAt: string;
}

function toObjectEvent(e: Event__Output): ObjectEvent {
  return {
    id: e.id,
    objectType: e.objectType as ObjectType,
    objectUuid: e.objectUuid,
    eventType: e.eventType,
    message: e.message,
    extra: e.extra === '' ? undefined : (JSON.parse(e.extra) as Record<string, unknown>),
    recordedAt: e.recordedAt,
  };
}

export function eventsApi(t: Transport) {
  return {
    /**
     * Records 1..1000 events in one statement: all or none. Not retried on UNAVAILABLE
     * (events carry no id, so a blind retry could record a batch twice).
     */
    async recordEvents(events: readonly ObjectEventInput[], opts?: CallOptions): Promise<number> {
      const request = events.map((e) => ({
        objectType: e.objectType,
        objectUuid: e.objectUuid,
        eventType: e.eventType,
        message: e.message ?? '',
        extra: e.extra === undefined ? '' : JSON.stringify(e.extra),
      }));
      return (await t.call('RecordEvents', { events: request }, opts)).recorded;
    },

    /** One object's events, oldest first, a page at a time. */
    async listObjectEvents(
      objectType: ObjectType,
      objectUuid: string,
      page: { pageSize?: number; pageToken?: string } = {},
      opts?: CallOptions,
    ): Promise<Page<ObjectEvent>> {
      const r = await t.call('ListObjectEvents', { objectType, objectUuid, ...page }, opts);
      return { items: r.events.map(toObjectEvent), nextPageToken: r.nextPageToken };
    },

    /**
     * Deletes up to `limit` (1..10000, default 1000) of the oldest events recorded more
     * than `olderThanMs` ago (1 s .. 10 years); answers how many. Call again while it
     * answers `limit`.
     */
    async pruneEvents(olderThanMs: number, opts?: CallOptions & { limit?: number }): Promise<number> {
      const r = await t.call('PruneEvents', { olderThanMs, limit: opts?.limit ?? 0 }, opts);
      return Number(r.deleted);
    },
  };
}

export type EventsApi = ReturnType<typeof eventsApi>;
