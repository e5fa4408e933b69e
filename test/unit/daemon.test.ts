// The daemon framework's timing, with a fake clock and a scripted client.
import { describe, expect, it } from 'vitest';
import type { ClusterDb, QueuesDb } from '../../daemons/index.js';
import { ClusterDaemon, Daemon, DequeueBackoff, QueuesDaemon, WorkerPool, daemonSettings, listPeriodicTasks } from '../../daemons/index.js';
import type { DaemonDb } from '../../daemons/index.js';
import { FakeClock, flush } from '../helpers/fake-clock.js';
import { FakeDaemonDb } from '../helpers/fake-daemon-db.js';
import { pino } from 'pino';

const NODE = '00000000-0000-4000-8000-000000000001';
const log = pino({ level: 'silent' });
const settings = daemonSettings({});

/** A daemon with nothing to do: its step asks to idle for a long time. */
class IdleDaemon extends Daemon {
  protected async step(): Promise<number> {
    return 60_000;
  }
}

function setup() {
  const clock = new FakeClock();
  const db = new FakeDaemonDb(clock);
  return { clock, db };
}

describe('DequeueBackoff', () => {
  it('backs off 0.2 → 0.4 → 0.8 → 1.6 → 2.0 s on empty batches, the last step repeating', () => {
    const b = new DequeueBackoff(settings.dequeueBackoffMs);
    expect(Array.from({ length: 7 }, () => b.next('empty'))).toEqual([200, 400, 800, 1600, 2000, 2000, 2000]);
  });

  it('fetches again at once after a full batch, and work resets the backoff', () => {
    const b = new DequeueBackoff(settings.dequeueBackoffMs);
    b.next('empty');
    b.next('empty');
    expect(b.next('full')).toBe(0);
    expect(b.next('empty')).toBe(200);
    b.next('empty');
    b.next('empty');
    expect(b.next('partial')).toBe(200);
    expect(b.next('empty')).toBe(400);
  });
});

describe('WorkerPool', () => {
  it('waits for a free slot without polling anything', async () => {
    const pool = new WorkerPool(1);
    let finish: () => void = () => {};
    pool.run(() => new Promise<void>((r) => (finish = r)));
    expect(pool.free).toBe(0);
    let freed = false;
    void pool.whenFree().then(() => (freed = true));
    await flush();
    expect(freed).toBe(false);
    finish();
    await flush();
    expect(freed).toBe(true);
  });
});

describe('Daemon idle loop', () => {
  it('reads the node once at start and its daemon state at most every 2 s, never the node again', async () => {
    const { clock, db } = setup();
    const d = new IdleDaemon({ name: 'idle', nodeUuid: NODE, db: db as unknown as DaemonDb, clock, log, settings });
    await d.start();
    await clock.advance(20_000);
    expect(db.times('GetNode')).toEqual([0]);
    expect(db.times('GetNodeDaemonState')).toEqual([2000, 4000, 6000, 8000, 10_000, 12_000, 14_000, 16_000, 18_000, 20_000]);
    expect(db.times('SetNodeDaemonState:RUNNING')).toEqual([0]);
    await d.stop();
    expect(listPeriodicTasks().find((t) => t.daemon === 'idle')).toMatchObject({ task: 'daemon-state-poll', operation: 'GetNodeDaemonState', intervalMs: 2000 });
  });

  it('keeps retrying its start while the database is unavailable (a cluster starting at once), and runs once answered', async () => {
    const { clock, db } = setup();
    db.down = true;
    const d = new IdleDaemon({ name: 'idle-start', nodeUuid: NODE, db: db as unknown as DaemonDb, clock, log, settings });
    let started = false;
    const starting = d.start().then(() => (started = true));
    // A minute of refusals: far past any one call's retry budget, and the daemon waits on.
    await clock.advance(60_000);
    expect(started).toBe(false);
    const tries = db.times('GetNode');
    expect(tries.length).toBeGreaterThan(10);
    // Backoff: no two tries closer than 50 ms, none more than 5 s apart.
    for (let i = 1; i < tries.length; i++) {
      const gap = (tries[i] as number) - (tries[i - 1] as number);
      expect(gap).toBeGreaterThanOrEqual(50);
      expect(gap).toBeLessThanOrEqual(5000);
    }
    db.down = false;
    await clock.advance(5000);
    await starting;
    expect(started).toBe(true);
    expect(db.times('SetNodeDaemonState:RUNNING')).toHaveLength(1);
    await d.stop();
  });

  it('notices an operator stop within the poll interval plus one tick', async () => {
    const { clock, db } = setup();
    const d = new IdleDaemon({ name: 'idle', nodeUuid: NODE, db: db as unknown as DaemonDb, clock, log, settings });
    await d.start();
    await clock.advance(2100);
    db.daemonState = 'STOPPING'; // set at 2100: the next poll is at 4000
    await clock.advance(1899);
    expect(d.snapshot().state).toBe('running');
    await clock.advance(1);
    expect(await d.done).toBe('operator');
    expect(clock.now() - 2100).toBeLessThanOrEqual(settings.daemonStatePollMs + settings.idleTickMs);
    expect(db.times('SetNodeDaemonState:STOPPED')).toEqual([4000]);
  });

  it('stops when its daemon state is gone (its node was deleted) within the poll interval plus one tick', async () => {
    const { clock, db } = setup();
    const d = new IdleDaemon({ name: 'idle', nodeUuid: NODE, db: db as unknown as DaemonDb, clock, log, settings });
    await d.start();
    await clock.advance(2100);
    db.daemonState = undefined; // DeleteNode at 2100: the next poll is at 4000
    await clock.advance(1899);
    expect(d.snapshot().state).toBe('running');
    await clock.advance(1);
    expect(await d.done).toBe('operator');
  });

  it('doubles the poll interval while the database is unavailable, up to 60 s, and snaps back on success', async () => {
    const { clock, db } = setup();
    const d = new IdleDaemon({ name: 'idle', nodeUuid: NODE, db: db as unknown as DaemonDb, clock, log, settings });
    await d.start();
    db.down = true;
    await clock.advance(200_000);
    const polls = db.times('GetNodeDaemonState');
    const gaps = polls.slice(1).map((t, i) => t - (polls[i] as number));
    expect(polls[0]).toBe(2000);
    expect(gaps).toEqual([4000, 8000, 16_000, 32_000, 60_000, 60_000]);
    db.down = false;
    const last = polls[polls.length - 1] as number;
    await clock.advance(last + 60_000 - clock.now() + 2000 * 3);
    const after = db.times('GetNodeDaemonState').filter((t) => t > last);
    expect(after.slice(1).map((t, i) => t - (after[i] as number))).toEqual([2000, 2000, 2000]);
    await d.stop();
  });
});

describe('QueuesDaemon', () => {
  function queues(db: FakeDaemonDb, clock: FakeClock, workers = 4): QueuesDaemon {
    return new QueuesDaemon({
      name: 'queues',
      nodeUuid: NODE,
      db: db as unknown as QueuesDb,
      clock,
      log,
      settings: daemonSettings({}, { queueWorkers: workers, dequeueBatch: workers }),
    });
  }

  it('backs off on an empty queue: Dequeue at 0, 0.2, 0.6, 1.4, 3.0, 5.0, 7.0 s', async () => {
    const { clock, db } = setup();
    const d = queues(db, clock).handle('jobs', async () => 'done');
    await d.start();
    await clock.advance(7000);
    expect(db.times('Dequeue')).toEqual([0, 200, 600, 1400, 3000, 5000, 7000]);
    await d.stop();
  });

  it('fetches again at once while batches come back full, then backs off', async () => {
    const { clock, db } = setup();
    db.queue = Array.from({ length: 10 }, (_, i) => ({ id: `i${i}`, queue: 'jobs', payload: '{}' }));
    const d = queues(db, clock).handle('jobs', async () => 'done');
    await d.start();
    await flush(20);
    expect(db.times('Dequeue')).toEqual([0, 0, 0]); // 4 + 4 + 2 (partial)
    await clock.advance(200);
    expect(db.times('Dequeue')).toEqual([0, 0, 0, 200]);
    expect(db.resolved).toHaveLength(10);
    await d.stop();
  });

  it('makes no Dequeue call while the worker pool is full, and fetches when a slot frees', async () => {
    const { clock, db } = setup();
    db.queue = Array.from({ length: 5 }, (_, i) => ({ id: `i${i}`, queue: 'jobs', payload: '{}' }));
    const finish: (() => void)[] = [];
    const d = queues(db, clock, 2).handle('jobs', () => new Promise((r) => finish.push(() => r('done'))));
    await d.start();
    await flush(20);
    expect(db.times('Dequeue')).toEqual([0]);
    await clock.advance(30_000);
    expect(db.times('Dequeue')).toEqual([0]); // saturated for 30 s: no call
    expect(db.times('GetNodeDaemonState')).toHaveLength(15); // still noticing operator stops
    finish.shift()?.();
    await flush(20);
    expect(db.times('Dequeue')).toEqual([0, 30_000]);
    expect(db.times('Resolve')).toEqual([30_000]);
    for (const f of finish.splice(0)) f();
    await d.stop();
  });

  it('renews the claim of a running job every third of its lease', async () => {
    const { clock, db } = setup();
    db.queue = [{ id: 'long', queue: 'jobs', payload: '{}' }];
    let finish: () => void = () => {};
    const d = queues(db, clock).handle('jobs', () => new Promise((r) => (finish = () => r('done'))));
    await d.start();
    await clock.advance(70_000);
    expect(db.times('RenewClaim')).toEqual([20_000, 40_000, 60_000]);
    finish();
    await flush(20);
    expect(db.resolved).toEqual(['long']);
    await d.stop();
  });
});

describe('ClusterDaemon', () => {
  it('runs maintenance only when elected, on its intervals, and still notices an operator stop', async () => {
    const { clock, db } = setup();
    const d = new ClusterDaemon({ name: 'cluster', nodeUuid: NODE, db: db as unknown as ClusterDb, clock, log, settings });
    await d.start();
    await flush(20);
    expect(d.isElected()).toBe(true);
    await clock.advance(61_000);
    expect(db.times('RequeueExpiredClaims')).toEqual([0, 30_000, 60_000]);
    expect(db.times('SweepReplicaRegistry')).toEqual([0, 30_000, 60_000]);
    expect(db.times('PruneEvents')).toEqual([0]);
    expect(db.times('RenewLease')).toEqual([10_000, 20_000, 30_000, 40_000, 50_000, 60_000]);
    db.daemonState = 'STOPPING';
    await clock.advance(2000);
    expect(await d.done).toBe('operator');
    expect(db.times('ReleaseLease')).toHaveLength(1);
  });

  it('starts no further job of a step once its keeper lost the lease during one (requireFence per job)', async () => {
    const { clock, db } = setup();
    let open = (): void => undefined;
    db.requeueGate = new Promise<void>((resolve) => (open = resolve));
    const d = new ClusterDaemon({ name: 'cluster', nodeUuid: NODE, db: db as unknown as ClusterDb, clock, log, settings });
    await d.start();
    await flush(20);
    expect(db.times('RequeueExpiredClaims')).toEqual([0]);
    // Taken over while the first job runs: the renewal at 10 s is fenced.
    db.leaseHeldByOther = true;
    await clock.advance(10_000);
    expect(d.isElected()).toBe(false);
    open();
    await flush(20);
    expect(db.times('SweepReplicaRegistry')).toEqual([]);
    expect(db.times('PruneChanges')).toEqual([]);
    await d.stop();
  });

  it('stands by without running jobs while another holds the lease, trying every third of the lease', async () => {
    const { clock, db } = setup();
    db.leaseHeldByOther = true;
    const d = new ClusterDaemon({ name: 'cluster', nodeUuid: NODE, db: db as unknown as ClusterDb, clock, log, settings });
    await d.start();
    await clock.advance(60_000);
    expect(db.times('AcquireLease')).toEqual([0, 10_000, 20_000, 30_000, 40_000, 50_000, 60_000]);
    expect(db.times('RequeueExpiredClaims')).toEqual([]);
    await d.stop();
  });
});
