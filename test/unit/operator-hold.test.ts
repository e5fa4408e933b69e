// A daemon started while an operator holds it stopped, with a fake clock and a scripted
// client: it does not run, says so, and runs once released; a stop ends its wait. Polling,
// it reads its state at the daemon-state poll's cadence and no faster; on the change feed,
// only when its state topic changes (and again at the poll's cadence after a failed read).
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { Daemon, HELD_MESSAGE, daemonRegistry, daemonSettings } from '../../daemons/index.js';
import type { DaemonDb } from '../../daemons/index.js';
import { topics } from '../../proto/topics.js';
import { FakeClock, flush } from '../helpers/fake-clock.js';
import { FakeDaemonDb } from '../helpers/fake-daemon-db.js';
import { setup as feedSetup } from '../helpers/fake-feed.js';
import { metricValue } from '../../harness/scrape.js';

const NODE = '00000000-0000-4000-8000-000000000001';
const log = pino({ level: 'silent' });
const settings = daemonSettings({});

class IdleDaemon extends Daemon {
  protected async step(): Promise<number> {
    return 60_000;
  }
}

async function held(name: string) {
  const clock = new FakeClock();
  const db = new FakeDaemonDb(clock);
  db.operatorHold = true;
  db.daemonState = 'STOPPED';
  const events: boolean[] = [];
  const d = new IdleDaemon({ name, nodeUuid: NODE, db: db as unknown as DaemonDb, clock, log, settings, hooks: { operatorHold: (h) => events.push(h) } });
  let started = false;
  const starting = d.start().then(() => (started = true));
  await flush();
  const gauge = async (): Promise<number> => metricValue(await daemonRegistry.metrics(), 'database_daemon_operator_hold', { daemon: name });
  return { clock, db, d, events, starting, gauge, started: () => started };
}

describe('operator hold', () => {
  it('a daemon started while held does not run; it reads its state every poll interval and runs once released', async () => {
    const { clock, db, d, events, starting, gauge, started } = await held('held-a');
    expect(d.snapshot().state).toBe('held');
    expect(started()).toBe(false);
    expect(events).toEqual([true]);
    expect(await gauge()).toBe(1);
    // RUNNING tried once and refused; STOPPED recorded, saying a process waits.
    expect(db.times('SetNodeDaemonState:RUNNING')).toEqual([0]);
    expect(db.times('SetNodeDaemonState:STOPPED')).toEqual([0]);
    expect(db.daemonState).toBe('STOPPED');
    expect(db.daemonMessage).toBe(HELD_MESSAGE);

    await clock.advance(10_000);
    // The daemon-state poll's cadence (2 s), no faster; no step ran.
    expect(db.times('GetNodeDaemonState')).toEqual([2000, 4000, 6000, 8000, 10_000]);
    expect(d.snapshot().steps).toBe(0);
    expect(started()).toBe(false);

    db.operatorHold = false; // sf-ctl start-daemon
    db.daemonState = 'STARTING';
    await clock.advance(2000);
    await starting;
    expect(db.times('SetNodeDaemonState:RUNNING')).toEqual([0, 12_000]);
    expect(d.snapshot().state).toBe('running');
    expect(events).toEqual([true, false]);
    expect(await gauge()).toBe(0);
    await d.stop();
  });

  it('a stop while held ends the wait at once: STOPPED recorded, done resolved, start() returns', async () => {
    const { clock, db, d, starting, started } = await held('held-b');
    await clock.advance(3000);
    expect(await d.stop('signal')).toBe('signal');
    await starting;
    expect(started()).toBe(true);
    expect(d.snapshot().state).toBe('stopped');
    expect(db.times('SetNodeDaemonState:STOPPED')).toEqual([0, 3000]);
    expect(db.daemonMessage).toMatch(/^held stopped by an operator; its process ended/);
    expect(db.operatorHold).toBe(true);
    expect(db.times('SetNodeDaemonState:RUNNING')).toEqual([0]);
  });

  it('a running daemon whose state shows an operator hold stops as an operator stop', async () => {
    const clock = new FakeClock();
    const db = new FakeDaemonDb(clock);
    const d = new IdleDaemon({ name: 'held-c', nodeUuid: NODE, db: db as unknown as DaemonDb, clock, log, settings });
    await d.start();
    db.operatorHold = true; // a hold set with STOPPED (no STOPPING read in between)
    db.daemonState = 'STOPPED';
    await clock.advance(2000);
    expect(await d.done).toBe('operator');
  });
});

describe('operator hold in feed mode', () => {
  it('waits on its state topic alone, reads its state only when it changes, and runs on the release', async () => {
    const { clock, feed, waiter, handshake } = feedSetup();
    const db = Object.assign(new FakeDaemonDb(clock), { changes: waiter });
    db.operatorHold = true;
    db.daemonState = 'STOPPED';
    const name = 'held-feed';
    const d = new IdleDaemon({ name, nodeUuid: NODE, db: db as unknown as DaemonDb, clock, log, settings });
    const starting = d.start();
    await handshake();
    expect(d.snapshot().state).toBe('held');
    // The long-poll in flight waits on the daemon's own state topic (its work has none here).
    expect(feed.current.input.topics).toEqual([topics.daemonState(NODE, name)]);
    await clock.advance(60_000);
    expect(db.times('GetNodeDaemonState')).toEqual([]); // no poll while the feed serves

    // A change on its topic that is not the release: one read, still held.
    feed.current.answer({ cursor: 'c2', changes: [stateChange(name, '2')] });
    await clock.advance(10);
    expect(db.times('GetNodeDaemonState')).toEqual([60_000]);
    expect(d.snapshot().state).toBe('held');

    db.operatorHold = false; // sf-ctl start-daemon
    feed.current.answer({ cursor: 'c3', changes: [stateChange(name, '3')] });
    await clock.advance(10);
    await starting;
    expect(db.times('GetNodeDaemonState')).toEqual([60_000, 60_010]);
    expect(d.snapshot().state).toBe('running');
    expect(db.times('SetNodeDaemonState:RUNNING')).toEqual([0, 60_010]);
    await d.stop();
    waiter.close();
  });

  it('a read that fails is tried again with backoff, so a release it missed is not lost', async () => {
    const { clock, feed, waiter, handshake } = feedSetup();
    const db = Object.assign(new FakeDaemonDb(clock), { changes: waiter });
    db.operatorHold = true;
    const name = 'held-feed-retry';
    const d = new IdleDaemon({ name, nodeUuid: NODE, db: db as unknown as DaemonDb, clock, log, settings });
    const starting = d.start();
    await handshake();
    expect(d.snapshot().state).toBe('held');
    // The release's change arrives, but the read it causes fails.
    db.operatorHold = false;
    db.down = true;
    feed.current.answer({ cursor: 'c2', changes: [stateChange(name, '2')] });
    await clock.advance(10);
    expect(d.snapshot().state).toBe('held');
    // The read stays owed: tried again with full-jitter backoff (50..100 ms, then doubling up
    // to the poll interval) until one succeeds.
    await clock.advance(1000);
    const failed = db.times('GetNodeDaemonState');
    expect(failed.length).toBeGreaterThanOrEqual(3);
    expect(d.snapshot().state).toBe('held');
    db.down = false;
    await clock.advance(settings.daemonStatePollMs);
    await starting;
    expect(d.snapshot().state).toBe('running');
    const reads = db.times('GetNodeDaemonState');
    expect(reads.length).toBe(failed.length + 1);
    // No two tries closer than the backoff's floor, none further apart than the poll interval.
    const gaps = reads.slice(1).map((t, i) => t - (reads[i] as number));
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(50);
    for (const gap of gaps) expect(gap).toBeLessThanOrEqual(settings.daemonStatePollMs);
    await d.stop();
    waiter.close();
  });
});

function stateChange(daemon: string, seq: string) {
  return { seq, topic: topics.daemonState(NODE, daemon), objectType: 'daemon_state', id: daemon, kind: 'state' as const };
}
