// Lease ends announced, against a real tier and MariaDB: a lease whose holder stops renewing
// is announced on lease/<name> to a standby waiting on the change feed, without the standby
// asking again; a LeaseKeeper standby takes over on that announcement alone (it would
// otherwise wait for the end it was told); with no standby waiting, the watcher makes no
// statement.
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { DatabaseClient } from '../../client/index.js';
import { LeaseKeeper } from '../../client/lease-keeper.js';
import { topics } from '../../proto/topics.js';
import { until } from '../helpers/fake-clock.js';
import { metricSum, metricValue } from '../../harness/scrape.js';
import { startTestTier, useTestTier } from '../helpers/tier.js';

// A watch interval of 500 ms: an end made early by hand (below) is found within it.
const { t, db } = useTestTier({ env: { SFDB_LEASE_WATCH_MS: '500' } });
const clients: DatabaseClient[] = [];
afterAll(() => {
  for (const c of clients) c.close();
});

const unique = (base: string): string => `${base}-${randomUUID().slice(0, 8)}`;

function metrics(): Promise<string> {
  return t.metrics();
}

/** Resolves with the first batch of `topic` the subscription hears (bounded: rejects after `ms`). */
function heard(feedClient: DatabaseClient, topic: string, ms: number): { at: Promise<number>; close: () => void } {
  let close = (): void => {};
  const at = new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${topic} not heard within ${ms} ms`)), ms);
    const sub = feedClient.changes.subscribe([topic], (batch) => {
      if (batch.changes.some((c) => c.topic === topic)) {
        clearTimeout(timer);
        resolve(performance.now());
      }
    });
    close = () => {
      clearTimeout(timer);
      sub.close();
    };
  });
  return { at, close };
}

describe('lease ends announced', () => {
  it("announces a lease that ended unrenewed to the standby that asked, at the lease's end", async () => {
    const name = unique('expiry/job');
    const standby = t.client({ callerDaemon: 'cluster', cache: false });
    clients.push(standby);
    const hearing = heard(standby, topics.lease(name), 15_000);
    expect(await standby.changes.ready()).toBe('feed');
    const announcedBefore = metricValue(await metrics(), 'database_lease_ends_announced_total');

    const taken = await db.acquireLease(name, 'holder-a', 1_000);
    expect(taken).toMatchObject({ acquired: true, expiryAnnounced: true });
    const asked = await standby.acquireLease(name, 'standby-b', 1_000);
    expect(asked).toMatchObject({ acquired: false, expiryAnnounced: true, lease: { holder: 'holder-a' } });
    const endsAt = performance.now() + Number(asked.lease.remainingMs);

    // Holder a never renews. Nobody asks again: the tier tells the standby.
    const at = await hearing.at;
    hearing.close();
    expect(at).toBeGreaterThanOrEqual(endsAt - 50); // not before the end (clock granularity)
    expect(metricValue(await metrics(), 'database_lease_ends_announced_total')).toBe(announcedBefore + 1);
    const next = await standby.acquireLease(name, 'standby-b', 1_000);
    expect(next).toMatchObject({ acquired: true, lease: { holder: 'standby-b', token: '2' } });
    console.log(`lease end heard by the standby ${Math.round(at - endsAt)} ms after it`);
  });

  it('a LeaseKeeper standby takes over a lease whose holder stopped renewing when the end is announced, not at the end it was told', async () => {
    const name = unique('expiry/keeper');
    const standbyClient = t.client({ callerDaemon: 'cluster', cache: false });
    clients.push(standbyClient);
    // Holder a takes the lease for a minute: the standby is told it has a minute left.
    expect((await db.acquireLease(name, 'holder-a', 60_000)).acquired).toBe(true);
    let tries = 0;
    let token: (t: string) => void = () => {};
    const acquired = new Promise<string>((resolve) => (token = resolve));
    const keeper = new LeaseKeeper(
      {
        acquireLease: (...a) => {
          tries += 1;
          return standbyClient.acquireLease(...a);
        },
        renewLease: (...a) => standbyClient.renewLease(...a),
        releaseLease: (...a) => standbyClient.releaseLease(...a),
      },
      // Its own ttl a minute too: told a minute is left, a standby that is not told of the end asks in a minute.
      { name, holder: 'keeper-b', ttlMs: 60_000, changes: standbyClient.changes, onAcquired: (tk) => token(tk), standbyBackstopMs: 600_000 },
    );
    try {
      keeper.start();
      expect(await standbyClient.changes.ready()).toBe('feed');
      await until(() => tries >= 1);
      // Holder a dies and its lease ends early (as if the minute had passed): the standby
      // would wait out the minute, but the watcher (every 500 ms here) finds the end.
      await t.direct.query('UPDATE leases SET expires_at = UTC_TIMESTAMP(6) - INTERVAL 1 SECOND WHERE name = ?', [name]);
      expect(await acquired).toBe('2');
      expect(tries).toBeLessThanOrEqual(3); // a try at the start (and one when its poll began), one on hearing the end
    } finally {
      await keeper.stop();
    }
  });

  it('a failover among many standbys: one takes the lease, and those that hear it within their jitter do not ask', async () => {
    const name = unique('expiry/many');
    const standbys = 16;
    expect((await db.acquireLease(name, 'holder-a', 60_000)).acquired).toBe(true);
    let tries = 0;
    const holders: string[] = [];
    const keepers = Array.from({ length: standbys }, (_, i) => {
      const c = t.client({ callerDaemon: 'cluster', cache: false });
      clients.push(c);
      return new LeaseKeeper(
        {
          acquireLease: (...a) => {
            tries += 1;
            return c.acquireLease(...a);
          },
          renewLease: (...a) => c.renewLease(...a),
          releaseLease: (...a) => c.releaseLease(...a),
        },
        // A third of the lease is 1 s: each standby asks within a second of hearing the end.
        { name, holder: `standby-${i}`, ttlMs: 3_000, changes: c.changes, standbyBackstopMs: 600_000, onAcquired: () => holders.push(`standby-${i}`) },
      );
    });
    try {
      for (const k of keepers) k.start();
      // Each asks at its start and once more when its poll began: told "held by another", it waits.
      await Promise.all(clients.slice(-standbys).map((c) => c.changes.ready()));
      await until(() => tries >= standbys, 15_000);
      await new Promise((r) => setTimeout(r, 500));
      const before = tries;
      // Holder a dies and its lease ends early; the watcher (every 500 ms) announces it.
      await t.direct.query('UPDATE leases SET expires_at = UTC_TIMESTAMP(6) - INTERVAL 1 SECOND WHERE name = ?', [name]);
      await until(() => holders.length > 0, 15_000);
      // Every standby's jitter (at most 1 s) is over.
      await new Promise((r) => setTimeout(r, 1_500));
      const asked = tries - before;
      console.log(`failover among ${standbys} standbys: ${asked} asked`);
      expect(holders).toHaveLength(1);
      // Before takeovers were told apart, all 16 asked on the end and again on the takeover.
      expect(asked).toBeGreaterThanOrEqual(1);
      expect(asked).toBeLessThan(standbys);
    } finally {
      await Promise.all(keepers.map((k) => k.stop()));
    }
  });

  it('two replicas that both watch an end: it is announced once', async () => {
    const b = await startTestTier({ database: t.database, env: { SFDB_LEASE_WATCH_MS: '500' } });
    try {
      const name = unique('expiry/twice');
      const announced = async (): Promise<number> => {
        const [rows] = await t.direct.query('SELECT COUNT(*) AS n FROM changes WHERE topic = ?', [topics.lease(name)]);
        return Number((rows as { n: number | string }[])[0]?.n);
      };
      expect((await db.acquireLease(name, 'holder-a', 60_000)).acquired).toBe(true);
      // A standby asks at each replica: both watch the lease.
      for (const tier of [t, b]) {
        const c = tier.client({ callerDaemon: 'cluster', cache: false, feed: false });
        clients.push(c);
        expect((await c.acquireLease(name, 'standby', 60_000)).acquired).toBe(false);
      }
      const counted = async (): Promise<number> => {
        let n = 0;
        for (const tier of [t, b]) n += metricValue(await tier.metrics(), 'database_lease_ends_announced_total');
        return n;
      };
      const before = await counted();
      await t.direct.query('UPDATE leases SET expires_at = UTC_TIMESTAMP(6) - INTERVAL 1 SECOND WHERE name = ?', [name]);
      // Both look within their 500 ms interval; the first to claim the end announces it.
      const deadline = Date.now() + 10_000;
      while ((await announced()) === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      await new Promise((r) => setTimeout(r, 1_200)); // both have looked since
      expect(await announced()).toBe(1);
      expect((await counted()) - before).toBe(1);
    } finally {
      await b.stop();
    }
  });

  it('makes no statement while no standby waits, however many leases end; looks once one waits', async () => {
    const quiet = await startTestTier({ env: { SFDB_LEASE_WATCH_MS: '200', SFDB_REPLICA_ID: unique('quiet') } });
    const text = (): Promise<string> => quiet.metrics();
    const looks = async (): Promise<number> => metricValue(await text(), 'database_lease_expiry_looks_total', { outcome: 'ok' });
    try {
      expect(metricSum(await text(), 'database_periodic_task_interval_seconds', { task: 'lease_expiry', source: 'changefeed' })).toBe(0.2);
      const c = quiet.client({ callerDaemon: 'cluster', cache: false });
      clients.push(c);
      const names = [unique('expiry/alone'), unique('expiry/alone')];
      for (const n of names) expect((await c.acquireLease(n, 'holder', 1_000)).acquired).toBe(true);
      // Past their ends and many watch intervals, nobody waiting: no look.
      await new Promise((r) => setTimeout(r, 1_500));
      expect(await looks()).toBe(0);
      // The control: a standby's long-poll on one of them, and the watcher looks (and announces).
      const hearing = heard(c, topics.lease(names[0] as string), 15_000);
      await hearing.at;
      hearing.close();
      expect(await looks()).toBeGreaterThan(0);
    } finally {
      await quiet.stop();
    }
  });
});
