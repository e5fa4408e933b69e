// The connection guard's decisions, on fake sessions and the fake clock: a connection
// where a header block began that never became a call is pinged; one that answers stays
// (and is not pinged again for that block), one that does not is destroyed, counted and
// logged once per peer. A connection quiet for the idle bound (no new call) is pinged too,
// and given as long to answer: nghttp2 gives up on a refused frame without a header block.
// The real HTTP/2 cases are test/integration/oversized-metadata.test.ts.
import { EventEmitter } from 'node:events';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ConnectionGuard } from '../../server/grpc/connections.js';
import { createLogger } from '../../proto/runtime/log.js';
import { Metrics } from '../../server/metrics.js';
import { FakeClock, flush } from '../helpers/fake-clock.js';
import { metricValue } from '../../harness/scrape.js';

class FakeSession extends EventEmitter {
  destroyed = false;
  closed = false;
  lastProcStreamID = 0;
  pings: ((err: Error | null) => void)[] = [];
  readonly socket = { remoteAddress: '192.0.2.7' };

  get state(): { lastProcStreamID: number } {
    return { lastProcStreamID: this.lastProcStreamID };
  }

  ping(callback: (err: Error | null) => void): boolean {
    if (this.destroyed) throw new Error('ERR_HTTP2_INVALID_SESSION');
    this.pings.push(callback);
    return true;
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    for (const p of this.pings.splice(0)) p(new Error('ping cancelled'));
    this.emit('close');
  }

  /** A header block arrived and became a call. */
  call(id: number): void {
    this.lastProcStreamID = id;
    this.emit('stream', { id });
  }
}

function setup(): { guard: ConnectionGuard; clock: FakeClock; metrics: Metrics; lines: string[] } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const clock = new FakeClock();
  const metrics = new Metrics('guard-test');
  const guard = new ConnectionGuard({ log: createLogger('warn', {}, sink), metrics, clock, timing: { sweepMs: 1000, pingTimeoutMs: 2000, idleProbeMs: 10_000 } });
  return { guard, clock, metrics, lines };
}

const stalled = async (metrics: Metrics): Promise<number> =>
  metricValue(await metrics.registry.metrics(), 'database_grpc_connections_closed_total', { reason: 'stalled' });

describe('connection guard', () => {
  it('leaves alone a connection whose every header block became a call', async () => {
    const { guard, clock } = setup();
    const s = new FakeSession();
    guard.watch(s);
    s.call(1);
    s.call(3);
    guard.sweep();
    await clock.advance(5000);
    expect(s.pings).toHaveLength(0);
    expect(s.destroyed).toBe(false);
    expect(guard.open).toBe(1);
  });

  it('pings a connection where a header block never became a call; one that answers stays and is not asked again', async () => {
    const { guard, clock, metrics } = setup();
    const s = new FakeSession();
    guard.watch(s);
    s.call(1);
    s.lastProcStreamID = 3; // reset by Node (over the header-list limit), never a call
    guard.sweep();
    expect(s.pings).toHaveLength(1);
    guard.sweep(); // one probe at a time
    expect(s.pings).toHaveLength(1);
    s.pings.shift()?.(null);
    await clock.advance(5000);
    expect(s.destroyed).toBe(false);
    guard.sweep();
    expect(s.pings).toHaveLength(0);
    // The next call on it is seen as usual.
    s.call(5);
    guard.sweep();
    expect(s.pings).toHaveLength(0);
    expect(await stalled(metrics)).toBe(0);
  });

  it('destroys a suspect connection that does not answer within the ping timeout, counted, logged once per peer', async () => {
    const { guard, clock, metrics, lines } = setup();
    const [a, b] = [new FakeSession(), new FakeSession()];
    for (const s of [a, b]) {
      guard.watch(s);
      s.lastProcStreamID = 1; // its first header block could not be decoded
    }
    guard.sweep();
    await clock.advance(1999);
    expect(a.destroyed || b.destroyed).toBe(false);
    await clock.advance(1);
    expect(a.destroyed && b.destroyed).toBe(true);
    await flush();
    expect(guard.open).toBe(0);
    expect(await stalled(metrics)).toBe(2);
    expect(lines.filter((l) => l.includes('given up on'))).toHaveLength(1);
    expect(lines[0]).toContain('192.0.2.7');
  });

  it('pings a connection quiet for the idle bound: one that answers stays, one that does not is destroyed after as long again', async () => {
    const { guard, clock, metrics } = setup();
    const [busy, quiet, dead] = [new FakeSession(), new FakeSession(), new FakeSession()];
    for (const s of [busy, quiet, dead]) guard.watch(s);
    await clock.advance(9_999);
    busy.call(1);
    guard.sweep();
    expect([busy.pings.length, quiet.pings.length, dead.pings.length]).toEqual([0, 0, 0]);
    await clock.advance(1);
    guard.sweep();
    expect([busy.pings.length, quiet.pings.length, dead.pings.length]).toEqual([0, 1, 1]);
    await clock.advance(5_000);
    quiet.pings.shift()?.(null);
    await clock.advance(4_999);
    expect(dead.destroyed).toBe(false);
    await clock.advance(1);
    expect(dead.destroyed).toBe(true);
    expect(quiet.destroyed || busy.destroyed).toBe(false);
    expect(await stalled(metrics)).toBe(1);
    // The answered one is asked again only after another quiet bound; the busy one's bound runs from its call.
    guard.sweep();
    expect([busy.pings.length, quiet.pings.length]).toEqual([1, 0]);
    await clock.advance(5_000);
    guard.sweep();
    expect(quiet.pings).toHaveLength(1);
  });

  it("pings no connection whose client pings it (its keepalive shows the connection is read)", async () => {
    const { guard, clock } = setup();
    const s = new FakeSession();
    guard.watch(s);
    for (let t = 0; t < 5; t++) {
      await clock.advance(9_000);
      s.emit('ping');
      guard.sweep();
    }
    expect(s.pings).toHaveLength(0);
    await clock.advance(10_000);
    guard.sweep();
    expect(s.pings).toHaveLength(1);
  });

  it('skips closing connections, and stops its timers on stop()', async () => {
    const { guard, clock } = setup();
    const closing = new FakeSession();
    guard.watch(closing);
    closing.lastProcStreamID = 1;
    closing.closed = true;
    guard.sweep();
    expect(closing.pings).toHaveLength(0);

    const s = new FakeSession();
    guard.watch(s);
    s.lastProcStreamID = 1;
    guard.sweep();
    guard.stop();
    await clock.advance(5000);
    expect(s.destroyed).toBe(false);
  });
});
