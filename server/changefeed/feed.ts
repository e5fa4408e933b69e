// A replica's change feed (docs/change-feed.md). Writers append change rows in their transaction
// (write()); after COMMIT the replica adds them to its window, wakes its own waiters at
// once and pokes its live peers, which read the new rows themselves. A tail on a fixed
// interval (cost: one read per replica per interval, whatever the number of waiters) is
// the safety net for lost pokes and closes sequence gaps. WaitForChanges and
// GetChangesSince are served from the window, never from a query per waiter; a
// WaitForChanges with nothing to hear yet is held by long-polls.ts.
import type { Context, SpanContext } from '@opentelemetry/api';
import { idHash } from '@sfdb/proto/interest';
import { systemClock } from '@sfdb/proto/runtime/clock';
import type { Clock } from '@sfdb/proto/runtime/clock';
import type { Config } from '../config.js';
import type { Database } from '../db/pool.js';
import type { Sql } from '../db/sql.js';
import { PermissionDeniedError, UnavailableError } from '../errors.js';
import type { Logger } from '@sfdb/proto/runtime/log';
import type { Metrics } from '../metrics.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import type { Cursor } from './cursor.js';
import { closeDueGaps } from './gaps.js';
import { PeerProbe } from './peer-probe.js';
import type { ReplicaHealth } from './peer-probe.js';
import { Peers } from './peers.js';
import type { Publish } from './publish.js';
import * as q from './queries.js';
import type { ChangeRow, CommittedChange, StoredChange } from './queries.js';
import { LongPolls } from './long-polls.js';
import { sampledWriter } from './writer-links.js';
import { wakes } from './waiters.js';
import type { Interest } from './waiters.js';
import { ChangeWindow, answerOf } from './window.js';
import type { FeedAnswer, WindowEntry } from './window.js';

/** Rows per tail read; a full read reads again at once. */
const TAIL_BATCH = 1000;
/** Changes in one WaitForChanges answer (distinct topic and id). */
const WAIT_LIMIT = 1000;
export type { FeedAnswer } from './window.js';

export class ChangeFeed {
  private window: ChangeWindow | undefined;
  private readonly polls: LongPolls;
  private readonly peers: Peers;
  /** Which peers stopped answering, for WatchReplicas (peer-probe.ts). */
  private readonly probe: PeerProbe;
  private readonly changefeedSql: Sql;
  private draining = false;
  private readonly abort = new AbortController();
  private loop: Promise<void> | undefined;
  private tailing: Promise<void> | undefined;
  private tailAgain = false;
  private ownerToken = '';
  /** Topics poked since the last tail while no waiter here waited on them: a waiter that arrives on one reads first. */
  private readonly unreadPokes = new Set<string>();
  /** The last tail could not read the table: a cursor above the window may be this database's after all. */
  private tailFailed = false;

  constructor(
    private readonly db: Database,
    private readonly config: Config,
    private readonly metrics: Metrics,
    private readonly log: Logger,
    private readonly clock: Clock = systemClock,
  ) {
    this.changefeedSql = db.sql('changefeed');
    this.polls = new LongPolls(metrics, config.changefeedMaxWaiters, (cursor, topics) => this.requireWindow().query(cursor, topics, WAIT_LIMIT));
    this.peers = new Peers(
      db.sql('registry'),
      { self: { replicaId: config.replicaId, ownerToken: () => this.ownerToken }, liveMs: config.replicaLiveMs, tls: config.tls, onList: (addresses) => this.probe.setPeers(addresses) },
      metrics,
      log,
      clock,
    );
    this.probe = new PeerProbe(
      { probeMs: config.peerProbeMs, unresponsiveMs: config.peerUnresponsiveMs, forgetMs: config.replicaSweepAfterMs, maxWatchers: config.changefeedMaxWaiters, tls: config.tls },
      metrics,
      log,
      clock,
    );
  }

  /** Loads the window: the newest rows, up to its capacity. Before serving. */
  async load(): Promise<void> {
    const { lo, hi, increment } = await q.selectSeqBounds(this.changefeedSql);
    const high = BigInt(hi);
    let base = high - BigInt(this.config.changefeedWindow);
    if (base < BigInt(lo) - 1n) base = BigInt(lo) - 1n;
    if (base < 0n) base = 0n;
    const rows = high > base ? await q.selectAfter(this.changefeedSql, String(base), this.config.changefeedWindow) : [];
    this.window = new ChangeWindow(
      { capacity: this.config.changefeedWindow, gapTimeoutMs: this.config.changefeedGapTimeoutMs, increment },
      { base, high, rows, now: this.clock.now() },
    );
    this.updateGauges();
  }

  /**
   * Starts the tail and the peer refresh, once this replica is registered (its pokes carry
   * its owner token). Periodic work, declared for the load tools:
   *   changefeed_tail   every changefeedTailMs: rows past this replica's high mark (and
   *                     the open gaps, when there are any) — wakes waiters whose poke was
   *                     lost, fills sequence gaps; when gaps older than changefeedGapCloseMs
   *                     remain, one tombstone INSERT closes them (more only while an open
   *                     transaction holds one: see closeDueGaps);
   *   registry_peers    every replicaLiveMs: the live replicas to poke after commits, and
   *                     to probe. A new peer is known sooner, without a periodic read: it
   *                     announces itself once registered, and an announcement or a poke
   *                     from an unknown replica makes this one read them at once, at most
   *                     once a second (peers.ts). The probe itself (every peerProbeMs, a
   *                     health Check of each peer) is no statement: peer-probe.ts.
   */
  async start(ownerToken: string): Promise<void> {
    if (!this.window) await this.load();
    this.ownerToken = ownerToken;
    this.metrics.declarePeriodicTask('changefeed_tail', 'changefeed', this.config.changefeedTailMs, 'wake waiters on changes a lost poke did not announce; fill and close sequence gaps');
    if (this.config.changefeedPokes) {
      this.metrics.declarePeriodicTask('registry_peers', 'registry', this.config.replicaLiveMs, 'know the live peers to poke after a commit and to probe');
      await this.refreshPeers();
      this.probe.start();
      // Not awaited: a peer that does not answer must not hold the start (retries are bounded).
      void this.peers.announceSelf();
    }
    this.loop = this.run();
  }

  /**
   * This replica's registry row is live again after a gap longer than the live window (a
   * freeze, an outage of MariaDB): its peers may have dropped it, and it may have missed
   * peers that started meanwhile. It reads the registry and announces itself again.
   */
  async rejoined(): Promise<void> {
    if (!this.loop || !this.config.changefeedPokes || this.draining) return;
    await this.refreshPeers();
    await this.peers.announceSelf();
  }

  private async run(): Promise<void> {
    const signal = this.abort.signal;
    let nextTail = this.clock.now() + this.config.changefeedTailMs;
    let nextPeers = this.clock.now() + this.config.replicaLiveMs;
    while (!signal.aborted) {
      const now = this.clock.now();
      const wake = this.config.changefeedPokes ? Math.min(nextTail, nextPeers) : nextTail;
      await this.clock.sleep(Math.max(0, wake - now), signal);
      if (signal.aborted) break;
      if (this.clock.now() >= nextTail) {
        nextTail = this.clock.now() + this.config.changefeedTailMs;
        await this.tail();
      }
      if (this.config.changefeedPokes && this.clock.now() >= nextPeers) {
        nextPeers = this.clock.now() + this.config.replicaLiveMs;
        await this.refreshPeers();
      }
    }
  }

  /**
   * The Write of CallContext: a transaction whose published changes reach the feed. `writer`:
   * the writing call's trace context (or a batch's); when its span is sampled the changes
   * keep it in the window, and a wake-up they answer links to it (writer-links.ts).
   */
  async write<T>(sql: Sql, fn: (tx: Sql, publish: Publish) => Promise<T>, writer?: Context): Promise<T> {
    let stored: CommittedChange[] = [];
    const result = await sql.transaction(async (tx) => {
      const pending: ChangeRow[] = [];
      // This attempt's rows as stored (a rerun starts afresh; its handles read its own).
      const attempt: { stored: CommittedChange[] } = { stored: [] };
      const value = await fn(tx, (...changes) => {
        const from = pending.length;
        pending.push(...changes);
        return { seqOn: (topic) => attempt.stored.slice(from, from + changes.length).find((c) => c.topic === topic)?.seq };
      });
      // Last statement before COMMIT: the seq is allocated as late as possible, so the
      // window in which a later seq can commit first is one round trip.
      attempt.stored = await q.appendChanges(tx, pending);
      stored = attempt.stored;
      return value;
    });
    if (stored.length > 0) this.committed(stored, writer === undefined ? undefined : sampledWriter(writer));
    return result;
  }

  /** This replica committed `changes` (by `writer`'s sampled span, if any): its waiters wake now, its peers are poked. */
  committed(changes: readonly StoredChange[], writer?: SpanContext): void {
    const window = this.window;
    if (!window) return;
    const added = window.add(changes, this.clock.now(), writer);
    this.metrics.feedChanges.labels('commit').inc(added.length);
    this.wake(added);
    if (this.config.changefeedPokes) this.peers.poke(changes);
  }

  /**
   * A peer committed `seqs` on `topics`: read them now when a waiter here waits on one of
   * those topics and they are not known already. Otherwise the periodic tail reads them
   * (a waiter arriving later with a cursor past them makes its own read first).
   */
  async poked(replicaId: string, ownerToken: string, topics: readonly string[], seqs: readonly string[]): Promise<void> {
    const live = await this.peers.isLivePeer(replicaId, ownerToken).catch((err: unknown) => {
      this.metrics.feedPokes.labels('received', 'error').inc();
      throw err;
    });
    if (!live) {
      this.metrics.feedPokes.labels('received', 'refused').inc();
      throw new PermissionDeniedError('pokes are accepted only from a live registered replica');
    }
    this.metrics.feedPokes.labels('received', 'ok').inc();
    const window = this.window;
    if (!window) return;
    if (!this.polls.waitsOn(topics)) {
      for (const t of topics) this.unreadPokes.add(t);
      if (this.unreadPokes.size > 10_000) void this.tail();
      return;
    }
    const gaps = new Set(window.openGaps());
    if (seqs.some((s) => BigInt(s) > window.highSeq || gaps.has(BigInt(s)))) void this.tail();
  }

  /**
   * Reads what committed since the last read: rows past the high mark, and the open gaps.
   * Coalesced: a call while one runs makes one more run after it, shared by all callers.
   */
  tail(): Promise<void> {
    if (this.tailing) {
      this.tailAgain = true;
      return this.tailing;
    }
    this.tailing = (async () => {
      try {
        do {
          this.tailAgain = false;
          await this.tailOnce();
        } while (this.tailAgain && !this.abort.signal.aborted);
      } finally {
        this.tailing = undefined;
      }
    })();
    return this.tailing;
  }

  private async tailOnce(): Promise<void> {
    const window = this.window;
    if (!window) return;
    // Everything committed by now is read below: pokes received so far are covered.
    this.unreadPokes.clear();
    try {
      for (;;) {
        const gaps = window.openGaps().slice(0, TAIL_BATCH).map(String);
        const [rows, fills] = await Promise.all([
          q.selectAfter(this.changefeedSql, String(window.highSeq), TAIL_BATCH),
          gaps.length > 0 ? q.selectSeqs(this.changefeedSql, gaps) : Promise.resolve([]),
        ]);
        const now = this.clock.now();
        const added = window.add([...fills, ...rows], now);
        this.metrics.feedChanges.labels('tail').inc(added.length);
        added.push(...(await this.closeGaps(window, now)));
        this.metrics.feedGapsSkipped.inc(window.expireGaps(now));
        const before = window.gapsSkipped;
        window.trim();
        this.metrics.feedGapsSkipped.inc(window.gapsSkipped - before);
        this.wake(added);
        if (rows.length < TAIL_BATCH) break;
      }
      this.tailFailed = false;
    } catch (err) {
      this.tailFailed = true;
      this.log.debug({ err: (err as Error).message }, 'change feed: tail failed; next interval tries again');
    }
    this.updateGauges();
  }

  /** Closes the gaps open longer than changefeedGapCloseMs (see closeDueGaps); answers rows that filled some. */
  private async closeGaps(window: ChangeWindow, now: number): Promise<WindowEntry[]> {
    try {
      const r = await closeDueGaps(window, this.changefeedSql, { minAgeMs: this.config.changefeedGapCloseMs, batch: TAIL_BATCH, now });
      this.metrics.feedGapsClosed.inc(r.closed);
      this.metrics.feedChanges.labels('tail').inc(r.added.length);
      return r.added;
    } catch (err) {
      // The rows this tail read still wake their waiters; tombstones written before the
      // failure are read by the next tail's gap read.
      this.log.debug({ err: (err as Error).message }, 'change feed: closing gaps failed; next interval tries again');
      return [];
    }
  }

  /** Answers every waiter one of `entries` wakes: in memory, never a statement. */
  private wake(entries: readonly WindowEntry[]): void {
    this.polls.wake(entries);
    this.updateGauges();
  }

  /**
   * WaitForChanges: answers at once when something past the cursor wakes it (every change
   * on its topics, but those `interest` narrows and does not hold, and reports on the
   * topics it keeps quiet), else holds. An answer always carries every change past the
   * cursor on `topics`.
   */
  async wait(topics: ReadonlySet<string>, cursorText: string, timeoutMs: number, signal: AbortSignal, interest?: Interest): Promise<FeedAnswer> {
    const window = this.requireWindow();
    const cursor = decodeCursor('cursor', cursorText);
    if (cursor === undefined || this.draining) {
      if (this.draining) this.metrics.countWait('drain');
      return { changes: [], cursor: encodeCursor(cursor ?? window.cursor()), resync: false, more: false };
    }
    // A cursor from a replica ahead of this one, or a topic a peer poked about that this
    // replica has not read yet: read before answering.
    if (cursor.high > window.highSeq || [...topics].some((t) => this.unreadPokes.has(t))) await this.tail();
    this.refuseUnread(cursor, window);
    // A cursor still above everything committed answers resync (see ChangeWindow.query).
    const now = window.query(cursor, topics, WAIT_LIMIT);
    const wakesNow = (c: WindowEntry): boolean => wakes(interest, c.topic, now.reportsOverOthers.has(c) ? 'state' : c.kind, () => idHash(c.objectId));
    if (now.resync || now.changes.some(wakesNow)) {
      this.metrics.countWait(now.resync ? 'resync' : 'changes');
      return answerOf(now);
    }
    // Changes it does not hold stay past the cursor it holds with: they are in its answer.
    return this.polls.hold(topics, now.changes.length > 0 ? cursor : now.next, timeoutMs, signal, interest);
  }

  /** The topics starting with `prefix` a waiter of this replica holds now (in memory). */
  waitedTopics(prefix: string): string[] {
    return this.polls.topicsStartingWith(prefix);
  }

  /** GetChangesSince: what is past the cursor, at most `limit` (topic, id) pairs, without waiting. */
  async since(cursorText: string, topics: ReadonlySet<string>, limit: number): Promise<FeedAnswer> {
    const window = this.requireWindow();
    const cursor = decodeCursor('cursor', cursorText);
    if (cursor === undefined) return { changes: [], cursor: encodeCursor(window.cursor()), resync: false, more: false };
    if (cursor.high > window.highSeq) await this.tail();
    this.refuseUnread(cursor, window);
    return answerOf(window.query(cursor, topics, limit));
  }

  /**
   * A cursor above this replica's high mark after a tail that failed: whether it is of
   * this database's history is not known (the rows may be there, unread), so the call
   * fails UNAVAILABLE (the client retries) rather than answer a resync it may not need.
   */
  private refuseUnread(cursor: Cursor, window: ChangeWindow): void {
    if (cursor.high > window.highSeq && this.tailFailed) {
      throw new UnavailableError('the change feed cannot read the database now: the cursor is past what this replica has read');
    }
  }

  /** A peer announced itself (an empty PokeChanges): it is poked and probed from now on (peers.ts). */
  announced(replicaId: string, ownerToken: string): Promise<void> {
    return this.peers.announced(replicaId, ownerToken);
  }

  /** Re-reads the live peers now, and probes those (tests; the loop does it every replicaLiveMs). */
  async refreshPeers(): Promise<void> {
    await this.peers.refresh();
  }

  /** WatchReplicas: the peers that stopped answering this replica, once they differ from `known`. */
  watchReplicas(known: string, timeoutMs: number, signal: AbortSignal): Promise<ReplicaHealth> {
    return this.draining ? Promise.resolve(this.probe.current) : this.probe.watch(known, timeoutMs, signal);
  }

  /** Drain: every waiter is answered at once (so it asks another replica); new waits answer at once. */
  drain(): void {
    this.draining = true;
    this.polls.drain();
    this.probe.stop();
  }

  async stop(): Promise<void> {
    this.drain();
    this.abort.abort();
    await this.loop;
    await this.tailing;
    this.peers.close();
  }

  snapshot(): { waiters: number; peers: number; high: string; base: string; window: number; gaps: number; gapsSkipped: number } {
    const w = this.window;
    return {
      waiters: this.polls.size,
      peers: this.peers.count,
      high: String(w?.highSeq ?? 0n),
      base: String(w?.baseSeq ?? 0n),
      window: w?.size ?? 0,
      gaps: w?.openGaps().length ?? 0,
      gapsSkipped: w?.gapsSkipped ?? 0,
    };
  }

  private requireWindow(): ChangeWindow {
    if (!this.window) throw new Error('the change feed is not started');
    return this.window;
  }

  private updateGauges(): void {
    if (!this.window) return;
    this.metrics.feedWindow.set(this.window.size);
    this.metrics.feedHighSeq.set(Number(this.window.highSeq));
    this.metrics.feedGapsHeld.set(this.window.heldCount);
  }
}
