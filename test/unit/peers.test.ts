// Peers on a fake clock, with scripted registry reads and a scripted link to the peers:
// an unknown replica that announces itself is judged by a read that started after it
// arrived (never by one already in flight, whose answer may predate its row), the unknown
// announcers of one second share one read (an unknown poke then is refused without one),
// a read that fails is an outage and not a refusal,
// and the announcement this replica sends is retried with backoff, a bounded number of
// times, a refusal being final.
import * as grpc from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { metricValue } from '../../harness/scrape.js';
import { createLogger } from '../../proto/runtime/log.js';
import type { Sql } from '../../server/db/sql.js';
import { PermissionDeniedError, UnavailableError } from '../../server/errors.js';
import { Metrics } from '../../server/metrics.js';
import type { PeerCallError, PeerLink, PokeRequest } from '../../server/changefeed/peer-link.js';
import { ANNOUNCE_RETRY_MS, Peers } from '../../server/changefeed/peers.js';
import { FakeClock, flush } from '../helpers/fake-clock.js';

const SELF = { replicaId: 'self', ownerToken: 'a0000000-0000-4000-8000-000000000000' };
const replica = (id: string): { replica_id: string; owner_token: string; address: string } => ({
  replica_id: id,
  owner_token: `${id}-token`,
  address: `${id}:13005`,
});

/** Each registry read waits until the test answers it (with rows) or fails it. */
interface Read {
  answer: (rows: object[]) => void;
  fail: (err: Error) => void;
}

/** Records every call to a peer; `answer` decides each one (by peer and attempt). */
class ScriptedLink implements PeerLink {
  readonly calls: { address: string; at: number; request: PokeRequest }[] = [];
  answer: (address: string, attempt: number) => PeerCallError | null = () => null;

  constructor(private readonly clock: FakeClock) {}

  poke(address: string, request: PokeRequest, _deadlineMs: number, done: (err: PeerCallError | null) => void): void {
    const attempt = this.calls.filter((c) => c.address === address).length;
    this.calls.push({ address, at: this.clock.now(), request });
    const err = this.answer(address, attempt);
    queueMicrotask(() => done(err));
  }

  at(address: string): number[] {
    return this.calls.filter((c) => c.address === address).map((c) => c.at);
  }

  forget(): void {}
  close(): void {}
}

function setup(): { peers: Peers; reads: Read[]; link: ScriptedLink; clock: FakeClock; metrics: Metrics; listed: string[][] } {
  const clock = new FakeClock();
  const reads: Read[] = [];
  const sql = {
    rows: () => new Promise<object[]>((answer, fail) => reads.push({ answer, fail })),
  } as unknown as Sql;
  const metrics = new Metrics('peers-test');
  const link = new ScriptedLink(clock);
  const listed: string[][] = [];
  const options = { self: { replicaId: SELF.replicaId, ownerToken: () => SELF.ownerToken }, liveMs: 15_000, onList: (a: string[]) => listed.push(a) };
  const peers = new Peers(sql, options, metrics, createLogger('silent'), clock, link);
  return { peers, reads, link, clock, metrics, listed };
}

const announcements = async (metrics: Metrics, direction: string, outcome: string): Promise<number> =>
  metricValue(await metrics.registry.metrics(), 'database_peer_announcements_total', { direction, outcome });

/** Settles `p` into what it resolved or threw, for assertions on a still-pending promise. */
function track<T>(p: Promise<T>): { settled: boolean; value?: T; error?: unknown } {
  const t: { settled: boolean; value?: T; error?: unknown } = { settled: false };
  p.then(
    (value) => Object.assign(t, { settled: true, value }),
    (error: unknown) => Object.assign(t, { settled: true, error }),
  );
  return t;
}

describe('Peers: announcements received', () => {
  it('judges an unknown announcer by a read that started after it arrived, not by one in flight', async () => {
    const { peers, reads, metrics, listed } = setup();
    const periodic = peers.refresh(); // in flight when the announcement arrives: it may predate the new row
    const heard = track(peers.announced('b', 'b-token'));
    await flush();
    expect(reads).toHaveLength(2);
    reads[0]?.answer([]); // the older read, without b
    await periodic;
    await flush();
    expect(heard.settled).toBe(false);
    reads[1]?.answer([replica('b')]);
    await flush();
    expect(heard).toEqual({ settled: true, value: undefined });
    expect(peers.addresses()).toEqual(['b:13005']);
    expect(listed.at(-1)).toEqual(['b:13005']);
    expect(metricValue(await metrics.registry.metrics(), 'database_peers_known')).toBe(1);
    expect(await announcements(metrics, 'received', 'ok')).toBe(1);
  });

  it('an older read answering last does not undo a newer one', async () => {
    const { peers, reads } = setup();
    void peers.refresh();
    const heard = track(peers.announced('b', 'b-token'));
    await flush();
    reads[1]?.answer([replica('b')]);
    await flush();
    reads[0]?.answer([]);
    await flush();
    expect(heard.settled && heard.error === undefined).toBe(true);
    expect(peers.addresses()).toEqual(['b:13005']);
  });

  it('unknown senders of one second share one read; the next read waits for the second to pass', async () => {
    const { peers, reads, clock, metrics } = setup();
    const first = track(peers.announced('b', 'b-token'));
    await flush();
    expect(reads).toHaveLength(1);
    reads[0]?.answer([replica('b')]);
    await flush();
    expect(first.settled && first.error === undefined).toBe(true);

    await clock.advance(100);
    const c = track(peers.announced('c', 'c-token'));
    await clock.advance(100);
    const d = track(peers.announced('d', 'd-token'));
    const impostor = track(peers.announced('x', 'x-token'));
    // A poke (not an announcement) from an unknown sender meanwhile is refused at once, without a read.
    expect(await peers.isLivePeer('c', 'c-token')).toBe(false);
    await clock.advance(799); // 999 ms after the last read started: none yet
    expect(reads).toHaveLength(1);
    await clock.advance(1);
    expect(reads).toHaveLength(2);
    reads[1]?.answer([replica('b'), replica('c'), replica('d')]);
    await flush();
    expect([c.error, d.error]).toEqual([undefined, undefined]);
    expect(impostor.error).toBeInstanceOf(PermissionDeniedError);
    expect(await peers.isLivePeer('c', 'c-token')).toBe(true);
    expect(peers.addresses().sort()).toEqual(['b:13005', 'c:13005', 'd:13005']);
    expect(await announcements(metrics, 'received', 'ok')).toBe(3);
    expect(await announcements(metrics, 'received', 'refused')).toBe(1);
  });

  it('refuses an announcer the read does not find live, and a known id with another owner token', async () => {
    const { peers, reads, clock, metrics } = setup();
    void peers.refresh();
    reads[0]?.answer([replica('b')]);
    await flush();
    const stranger = track(peers.announced('x', 'x-token'));
    await flush();
    reads[1]?.answer([replica('b')]);
    await flush();
    expect(stranger.error).toBeInstanceOf(PermissionDeniedError);
    await clock.advance(1_000);
    const taken = track(peers.announced('b', 'someone-else'));
    await clock.advance(1);
    reads[2]?.answer([replica('b')]);
    await flush();
    expect(taken.error).toBeInstanceOf(PermissionDeniedError);
    expect(await announcements(metrics, 'received', 'refused')).toBe(2);
  });

  it('a registry that cannot be read is an outage (UNAVAILABLE), not a refusal, and keeps the list', async () => {
    const { peers, reads, metrics } = setup();
    void peers.refresh();
    reads[0]?.answer([replica('b')]);
    await flush();
    const heard = track(peers.announced('c', 'c-token'));
    await flush();
    reads[1]?.fail(new Error('connection lost'));
    await flush();
    expect(heard.error).toBeInstanceOf(UnavailableError);
    expect(peers.addresses()).toEqual(['b:13005']);
    expect(await announcements(metrics, 'received', 'error')).toBe(1);
    expect(await announcements(metrics, 'received', 'refused')).toBe(0);
  });
});

describe('Peers: announcing this replica', () => {
  const unavailable: PeerCallError = { code: grpc.status.UNAVAILABLE, message: 'no connection' };

  async function withPeers(ids: string[]): Promise<ReturnType<typeof setup>> {
    const s = setup();
    void s.peers.refresh();
    s.reads[0]?.answer([replica(SELF.replicaId), ...ids.map(replica)]);
    await flush();
    return s;
  }

  it('sends every live peer an empty poke naming this replica', async () => {
    const { peers, link, metrics } = await withPeers(['b', 'c']);
    await peers.announceSelf();
    expect(link.calls.map((c) => c.address).sort()).toEqual(['b:13005', 'c:13005']);
    for (const c of link.calls) expect(c.request).toEqual({ replicaId: SELF.replicaId, ownerToken: SELF.ownerToken, topics: [], seqs: [] });
    expect(await announcements(metrics, 'sent', 'ok')).toBe(2);
  });

  it('retries an unanswered announcement after each backoff step, then gives up', async () => {
    const { peers, link, clock, metrics } = await withPeers(['b', 'c']);
    link.answer = (address) => (address === 'c:13005' ? unavailable : null);
    const done = track(peers.announceSelf());
    await clock.advance(60_000);
    expect(done.settled).toBe(true);
    expect(link.at('b:13005')).toEqual([0]);
    // Sent at 0, then after 250, 500, 1000 and 2000 ms more.
    const expected = ANNOUNCE_RETRY_MS.reduce<number[]>((at, wait) => [...at, (at.at(-1) as number) + wait], [0]);
    expect(link.at('c:13005')).toEqual(expected);
    expect(await announcements(metrics, 'sent', 'ok')).toBe(1);
    expect(await announcements(metrics, 'sent', 'error')).toBe(ANNOUNCE_RETRY_MS.length + 1);
    expect(await announcements(metrics, 'sent', 'given_up')).toBe(1);
  });

  it('stops retrying once the peer acknowledges', async () => {
    const { peers, link, clock } = await withPeers(['b']);
    link.answer = (_address, attempt) => (attempt < 2 ? unavailable : null);
    const done = track(peers.announceSelf());
    await clock.advance(60_000);
    expect(done.settled).toBe(true);
    expect(link.at('b:13005')).toEqual([0, 250, 750]);
  });

  it('a refusal is final: an older replica that takes no empty poke, or one that finds this replica not live', async () => {
    const { peers, link, clock, metrics } = await withPeers(['old', 'b']);
    link.answer = (address) =>
      address === 'old:13005' ? { code: grpc.status.INVALID_ARGUMENT, message: 'seqs' } : { code: grpc.status.PERMISSION_DENIED, message: 'not live' };
    await Promise.all([peers.announceSelf(), clock.advance(10_000)]);
    expect(link.calls).toHaveLength(2);
    expect(await announcements(metrics, 'sent', 'given_up')).toBe(2);
  });

  it('close() ends the retries', async () => {
    const { peers, link, clock } = await withPeers(['b']);
    link.answer = () => unavailable;
    const done = track(peers.announceSelf());
    await clock.advance(300);
    peers.close();
    await clock.advance(10_000);
    expect(done.settled).toBe(true);
    expect(link.at('b:13005')).toEqual([0, 250]);
  });
});
