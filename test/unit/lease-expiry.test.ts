// The lease expiry watcher with a fake clock and a scripted lease table: it looks only while
// a standby waits (an AcquireLease answered "held by another", or a long-poll on the
// lease's topic), at the lease's end and at least every interval; it announces an end once
// per holder term, and forgets a lease nobody has waited for.
import { describe, expect, it } from 'vitest';
import type { ChangeRow } from '../../server/changefeed/queries.js';
import type { Write } from '../../server/changefeed/publish.js';
import type { Sql } from '../../server/db/sql.js';
import { Metrics } from '../../server/metrics.js';
import { LeaseExpiryWatcher } from '../../server/rpc/leases/expiry.js';
import { createLogger } from '../../proto/runtime/log.js';
import { FakeClock } from '../helpers/fake-clock.js';

interface Row {
  holder: string;
  token: string;
  /** Its end, on the fake clock. */
  endsAt: number;
}

/** The leases table the fake statements read, shared by the replicas of one test. */
interface FakeDb {
  clock: FakeClock;
  table: Map<string, Row>;
  /** The token whose end was claimed for announcement, per name (end_announced_token). */
  claimed: Map<string, string>;
  down: boolean;
}

function fakeDb(): FakeDb {
  return { clock: new FakeClock(), table: new Map(), claimed: new Map(), down: false };
}

function setup(opts: { waited?: string[]; shared?: FakeDb } = {}) {
  const db = opts.shared ?? fakeDb();
  const { clock, table } = db;
  const looks: { at: number; names: string[] }[] = [];
  const announced: { at: number; topics: string[] }[] = [];
  const sql = {
    // claimEndAnnouncement: the first claim of an ended term changes the row.
    async run(_text: string, [name, token]: readonly string[]) {
      const r = table.get(name as string);
      if (!r || r.token !== token || r.endsAt > clock.now() || db.claimed.get(name as string) === token) return { affectedRows: 0 };
      db.claimed.set(name as string, token as string);
      return { affectedRows: 1 };
    },
    async rows(_text: string, params: readonly string[]) {
      if (db.down) throw new Error('connection lost');
      looks.push({ at: clock.now(), names: [...params] });
      return params.flatMap((name) => {
        const r = table.get(name);
        if (!r) return [];
        const remaining = Math.max(0, r.endsAt - clock.now());
        return [{ name, holder: r.holder, token: r.token, expires_at: '', remaining_ms: String(remaining), live: r.endsAt > clock.now() ? '1' : '0' }];
      });
    },
  } as unknown as Sql;
  const write = (async (fn: (tx: Sql, publish: (...c: ChangeRow[]) => unknown) => Promise<unknown>) => {
    const published: string[] = [];
    const result = await fn(sql, (...changes) => published.push(...changes.map((c) => c.topic)));
    if (published.length > 0) announced.push({ at: clock.now(), topics: published });
    return result;
  }) as unknown as Write;
  const waited = opts.waited ?? [];
  const metrics = new Metrics('expiry');
  const watcher = new LeaseExpiryWatcher(
    { sql, write, waitedTopics: (prefix) => waited.map((name) => `${prefix}${name}`), metrics, log: createLogger('silent'), clock },
    { maxIntervalMs: 30_000 },
  );
  return { clock, table, looks, announced, watcher, waited, metrics, db };
}

describe('the lease expiry watcher', () => {
  it('makes no statement while no standby waits', async () => {
    const s = setup();
    s.watcher.start();
    await s.clock.advance(120_000);
    expect(s.looks).toEqual([]);
    await s.watcher.stop();
  });

  it("looks at a lease's end when a standby asked, follows its renewals, and announces its end once", async () => {
    const s = setup();
    s.watcher.start();
    s.table.set('job', { holder: 'a', token: '3', endsAt: 10_000 });
    s.watcher.expect('job', 10_000); // AcquireLease "held by another", 10 s left
    await s.clock.advance(10_019);
    expect(s.looks).toEqual([]);
    // Renewed meanwhile: the look finds the new end and comes back then.
    s.table.set('job', { holder: 'a', token: '3', endsAt: 25_000 });
    await s.clock.advance(1);
    expect(s.looks.map((l) => l.at)).toEqual([10_020]);
    expect(s.announced).toEqual([]);
    // The holder dies: no renewal. The next look, at the end, announces it.
    await s.clock.advance(15_000);
    expect(s.looks.map((l) => l.at)).toEqual([10_020, 25_020]);
    expect(s.announced).toEqual([{ at: 25_020, topics: ['lease/job'] }]);
    // Still ended at the next looks (every interval while watched): not announced again.
    await s.clock.advance(30_000);
    expect(s.looks.map((l) => l.at)).toEqual([10_020, 25_020, 55_020]);
    expect(s.announced).toHaveLength(1);
    // Taken by a new holder (token 4) who dies too: that end is announced.
    s.table.set('job', { holder: 'b', token: '4', endsAt: 60_000 });
    s.watcher.expect('job', 60_000 - s.clock.now());
    await s.clock.advance(5_000);
    expect(s.announced.map((a) => a.at)).toEqual([25_020, 60_020]);
    expect(Number(await s.metrics.leaseEndsAnnounced.get().then((m) => m.values[0]?.value))).toBe(2);
    await s.watcher.stop();
  });

  it('of two replicas that find the same end, one announces it', async () => {
    const shared = fakeDb();
    const [a, b] = [setup({ shared }), setup({ shared })];
    a.watcher.start();
    b.watcher.start();
    shared.table.set('job', { holder: 'h', token: '5', endsAt: 10_000 });
    a.watcher.expect('job', 10_000);
    b.watcher.expect('job', 10_000);
    await shared.clock.advance(10_020);
    expect([a.looks.length, b.looks.length]).toEqual([1, 1]);
    expect([...a.announced, ...b.announced]).toEqual([{ at: 10_020, topics: ['lease/job'] }]);
    const counted = async (r: typeof a): Promise<number> => Number((await r.metrics.leaseEndsAnnounced.get()).values[0]?.value);
    expect((await counted(a)) + (await counted(b))).toBe(1);
    // The next term's end is announced again, once.
    shared.table.set('job', { holder: 'g', token: '6', endsAt: 20_000 });
    a.watcher.expect('job', 20_000 - shared.clock.now());
    b.watcher.expect('job', 20_000 - shared.clock.now());
    await shared.clock.advance(10_000);
    expect([...a.announced, ...b.announced].map((x) => x.at)).toEqual([10_020, 20_020]);
    await a.watcher.stop();
    await b.watcher.stop();
  });

  it('watches a lease whose standby waits here on its topic (moved from a replica that died), from the next look', async () => {
    const s = setup({ waited: ['job'] });
    s.table.set('job', { holder: 'a', token: '1', endsAt: 40_000 });
    s.watcher.start();
    await s.clock.advance(30_000); // the first look, one interval after the start
    expect(s.looks).toEqual([{ at: 30_000, names: ['job'] }]);
    await s.clock.advance(10_020);
    expect(s.announced).toEqual([{ at: 40_020, topics: ['lease/job'] }]);
    await s.watcher.stop();
  });

  it('keeps no name that no holder has: made-up lease topics are read once per look, never kept', async () => {
    const s = setup({ waited: ['made-up-1', 'made-up-2'] });
    s.watcher.start();
    await s.clock.advance(30_000);
    expect(s.looks).toEqual([{ at: 30_000, names: ['made-up-1', 'made-up-2'] }]);
    expect(s.watcher.snapshot().watched).toBe(0);
    // The waiters go: no statement at the next look.
    s.waited.length = 0;
    await s.clock.advance(30_000);
    expect(s.looks).toHaveLength(1);
    await s.watcher.stop();
  });

  it('forgets a lease nobody has waited for in three intervals', async () => {
    const s = setup();
    s.watcher.start();
    s.table.set('job', { holder: 'a', token: '1', endsAt: 1_000_000 });
    s.watcher.expect('job', 1_000_000);
    await s.clock.advance(90_000); // looks every 30 s while watched
    expect(s.looks.map((l) => l.at)).toEqual([30_000, 60_000, 90_000]);
    await s.clock.advance(300_000); // at 120 s unseen for more than 90 s: forgotten before the look
    expect(s.looks.map((l) => l.at)).toEqual([30_000, 60_000, 90_000]);
    expect(s.watcher.snapshot().watched).toBe(0);
    await s.watcher.stop();
  });

  it('a failed look is tried again: sooner when a standby asks again', async () => {
    const s = setup();
    s.watcher.start();
    s.table.set('job', { holder: 'a', token: '1', endsAt: 1_000 });
    s.db.down = true;
    s.watcher.expect('job', 1_000);
    await s.clock.advance(1_020);
    expect(s.looks).toEqual([]);
    expect(s.announced).toEqual([]);
    s.db.down = false;
    s.watcher.expect('job', 0); // the standby asked again: look now (after the minimum gap)
    await s.clock.advance(50);
    expect(s.looks.map((l) => l.at)).toEqual([1_070]);
    expect(s.announced.map((a) => a.topics)).toEqual([['lease/job']]);
    await s.watcher.stop();
  });
});
