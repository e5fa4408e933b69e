import { randomUUID } from 'node:crypto';
import type { RowDataPacket } from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import { Fenced, InvalidArgument } from '../../client/index.js';
import { topics } from '../../proto/topics.js';
import { metricValue } from '../../harness/scrape.js';
import { useTestTier } from '../helpers/tier.js';

const { t, db } = useTestTier();

const unique = (base: string): string => `${base}-${randomUUID().slice(0, 8)}`;

async function rawLease(name: string): Promise<Record<string, unknown> | undefined> {
  const [rows] = await t.direct.query<RowDataPacket[]>('SELECT * FROM leases WHERE name = ?', [name]);
  return rows[0];
}

/** Ends the lease now by database time, as if its holder had stopped renewing. */
async function expire(name: string): Promise<void> {
  await t.direct.query('UPDATE leases SET expires_at = UTC_TIMESTAMP(6) - INTERVAL 1 SECOND WHERE name = ?', [name]);
}

describe('leases', () => {
  it('acquires, reads, renews and releases a lease by database time', async () => {
    const name = unique('maintenance/sweep');
    expect(await db.getLease(name)).toBeUndefined();

    const { acquired, lease } = await db.acquireLease(name, 'replica-a', 30_000);
    expect(acquired).toBe(true);
    expect(lease).toMatchObject({ name, holder: 'replica-a', token: '1' });
    expect(lease.expiresAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(Number(lease.remainingMs)).toBeGreaterThan(0);
    expect(Number(lease.remainingMs)).toBeLessThanOrEqual(30_000);
    const [rows] = await t.direct.query<RowDataPacket[]>(
      'SELECT TIMESTAMPDIFF(MICROSECOND, acquired_at, expires_at) AS us FROM leases WHERE name = ?',
      [name],
    );
    expect(String(rows[0]?.['us'])).toBe('30000000');

    expect(await db.getLease(name)).toMatchObject({ name, holder: 'replica-a', token: '1', expiresAt: lease.expiresAt });

    const renewed = await db.renewLease(name, 'replica-a', '1', 600_000);
    expect(renewed).toMatchObject({ holder: 'replica-a', token: '1' });
    expect(renewed.expiresAt > lease.expiresAt).toBe(true);
    expect(Number(renewed.remainingMs)).toBeGreaterThan(30_000);

    // Acquire by the same holder is a renewal: the token stays.
    const again = await db.acquireLease(name, 'replica-a', 60_000);
    expect(again).toMatchObject({ acquired: true, lease: { holder: 'replica-a', token: '1' } });

    expect(await db.releaseLease(name, 'replica-a', '1')).toBe(true);
    const released = await db.getLease(name);
    expect(released).toMatchObject({ holder: '', token: '1', remainingMs: '0' });
    // A repeated release (a retry) answers false and writes nothing.
    const row = await rawLease(name);
    expect(await db.releaseLease(name, 'replica-a', '1')).toBe(false);
    expect(await rawLease(name)).toEqual(row);
  });

  it('refuses a live lease to others, hands an expired one over with a new token, and fences the old holder', async () => {
    const name = unique('cleanup');
    const a = await db.acquireLease(name, 'a', 30_000);
    expect(a.acquired).toBe(true);

    const b = await db.acquireLease(name, 'b', 30_000);
    expect(b).toMatchObject({ acquired: false, lease: { holder: 'a', token: '1' } });
    expect(Number(b.lease.remainingMs)).toBeGreaterThan(0);
    await expect(db.renewLease(name, 'b', '1', 30_000)).rejects.toBeInstanceOf(Fenced);
    expect(await db.releaseLease(name, 'b', '1')).toBe(false);
    expect(await db.getLease(name)).toMatchObject({ holder: 'a', token: '1' });

    await expire(name);
    expect(await db.getLease(name)).toMatchObject({ holder: 'a', remainingMs: '0' });
    // An expired lease cannot be renewed, even by its holder: it must be acquired anew.
    const before = await rawLease(name);
    await expect(db.renewLease(name, 'a', '1', 30_000)).rejects.toBeInstanceOf(Fenced);
    expect(await rawLease(name)).toEqual(before);

    const taken = await db.acquireLease(name, 'b', 30_000);
    expect(taken).toMatchObject({ acquired: true, lease: { holder: 'b', token: '2' } });

    // The old holder's token is stale: renew is fenced, release is refused, nothing written.
    const held = await rawLease(name);
    await expect(db.renewLease(name, 'a', '1', 30_000)).rejects.toBeInstanceOf(Fenced);
    await expect(db.renewLease(name, 'b', '1', 30_000)).rejects.toBeInstanceOf(Fenced);
    expect(await db.releaseLease(name, 'a', '1')).toBe(false);
    expect(await db.releaseLease(name, 'b', '1')).toBe(false);
    expect(await rawLease(name)).toEqual(held);

    // Expired and re-acquired by the same holder: a new token too.
    await expire(name);
    expect((await db.acquireLease(name, 'b', 30_000)).lease.token).toBe('3');
    await expect(db.renewLease(unique('missing'), 'b', '1', 30_000)).rejects.toBeInstanceOf(Fenced);
  });

  it("answers a standby's try on a live lease of another holder with one plain read", async () => {
    const name = unique('standby');
    await db.acquireLease(name, 'leader', 30_000);
    const statements = async (call: () => Promise<unknown>): Promise<number> => {
      const before = metricValue(await t.metrics(), 'database_queries_total', { source: 'rpc' });
      await call();
      return metricValue(await t.metrics(), 'database_queries_total', { source: 'rpc' }) - before;
    };
    expect(await statements(() => db.acquireLease(name, 'standby', 30_000))).toBe(1);
    // Its own lease (a renewal) and a free one still go through the locking transaction.
    expect(await statements(() => db.acquireLease(name, 'leader', 30_000))).toBeGreaterThan(1);
    await expire(name);
    const took = await db.acquireLease(name, 'standby', 30_000);
    expect(took).toMatchObject({ acquired: true, lease: { holder: 'standby', token: '2' } });
  });

  it('never resets the token across release and re-acquire', async () => {
    const name = unique('singleton');
    const tokens: string[] = [];
    for (const holder of ['a', 'a', 'b', 'c', 'a']) {
      const { acquired, lease } = await db.acquireLease(name, holder, 10_000);
      expect(acquired).toBe(true);
      tokens.push(lease.token);
      expect(await db.releaseLease(name, holder, lease.token)).toBe(true);
    }
    expect(tokens).toEqual(['1', '2', '3', '4', '5']);
    expect(await t.count('leases', 'name = ?', [name])).toBe(1);
  });

  it('gives a contended lease to exactly one of many concurrent acquirers', async () => {
    for (const prepare of ['absent', 'expired', 'released'] as const) {
      const name = unique(`race-${prepare}`);
      if (prepare !== 'absent') {
        const { lease } = await db.acquireLease(name, 'previous', 10_000);
        if (prepare === 'expired') await expire(name);
        else await db.releaseLease(name, 'previous', lease.token);
      }
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => t.client().acquireLease(name, `holder-${i}`, 30_000)),
      );
      const winners = results.filter((r) => r.acquired);
      expect(winners, prepare).toHaveLength(1);
      const winner = winners[0]?.lease;
      const expected = prepare === 'absent' ? '1' : '2';
      expect(winner?.token, prepare).toBe(expected);
      for (const r of results) expect(r.lease).toMatchObject({ holder: winner?.holder, token: expected });
      expect(await db.getLease(name)).toMatchObject({ holder: winner?.holder, token: expected });
    }
  });

  it('lists leases by prefix with keyset pages, taking the prefix literally', async () => {
    const base = `list-${randomUUID().slice(0, 8)}`;
    const names = [`${base}/a`, `${base}/b`, `${base}/c`, `${base}/d`, `${base}/e_x`];
    for (const n of names) await db.acquireLease(n, 'h', 10_000);
    await db.acquireLease(`${base}xother`, 'h', 10_000);
    await db.acquireLease(`${base}/eyx`, 'h', 10_000); // matched by `e_` only if '_' were a wildcard

    const seen: string[] = [];
    let pageToken = '';
    let pages = 0;
    do {
      const page = await db.listLeases({ prefix: `${base}/`, pageSize: 2, pageToken });
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items.map((l) => l.name));
      pageToken = page.nextPageToken;
      pages++;
    } while (pageToken !== '');
    expect(seen).toEqual([...names.slice(0, 4), `${base}/e_x`, `${base}/eyx`].sort());
    expect(pages).toBe(3);

    expect((await db.listLeases({ prefix: `${base}/e_` })).items.map((l) => l.name)).toEqual([`${base}/e_x`]);
    const all = await db.listLeases({ prefix: base });
    expect(all.items).toHaveLength(7);
    expect(all.items[0]).toMatchObject({ holder: 'h', token: '1' });
  });

  it('refuses bad input naming the field and writes nothing', async () => {
    const name = unique('bad');
    const { lease } = await db.acquireLease(name, 'h', 10_000);
    const cases: [() => Promise<unknown>, string][] = [
      [() => db.acquireLease('', 'h', 10_000), 'name'],
      [() => db.acquireLease('Bad Name', 'h', 10_000), 'name'],
      [() => db.acquireLease('/leading-slash', 'h', 10_000), 'name'],
      [() => db.acquireLease('n'.repeat(129), 'h', 10_000), 'name'],
      [() => db.acquireLease(unique('ok'), '', 10_000), 'holder'],
      [() => db.acquireLease(unique('ok'), 'h'.repeat(129), 10_000), 'holder'],
      [() => db.acquireLease(unique('ok'), 'h', 0), 'ttl_ms'],
      [() => db.acquireLease(unique('ok'), 'h', 999), 'ttl_ms'],
      [() => db.acquireLease(unique('ok'), 'h', 3_600_001), 'ttl_ms'],
      [() => db.renewLease(name, 'h', '0', 10_000), 'token'],
      [() => db.renewLease(name, 'h', 'abc', 10_000), 'token'],
      [() => db.renewLease(name, 'h', lease.token, 100), 'ttl_ms'],
      [() => db.renewLease(name, '', lease.token, 10_000), 'holder'],
      [() => db.releaseLease('UPPER', 'h', lease.token), 'name'],
      [() => db.releaseLease(name, 'h', '-1'), 'token'],
      [() => db.getLease('x'.repeat(129)), 'name'],
      [() => db.listLeases({ prefix: 'A%' }), 'prefix'],
      [() => db.listLeases({ prefix: 'p'.repeat(129) }), 'prefix'],
      [() => db.listLeases({ pageSize: 1001 }), 'page_size'],
      [() => db.listLeases({ pageSize: -1 }), 'page_size'],
      [() => db.listLeases({ pageToken: '!!garbage' }), 'page_token'],
    ];
    const before = await t.count('leases');
    const row = await rawLease(name);
    for (const [call, field] of cases) {
      const err = await call().then(() => undefined, (e: unknown) => e);
      expect(err, field).toBeInstanceOf(InvalidArgument);
      expect((err as InvalidArgument).field, String(err)).toBe(field);
    }
    expect(await t.count('leases')).toBe(before);
    expect(await rawLease(name)).toEqual(row);
  });

  it("publishes lease/<name> on a release (updated) and on a new holder (state), not on creation or renewal: what a standby on the feed waits for", async () => {
    const name = unique('maintenance/feed');
    const topic = [topics.lease(name)];
    const { cursor } = await db.getChangesSince({ cursor: '', topics: topic });
    const a = await db.acquireLease(name, 'a', 30_000);
    await db.renewLease(name, 'a', a.lease.token, 30_000);
    await db.acquireLease(name, 'b', 30_000); // live and held: refused, nothing written
    expect((await db.getChangesSince({ cursor, topics: topic })).changes).toEqual([]);
    expect(await db.releaseLease(name, 'a', a.lease.token)).toBe(true);
    const released = await db.getChangesSince({ cursor, topics: topic });
    expect(released.changes.map((c) => [c.topic, c.id, c.kind])).toEqual([[topics.lease(name), name, 'updated']]);
    const b = await db.acquireLease(name, 'b', 30_000);
    expect(b.acquired).toBe(true);
    await expire(name);
    expect((await db.acquireLease(name, 'c', 30_000)).acquired).toBe(true); // took over an expired lease
    const after = await db.getChangesSince({ cursor: released.cursor, topics: topic });
    expect(after.changes).toHaveLength(1); // coalesced per (topic, id): the latest of the two
    expect(after.changes[0]?.kind).toBe('state'); // a takeover: held, nothing for a standby to ask
    expect(Number(after.changes[0]?.seq)).toBeGreaterThan(Number(released.changes[0]?.seq));
    expect(await db.releaseLease(name, 'a', a.lease.token)).toBe(false); // a stale release publishes nothing
    expect((await db.getChangesSince({ cursor: after.cursor, topics: topic })).changes).toEqual([]);
  });
});
