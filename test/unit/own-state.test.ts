// The daemon's own-state watcher (daemons/own-state.ts), with a fake clock, a scripted
// client and a scripted change feed: a change on the daemon's state topic is handled only
// once a read of the state has succeeded — a read that fails, or hangs on a frozen replica,
// never loses the operator stop it was to read — and the daemon's own writes cost no read.
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { NodeDaemonState } from '../../client/index.js';
import { HEDGE_AFTER_MS } from '../../client/hedge.js';
import { OWED_RETRY_BASE_MS } from '../../daemons/own-state.js';
import { DatabaseUnavailable } from '../../client/errors.js';
import { Daemon, daemonRegistry, daemonSettings } from '../../daemons/index.js';
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
    return 600_000;
  }
}

function stateChange(daemon: string, seq: string) {
  return { seq, topic: topics.daemonState(NODE, daemon), objectType: 'daemon_state', id: daemon, kind: 'state' as const };
}

type StateRead = (nodeUuid: string, daemon: string, opts?: { signal?: AbortSignal }) => Promise<NodeDaemonState | undefined>;

/** Replaces the scripted client's state read. */
function replaceRead(db: FakeDaemonDb, read: StateRead): void {
  (db as unknown as { getNodeDaemonState: StateRead }).getNodeDaemonState = read;
}

/** A daemon in feed mode on a scripted feed; its RUNNING publishes change `runningSeq`. */
async function feedDaemon(name: string, runningSeq = '1') {
  const { clock, feed, waiter, handshake } = feedSetup();
  const db = Object.assign(new FakeDaemonDb(clock), { changes: waiter });
  db.changeSeq = runningSeq;
  const d = new IdleDaemon({ name, nodeUuid: NODE, db: db as unknown as DaemonDb, clock, log, settings });
  const starting = d.start();
  await handshake();
  await starting;
  expect(d.snapshot().state).toBe('running');
  return { clock, feed, waiter, db, d };
}

describe('own-state watcher in feed mode', () => {
  it("reads nothing for the daemon's own RUNNING; any other change on its topic is read", async () => {
    const { clock, feed, waiter, db, d } = await feedDaemon('own-write', '41');
    feed.current.answer({ cursor: 'c2', changes: [stateChange('own-write', '41')] });
    await clock.advance(10_000);
    expect(db.times('GetNodeDaemonState')).toEqual([]);
    feed.current.answer({ cursor: 'c3', changes: [stateChange('own-write', '42')] }); // an operator's write, say
    await clock.advance(10);
    expect(db.times('GetNodeDaemonState')).toEqual([10_000]);
    expect(d.snapshot().state).toBe('running');
    await d.stop();
    waiter.close();
  });

  it('a stop whose read fails is read again with backoff until it succeeds, and heard then (the lost stop)', async () => {
    const name = 'lost-stop';
    const { clock, feed, waiter, db, d } = await feedDaemon(name);
    const failuresBefore = metricValue(await daemonRegistry.metrics(), 'database_daemon_state_retries_total', { daemon: name, call: 'read', kind: 'retry' }) ?? 0;
    // The operator's stop arrives on the feed; the read it causes fails (a replica that answers UNAVAILABLE).
    db.daemonState = 'STOPPING';
    db.operatorHold = true;
    db.down = true;
    feed.current.answer({ cursor: 'c2', changes: [stateChange(name, '2')] });
    await clock.advance(3000);
    expect(d.snapshot().state).toBe('running');
    const failed = db.times('GetNodeDaemonState');
    expect(failed.length).toBeGreaterThanOrEqual(3); // tried again, not forgotten
    // Backed off: none closer than the floor, none further apart than the poll interval.
    const gaps = failed.slice(1).map((t, i) => t - (failed[i] as number));
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(50);
    for (const gap of gaps) expect(gap).toBeLessThanOrEqual(settings.daemonStatePollMs);
    db.down = false; // a live replica answers
    const back = clock.now();
    await clock.advance(settings.daemonStatePollMs);
    expect(await d.done).toBe('operator');
    const heardAt = db.times('GetNodeDaemonState').at(-1) as number;
    expect(heardAt - back).toBeLessThanOrEqual(settings.daemonStatePollMs);
    const retries = metricValue(await daemonRegistry.metrics(), 'database_daemon_state_retries_total', { daemon: name, call: 'read', kind: 'retry' }) ?? 0;
    expect(retries - failuresBefore).toBe(failed.length);
    waiter.close();
  });

  it('a read that hangs (a frozen replica) is hedged after 250 ms, and the stop is heard from the second', async () => {
    const name = 'hung-read';
    const { clock, feed, waiter, db, d } = await feedDaemon(name);
    const read = db.getNodeDaemonState.bind(db);
    let calls = 0;
    const cancelled: boolean[] = [];
    replaceRead(db, (nodeUuid, daemon, opts) => {
      calls += 1;
      if (calls > 1) return read(nodeUuid, daemon);
      // The first read waits on a frozen replica until it is cancelled.
      return new Promise((_, reject) => opts?.signal?.addEventListener('abort', () => (cancelled.push(true), reject(new Error('cancelled'))), { once: true }));
    });
    db.daemonState = 'STOPPING';
    db.operatorHold = true;
    const at = clock.now();
    feed.current.answer({ cursor: 'c2', changes: [stateChange(name, '2')] });
    await clock.advance(HEDGE_AFTER_MS - 1);
    expect(d.snapshot().state).toBe('running');
    await clock.advance(1);
    expect(await d.done).toBe('operator');
    expect(clock.now() - at).toBe(HEDGE_AFTER_MS);
    expect(calls).toBe(2);
    expect(cancelled).toEqual([true]);
    waiter.close();
  });

  it('a change that arrives while a read is in flight is read again after it', async () => {
    const name = 'during-read';
    const { clock, feed, waiter, db, d } = await feedDaemon(name);
    const read = db.getNodeDaemonState.bind(db);
    let release: (() => void) | undefined;
    let first = true;
    replaceRead(db, async (nodeUuid, daemon) => {
      const row = await read(nodeUuid, daemon); // the row as it was when the read was served
      if (first) {
        first = false;
        await new Promise<void>((r) => (release = r));
      }
      return row;
    });
    feed.current.answer({ cursor: 'c2', changes: [stateChange(name, '2')] }); // not a stop
    await clock.advance(10);
    db.daemonState = 'STOPPING'; // the stop lands while that read is out
    db.operatorHold = true;
    feed.current.answer({ cursor: 'c3', changes: [stateChange(name, '3')] });
    await flush();
    release?.();
    await clock.advance(10);
    expect(await d.done).toBe('operator');
    expect(db.times('GetNodeDaemonState')).toHaveLength(2);
    waiter.close();
  });
});

describe('own-state watcher polling', () => {
  it('a poll that hung until its deadline is followed 100 ms later: the doubled interval counts from its start', async () => {
    const clock = new FakeClock();
    const db = new FakeDaemonDb(clock);
    const d = new IdleDaemon({ name: 'hung-poll', nodeUuid: NODE, db: db as unknown as DaemonDb, clock, log, settings });
    await d.start();
    const read = db.getNodeDaemonState.bind(db);
    let hang = true;
    replaceRead(db, (nodeUuid, daemon, opts) => {
      if (!hang) return read(nodeUuid, daemon);
      // Every call (the first and its hedges) waits on a silent replica until its deadline.
      db.calls.push({ op: 'GetNodeDaemonState', at: clock.now() });
      return new Promise((_, reject) => {
        const timer = new AbortController();
        opts?.signal?.addEventListener('abort', () => (timer.abort(), reject(new Error('cancelled'))), { once: true });
        void clock.sleep(5000, timer.signal).then(() => timer.signal.aborted || reject(new DatabaseUnavailable('deadline', 4, 'GetNodeDaemonState')));
      });
    });
    const firstPoll = settings.daemonStatePollMs;
    await clock.advance(firstPoll + 3 * HEDGE_AFTER_MS);
    expect(db.times('GetNodeDaemonState')).toEqual([firstPoll, firstPoll + HEDGE_AFTER_MS, firstPoll + 3 * HEDGE_AFTER_MS]);
    hang = false;
    db.daemonState = 'STOPPING';
    db.operatorHold = true;
    // The last hedge's deadline ends the read, 5.5 s after it began: past the doubled
    // interval (4 s), so the next poll follows 100 ms later.
    const failedAt = firstPoll + 3 * HEDGE_AFTER_MS + 5000;
    await clock.advance(failedAt - clock.now() + OWED_RETRY_BASE_MS - 1);
    expect(d.snapshot().state).toBe('running');
    await clock.advance(1);
    expect(await d.done).toBe('operator');
    expect(db.times('GetNodeDaemonState').at(-1)).toBe(failedAt + OWED_RETRY_BASE_MS);
  });
});

describe('the STOPPED report', () => {
  it('is retried with backoff while the tier cannot answer, within the stop report budget', async () => {
    const { clock, waiter, db, d } = await feedDaemon('report-retry');
    db.down = true;
    const stopping = d.stop();
    await clock.advance(3000);
    expect(db.daemonState).toBe('RUNNING');
    db.down = false;
    await clock.advance(1000);
    expect(await stopping).toBe('requested');
    expect(db.daemonState).toBe('STOPPED');
    const tries = db.times('SetNodeDaemonState:STOPPED');
    expect(tries.length).toBeGreaterThanOrEqual(3);
    waiter.close();
  });

  it('gives up once the budget is spent (the process can still exit), having tried until then', async () => {
    const { clock, waiter, db, d } = await feedDaemon('report-budget');
    db.down = true;
    const start = clock.now();
    const stopping = d.stop();
    await clock.advance(settings.stopReportMs + 2000);
    expect(await stopping).toBe('requested');
    const tries = db.times('SetNodeDaemonState:STOPPED');
    expect(tries.length).toBeGreaterThanOrEqual(5);
    expect((tries.at(-1) as number) - start).toBeGreaterThan(settings.stopReportMs - 1000);
    expect((tries.at(-1) as number) - start).toBeLessThanOrEqual(settings.stopReportMs);
    waiter.close();
  });
});
