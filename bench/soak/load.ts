// The soak's load: an open-loop scheduler issuing the call mix at a steady rate, long-poll
// loops woken by its writes, and a short-lived "daemon" client per load phase (its own
// channel and ChangeWaiter, closed at the next quiet gap, as a restarted daemon would).
// `pause()` stops issuing, cancels the held long-polls, closes the phase client and waits
// until every call of ours has settled: the quiet gap in which the tier should hold
// nothing in flight. `takeInterval()` hands over what the clients saw since the last one.
import { setMaxListeners } from 'node:events';
import { status } from '@grpc/grpc-js';
import { createClient, DatabaseError, DatabaseUnavailable, InvalidArgument, StaticObjectCache, topics } from '../../client/index.js';
import type { DatabaseClient, Subscription } from '../../client/index.js';
import { MAX_TOPICS_PER_WAIT } from '../../proto/topics.js';
import { Samples, percentile } from '../../harness/stats.js';
import { MIX, chooser } from './mix.js';
import type { MixContext, MixEntry } from './mix.js';
import { QUEUE } from './seed.js';
import type { Seeded } from './seed.js';

const CALLERS = ['queues', 'net', 'resources', 'sidechannel', 'transfers', 'cleaner', 'cluster', 'bench'] as const;
const TICK_MS = 10;
const LONG_POLL_MS = 10_000;

/** How each scheduled call ended, by mix entry. */
export interface EntryCounts {
  issued: number;
  /** Normal: succeeded; invalid: INVALID_ARGUMENT; cancel: aborted; deadline: deadline passed. */
  expected: number;
  /** cancel or deadline calls that completed before their abort or deadline. */
  completedFirst: number;
  unexpected: number;
}

/** What the clients saw in one interval. */
export interface IntervalLoad {
  seconds: number;
  scheduled: number;
  /** Not issued: --max-outstanding calls were unanswered. */
  shed: number;
  /** Over normal calls' RPCs (not cached reads, not long-polls), ms. */
  rpcs: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  cachedReads: number;
  cachedP99Ms: number;
  entries: Record<string, EntryCounts>;
  /** "entry: Error CODE message" → count. */
  unexpected: Record<string, number>;
  /** `first`: a loop's first poll (empty cursor: answered at once, no changes). */
  longPolls: { answered: number; first: number; woken: number; timedOut: number; resync: number; errors: number };
  /** The phase client's ChangeWaiter: batches handed to its subscription. */
  daemonWakes: number;
}

export interface LoadSettings {
  targets: string;
  rate: number;
  clients: number;
  waiters: number;
  maxOutstanding: number;
}

function isAbort(err: unknown): boolean {
  return err instanceof Error && err.name === 'AbortError';
}

function describe(err: unknown): string {
  if (err instanceof DatabaseError) return `${err.name} ${err.code}: ${err.message.slice(0, 120)}`;
  return err instanceof Error ? `${err.name}: ${err.message.slice(0, 120)}` : String(err);
}

/** Whether an ending is the one the entry's kind asks for; 'first' = it completed before its abort or deadline. */
function judge(entry: MixEntry, err: unknown): 'expected' | 'first' | 'unexpected' {
  switch (entry.kind) {
    case 'normal':
    case 'cached':
      return err === undefined ? 'expected' : 'unexpected';
    case 'invalid':
      return err instanceof InvalidArgument ? 'expected' : 'unexpected';
    case 'cancel':
      return err === undefined ? 'first' : isAbort(err) ? 'expected' : 'unexpected';
    case 'deadline':
      return err === undefined ? 'first' : err instanceof DatabaseUnavailable && err.code === status.DEADLINE_EXCEEDED ? 'expected' : 'unexpected';
  }
}

class Interval {
  readonly started = performance.now();
  scheduled = 0;
  shed = 0;
  readonly rpc = new Samples();
  readonly cached = new Samples();
  readonly entries: Record<string, EntryCounts> = {};
  readonly unexpected: Record<string, number> = {};
  readonly longPolls = { answered: 0, first: 0, woken: 0, timedOut: 0, resync: 0, errors: 0 };
  daemonWakes = 0;

  entry(name: string): EntryCounts {
    return (this.entries[name] ??= { issued: 0, expected: 0, completedFirst: 0, unexpected: 0 });
  }

  finish(): IntervalLoad {
    const rpc = this.rpc.sorted();
    const cached = this.cached.sorted();
    return {
      seconds: (performance.now() - this.started) / 1000,
      scheduled: this.scheduled,
      shed: this.shed,
      rpcs: rpc.length,
      p50Ms: percentile(rpc, 0.5),
      p99Ms: percentile(rpc, 0.99),
      maxMs: rpc.length > 0 ? (rpc[rpc.length - 1] as number) : Number.NaN,
      cachedReads: cached.length,
      cachedP99Ms: percentile(cached, 0.99),
      entries: this.entries,
      unexpected: this.unexpected,
      longPolls: this.longPolls,
      daemonWakes: this.daemonWakes,
    };
  }
}

export class SoakLoad {
  private readonly clients: DatabaseClient[];
  private readonly cachedClient: DatabaseClient;
  private readonly choose = chooser(MIX);
  private interval = new Interval();
  private readonly pending = new Set<Promise<void>>();
  private outstanding = 0;
  private timer: NodeJS.Timeout | undefined;
  private phase: AbortController | undefined;
  private phaseClient: { db: DatabaseClient; sub: Subscription } | undefined;
  /** Each long-poll loop's cursor, kept across pauses. */
  private readonly cursors: string[];
  private latestCursor = '';
  private readonly ctx: MixContext;

  constructor(
    private readonly settings: LoadSettings,
    private readonly seeded: Seeded,
  ) {
    this.clients = Array.from({ length: settings.clients }, (_, i) =>
      createClient({
        targets: settings.targets,
        callerDaemon: CALLERS[i % CALLERS.length],
        callerNode: seeded.nodes[i % seeded.nodes.length],
        cache: false,
        feed: false,
      }),
    );
    this.cachedClient = createClient({ targets: settings.targets, callerDaemon: 'bench', cache: new StaticObjectCache(), feed: false });
    this.cursors = Array.from({ length: settings.waiters }, () => '');
    this.ctx = {
      clients: this.clients,
      cached: this.cachedClient,
      seeded,
      cursor: () => this.latestCursor,
      time: async (call) => {
        const t0 = performance.now();
        const out = await call();
        this.interval.rpc.add(performance.now() - t0);
        return out;
      },
    };
  }

  /** A cursor to hold long-polls on (asked once, before the first phase). */
  async prime(): Promise<void> {
    this.latestCursor = (await (this.clients[0] as DatabaseClient).waitForChanges({ topics: [topics.clusterConfig()], cursor: '' })).cursor;
  }

  /** Starts (or resumes) a load phase. */
  resume(): void {
    if (this.phase) return;
    const phase = new AbortController();
    // Every long-poll of the phase listens on its signal (one listener each, removed when it ends).
    setMaxListeners(this.settings.waiters + 16, phase.signal);
    this.phase = phase;
    for (let i = 0; i < this.settings.waiters; i++) this.track(this.longPollLoop(i, phase.signal));
    this.track(this.daemonLoop(phase.signal));
    let issued = 0;
    const t0 = performance.now();
    // Open loop: the calls due by now, whatever the earlier ones are doing (up to the cap).
    this.timer = setInterval(() => {
      const due = Math.floor(((performance.now() - t0) / 1000) * this.settings.rate) - issued;
      for (let k = 0; k < due; k++) {
        issued++;
        this.interval.scheduled++;
        if (this.outstanding >= this.settings.maxOutstanding) this.interval.shed++;
        else this.issue(this.choose());
      }
    }, TICK_MS);
  }

  /** Stops issuing, cancels the long-polls, closes the phase client; resolves once every call of ours settled. */
  async pause(timeoutMs = 30_000): Promise<{ settledMs: number; stillPending: number }> {
    const t0 = performance.now();
    clearInterval(this.timer);
    this.timer = undefined;
    this.phase?.abort();
    this.phase = undefined;
    if (this.phaseClient) {
      this.phaseClient.sub.close();
      this.phaseClient.db.close();
      this.phaseClient = undefined;
    }
    const all = Promise.allSettled([...this.pending]);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([all, new Promise((r) => (timer = setTimeout(r, timeoutMs)))]);
    clearTimeout(timer);
    return { settledMs: performance.now() - t0, stillPending: this.pending.size };
  }

  /** What the clients saw since the last call, and a new interval from now. */
  takeInterval(): IntervalLoad {
    const done = this.interval.finish();
    this.interval = new Interval();
    return done;
  }

  close(): void {
    clearInterval(this.timer);
    this.phase?.abort();
    this.phaseClient?.db.close();
    for (const c of [...this.clients, this.cachedClient]) c.close();
  }

  private track(p: Promise<void>): void {
    this.pending.add(p);
    void p.finally(() => this.pending.delete(p));
  }

  private issue(entry: MixEntry): void {
    const counts = this.interval.entry(entry.name);
    counts.issued++;
    this.outstanding++;
    const t0 = performance.now();
    const interval = this.interval;
    const settle = (err: unknown): void => {
      this.outstanding--;
      // A call that began before the interval turned counts where it began.
      const verdict = judge(entry, err);
      if (verdict === 'expected') counts.expected++;
      else if (verdict === 'first') counts.completedFirst++;
      else {
        counts.unexpected++;
        const key = `${entry.name}: ${err === undefined ? 'succeeded' : describe(err)}`;
        interval.unexpected[key] = (interval.unexpected[key] ?? 0) + 1;
      }
      if (entry.kind === 'cached' && err === undefined) interval.cached.add(performance.now() - t0);
    };
    this.track(
      entry.run(this.ctx).then(
        () => settle(undefined),
        (err: unknown) => settle(err),
      ),
    );
  }

  /** Topics of long-poll loop `i`: the queues and instances of every `waiters`-th node. */
  private loopTopics(i: number): string[] {
    const mine = this.seeded.nodes.filter((_, k) => k % this.settings.waiters === i);
    return mine.flatMap((node) => [topics.queue(node, QUEUE), topics.nodeObjects(node, 'INSTANCE')]).slice(0, MAX_TOPICS_PER_WAIT);
  }

  private async longPollLoop(i: number, signal: AbortSignal): Promise<void> {
    const db = this.clients[i % this.clients.length] as DatabaseClient;
    const polled = this.loopTopics(i);
    if (polled.length === 0) return;
    while (!signal.aborted) {
      const stats = this.interval.longPolls;
      try {
        const cursor = this.cursors[i] ?? '';
        const r = await db.waitForChanges({ topics: polled, cursor, timeoutMs: LONG_POLL_MS }, { signal });
        this.cursors[i] = r.cursor;
        this.latestCursor = r.cursor;
        stats.answered++;
        if (cursor === '') stats.first++;
        else if (r.resync) stats.resync++;
        else if (r.changes.length > 0) stats.woken++;
        else stats.timedOut++;
      } catch (err) {
        if (signal.aborted) return;
        stats.errors++;
        const key = `long-poll: ${describe(err)}`;
        this.interval.unexpected[key] = (this.interval.unexpected[key] ?? 0) + 1;
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  }

  /** One "daemon" per phase: its own client and ChangeWaiter on a few queues, closed at the next pause. */
  private async daemonLoop(signal: AbortSignal): Promise<void> {
    const db = createClient({
      targets: this.settings.targets,
      callerDaemon: 'agent',
      callerNode: this.seeded.nodes[0],
      cache: false,
      feed: false,
      waiter: { waitTimeoutMs: LONG_POLL_MS },
    });
    const sub = db.changes.subscribe(this.seeded.nodes.slice(0, 8).map((n) => topics.queue(n, QUEUE)));
    this.phaseClient = { db, sub };
    while (!signal.aborted) {
      await sub.wait(5_000, signal);
      if (sub.take().changes.length > 0) this.interval.daemonWakes++;
    }
  }
}
