import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { InvalidArgument } from '../../client/index.js';
import type { ObjectEvent, ObjectEventInput } from '../../client/index.js';
import { listObjectEvents } from '../../server/rpc/events/queries.js';
import { newObject } from '../helpers/targets.js';
import { useTestTier } from '../helpers/tier.js';
import { explainStatement } from '../helpers/explain.js';

const { t, db } = useTestTier();

const explain = (run: Parameters<typeof explainStatement>[1]) => explainStatement(t.direct, run);

async function listAll(objectUuid: string, pageSize: number): Promise<{ events: ObjectEvent[]; pages: number }> {
  const events: ObjectEvent[] = [];
  let pageToken = '';
  let pages = 0;
  do {
    const page = await db.listObjectEvents('INSTANCE', objectUuid, { pageSize, pageToken });
    expect(page.items.length).toBeLessThanOrEqual(pageSize);
    events.push(...page.items);
    pageToken = page.nextPageToken;
    pages++;
  } while (pageToken !== '');
  return { events, pages };
}

describe('events', () => {
  it('records a batch and lists one object page by page, each event exactly once', async () => {
    const a = await newObject(db, 'Instance');
    const b = await newObject(db, 'Instance');
    await newObject(db, 'Network', { uuid: a });
    const batch: ObjectEventInput[] = [];
    for (let i = 0; i < 17; i++) {
      batch.push({ objectType: 'INSTANCE', objectUuid: a, eventType: 'state-change', message: `step ${i}`, extra: { i, note: 'é😀' } });
      batch.push({ objectType: 'INSTANCE', objectUuid: b, eventType: 'other' });
    }
    batch.push({ objectType: 'NETWORK', objectUuid: a, eventType: 'same-uuid-other-type' });
    expect(await db.recordEvents(batch)).toBe(batch.length);

    const { events, pages } = await listAll(a, 5);
    expect(pages).toBe(4);
    expect(events.map((e) => e.message)).toEqual(Array.from({ length: 17 }, (_, i) => `step ${i}`));
    expect(events.map((e) => e.extra)).toEqual(Array.from({ length: 17 }, (_, i) => ({ i, note: 'é😀' })));
    expect(new Set(events.map((e) => e.id)).size).toBe(17);
    // Ids grow in batch order, compared as integers.
    const ids = events.map((e) => BigInt(e.id));
    expect(ids.every((id, i) => i === 0 || id > (ids[i - 1] as bigint))).toBe(true);
    expect(events[0]).toMatchObject({ objectType: 'INSTANCE', objectUuid: a, eventType: 'state-change' });
    expect(events[0]?.recordedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);

    const other = await listAll(b, 1000);
    expect(other.events).toHaveLength(17);
    expect(other.events[0]).toMatchObject({ message: '', extra: undefined });
    expect((await db.listObjectEvents('NETWORK', a)).items.map((e) => e.eventType)).toEqual(['same-uuid-other-type']);
    expect((await db.listObjectEvents('INSTANCE', randomUUID())).items).toEqual([]);
  });

  it('records a full batch of 1000 in one call', async () => {
    const uuid = await newObject(db, 'Blob');
    const batch = Array.from({ length: 1000 }, (_, i): ObjectEventInput => ({ objectType: 'BLOB', objectUuid: uuid, eventType: 'chunk', message: String(i) }));
    expect(await db.recordEvents(batch)).toBe(1000);
    expect(await t.count('events', 'object_uuid = ?', [uuid])).toBe(1000);
    const page = await db.listObjectEvents('BLOB', uuid, { pageSize: 1000 });
    expect(page.nextPageToken).toBe('');
    expect(page.items.map((e) => e.message)).toEqual(batch.map((e) => e.message));
  });

  it('lists from events_object, with and without a cursor', async () => {
    // Other objects' events, so that one object's events are a small part of the table.
    await t.direct.query(
      `INSERT INTO events (object_type, object_uuid, event_type, message, recorded_at)
       SELECT 'instance', UUID(), 'bulk', '', UTC_TIMESTAMP(6) FROM seq_1_to_3000`,
    );
    await t.direct.query('ANALYZE TABLE events');
    const uuid = randomUUID();
    for (const after of [undefined, '0', '1500']) {
      const plan = await explain((sql) => listObjectEvents(sql, 'instance', uuid, after, 101));
      expect(plan.map((r) => r.key), String(after)).toEqual(['events_object']);
      expect(plan[0]?.Extra ?? '').not.toMatch(/filesort/);
    }
  });

  it('prunes only events older than asked, oldest first, up to the limit', async () => {
    const old = await newObject(db, 'Instance');
    const fresh = await newObject(db, 'Instance');
    const mk = (objectUuid: string, n: number): ObjectEventInput[] =>
      Array.from({ length: n }, (_, i) => ({ objectType: 'INSTANCE', objectUuid, eventType: 'tick', message: String(i) }));
    await db.recordEvents([...mk(old, 5), ...mk(fresh, 3)]);
    // Age the first object's events by two hours through the database, not by waiting.
    await t.direct.query('UPDATE events SET recorded_at = recorded_at - INTERVAL 2 HOUR WHERE object_uuid = ?', [old]);
    const total = await t.count('events');

    const hour = 3600_000;
    expect(await db.pruneEvents(3 * hour)).toBe(0);
    expect(await db.pruneEvents(hour, { limit: 3 })).toBe(3);
    expect((await db.listObjectEvents('INSTANCE', old)).items.map((e) => e.message)).toEqual(['3', '4']);
    expect(await db.pruneEvents(hour, { limit: 3 })).toBe(2);
    expect(await db.pruneEvents(hour)).toBe(0);
    expect(await t.count('events')).toBe(total - 5);
    expect((await db.listObjectEvents('INSTANCE', fresh)).items).toHaveLength(3);
  });

  it('refuses bad input naming the field and writes nothing', async () => {
    const uuid = await newObject(db, 'Instance');
    const good = (): ObjectEventInput => ({ objectType: 'INSTANCE', objectUuid: uuid, eventType: 'ok', message: 'fine', extra: { a: 1 } });
    const raw = (patch: Record<string, unknown>) => ({ objectType: 'INSTANCE' as const, objectUuid: uuid, eventType: 'ok', ...patch });
    const withBad = (bad: ReturnType<typeof raw>) =>
      db.call('RecordEvents', { events: [raw({}), raw({}), raw({}), bad, raw({})] });
    const cases: [() => Promise<unknown>, string][] = [
      [() => db.recordEvents([]), 'events'],
      [() => db.recordEvents(Array.from({ length: 1001 }, good)), 'events'],
      // One bad element in a batch: named by its index, and none of the batch is written.
      [() => db.recordEvents([good(), good(), good(), { ...good(), objectUuid: 'nope' }]), 'events[3].object_uuid'],
      [() => withBad(raw({ objectType: 99 as never })), 'events[3].object_type'],
      [() => withBad(raw({ objectType: undefined })), 'events[3].object_type'],
      [() => withBad(raw({ eventType: '' })), 'events[3].event_type'],
      [() => withBad(raw({ eventType: 'e'.repeat(65) })), 'events[3].event_type'],
      [() => withBad(raw({ message: 'm'.repeat(1025) })), 'events[3].message'],
      [() => withBad(raw({ extra: '{not json' })), 'events[3].extra'],
      [() => withBad(raw({ extra: '[1,2]' })), 'events[3].extra'],
      [() => withBad(raw({ extra: JSON.stringify({ pad: 'x'.repeat(17_000) }) })), 'events[3].extra'],
      [() => db.listObjectEvents(99 as never, uuid), 'object_type'],
      [() => db.listObjectEvents('INSTANCE', 'x'), 'object_uuid'],
      [() => db.listObjectEvents('INSTANCE', uuid, { pageSize: 1001 }), 'page_size'],
      [() => db.listObjectEvents('INSTANCE', uuid, { pageToken: '!!garbage' }), 'page_token'],
      [() => db.listObjectEvents('INSTANCE', uuid, { pageToken: Buffer.from('["12 OR 1=1"]').toString('base64url') }), 'page_token'],
      [() => db.pruneEvents(999), 'older_than_ms'],
      [() => db.pruneEvents(316_000_000_000), 'older_than_ms'],
      [() => db.pruneEvents(60_000, { limit: 10_001 }), 'limit'],
      [() => db.pruneEvents(60_000, { limit: -1 }), 'limit'],
    ];
    const before = await t.count('events');
    for (const [call, field] of cases) {
      const err = await call().then(() => undefined, (e: unknown) => e);
      expect(err, field).toBeInstanceOf(InvalidArgument);
      expect((err as InvalidArgument).field, field).toBe(field);
    }
    expect(await t.count('events')).toBe(before);
    expect((await db.listObjectEvents('INSTANCE', uuid)).items).toEqual([]);
  });
});
