// ReplicaRegistry on a fake clock with a scripted database: a heartbeat that lands more
// than the live window after the last write that landed was sent says the row may have
// looked dead to the peers (they may have dropped this replica; it announces itself
// again), once per such gap; heartbeats on time, and failed ones, say nothing.
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../proto/runtime/log.js';
import type { Sql, WriteResult } from '../../server/db/sql.js';
import { UnavailableError } from '../../server/errors.js';
import { ReplicaRegistry } from '../../server/registry/registry.js';
import { FakeClock } from '../helpers/fake-clock.js';

const HEARTBEAT_MS = 5_000;
const LIVE_MS = 15_000;

/** How each heartbeat answers: ok (the row is ours), down (database unreachable), or held until released. */
type Beat = 'ok' | 'down' | { release: () => void };

/** A registered replica, heartbeating; `liveAgain` holds the times its row was said live again. */
async function started(): Promise<{ registry: ReplicaRegistry; clock: FakeClock; script: Beat[]; beatsSent: number[]; liveAgain: number[] }> {
  const clock = new FakeClock();
  const script: Beat[] = [];
  const beatsSent: number[] = [];
  const written: WriteResult = { affectedRows: 1, insertId: '0', changedRows: 1, info: '' };
  const sql = {
    rows: () => Promise.resolve([]),
    transaction: <T>(fn: (tx: Sql) => Promise<T>): Promise<T> => fn(sql),
    run: (text: string): Promise<WriteResult> => {
      if (!text.startsWith('UPDATE tier_replicas SET heartbeat_at')) return Promise.resolve(written);
      beatsSent.push(clock.now());
      const beat = script.shift() ?? 'ok';
      if (beat === 'ok') return Promise.resolve(written);
      if (beat === 'down') return Promise.reject(new UnavailableError('database down'));
      return new Promise((resolve) => (beat.release = () => resolve(written)));
    },
  } as unknown as Sql;
  const registry = new ReplicaRegistry(sql, { replicaId: 'r1', address: 'r1:13005', metricsAddress: 'r1:13006', heartbeatMs: HEARTBEAT_MS, liveMs: LIVE_MS }, createLogger('silent'), clock);
  const liveAgain: number[] = [];
  await registry.register();
  registry.start(() => {}, () => liveAgain.push(clock.now()));
  return { registry, clock, script, beatsSent, liveAgain };
}

describe('ReplicaRegistry: live again after a gap', () => {
  it('heartbeats on time say nothing', async () => {
    const { registry, clock, beatsSent, liveAgain } = await started();
    await clock.advance(60_000);
    expect(beatsSent).toHaveLength(12);
    expect(liveAgain).toEqual([]);
    await registry.stop();
  });

  it('a database outage past the live window: said once, by the first heartbeat that lands', async () => {
    const { registry, clock, script, liveAgain } = await started();
    // Beats at 5 s (ok), 10..25 s (down: the row's last write was sent at 5 s), 30 s (ok: 25 s since).
    script.push('ok', 'down', 'down', 'down', 'down');
    await clock.advance(29_999);
    expect(liveAgain).toEqual([]);
    await clock.advance(1);
    expect(liveAgain).toEqual([30_000]);
    await clock.advance(30_000);
    expect(liveAgain).toEqual([30_000]);
    await registry.stop();
  });

  it('an outage shorter than the window says nothing', async () => {
    const { registry, clock, script, liveAgain } = await started();
    script.push('ok', 'down'); // the write sent at 5 s lands; the next to land is at 15 s: 10 s later
    await clock.advance(60_000);
    expect(liveAgain).toEqual([]);
    await registry.stop();
  });

  it('a heartbeat held past the window (a freeze, a stalled statement) says so when it lands', async () => {
    const { registry, clock, script, liveAgain } = await started();
    const held: Beat = { release: () => {} };
    script.push('ok', held); // sent at 5 s (lands), then at 10 s (held)
    await clock.advance(25_000);
    held.release();
    await clock.advance(0);
    expect(liveAgain).toEqual([25_000]);
    await registry.stop();
  });
});
