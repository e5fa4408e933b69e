// What a daemon takes of the change feed (daemons/idle.ts, Daemon.takeChanges): each daemon
// class takes its own topics' changes only, so a subclass that adds a topic of its own finds
// its changes whatever the base class's step() took; what nobody takes cannot pile up.
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { FeedChange } from '../../client/api/changes.js';
import { ClusterDaemon, MAINTENANCE_LEASE, QueuesDaemon, daemonSettings } from '../../daemons/index.js';
import type { ClusterDb, DaemonDb, QueuesDaemonOptions, QueuesDb } from '../../daemons/index.js';
import { DaemonIdle, MAX_HELD_CHANGES } from '../../daemons/idle.js';
import { topics } from '../../proto/topics.js';
import { FakeClock, flush } from '../helpers/fake-clock.js';
import { FakeDaemonDb } from '../helpers/fake-daemon-db.js';
import { change, setup as feedSetup } from '../helpers/fake-feed.js';

const NODE = '00000000-0000-4000-8000-000000000001';
const MINE = 'imager/custom';

describe('DaemonIdle.take', () => {
  function idleWith(changes: FeedChange[], resync = false): DaemonIdle {
    const idle = new DaemonIdle({ clock: new FakeClock(), stopped: new AbortController().signal, workTopics: () => [] });
    (idle as unknown as { work: { changes: FeedChange[]; resync: boolean } }).work = { changes: [...changes], resync };
    return idle;
  }

  it('takes the changes of the topics asked for and leaves the others, with the resync, for a later take', () => {
    const q = topics.queue(NODE, 'jobs');
    const idle = idleWith([change(q, 'a'), change(MINE, 'b'), change(q, 'c')], true);
    expect(idle.take(new Set([q]))).toEqual({ changes: [change(q, 'a'), change(q, 'c')], resync: true });
    expect(idle.take()).toEqual({ changes: [change(MINE, 'b')], resync: true });
    expect(idle.take()).toEqual({ changes: [], resync: false });
  });
});

describe('a QueuesDaemon subclass with a topic of its own', () => {
  /** The subclass's client: the queue calls and one of its own (QueuesDaemon is generic over it). */
  type ImagerDb = QueuesDb & { imageDone(id: string): Promise<void> };

  /** Takes its topic's changes before or after the base class's step; reports each through its own client call. */
  class ImagerDaemon extends QueuesDaemon<ImagerDb> {
    constructor(
      options: QueuesDaemonOptions<ImagerDb>,
      private readonly order: 'before' | 'after',
    ) {
      super(options);
    }
    protected override feedTopics(): string[] {
      return [...super.feedTopics(), MINE];
    }
    protected override async step(): Promise<number> {
      if (this.order === 'before') await this.report();
      const wait = await super.step();
      if (this.order === 'after') await this.report();
      return wait;
    }
    private async report(): Promise<void> {
      // this.db is an ImagerDb: no second reference to the client.
      for (const c of this.takeChanges(new Set([MINE])).changes) await this.db.imageDone(c.id);
    }
  }

  for (const order of ['before', 'after'] as const) {
    it(`finds its topic's changes when it takes them ${order} the base class's step, and the base class its own`, async () => {
      const { clock, feed, waiter, handshake } = feedSetup();
      const done: string[] = [];
      const db = Object.assign(new FakeDaemonDb(clock), { changes: waiter, imageDone: async (id: string) => void done.push(id) });
      const d = new ImagerDaemon(
        {
          name: 'imager',
          nodeUuid: NODE,
          db: db as unknown as DaemonDb & ImagerDb,
          clock,
          log: pino({ level: 'silent' }),
          settings: daemonSettings({}, { feed: true }),
        },
        order,
      ).handle('jobs', async () => 'done');
      const starting = d.start();
      await handshake();
      await starting;
      await clock.advance(10);
      const q = topics.queue(NODE, 'jobs');
      expect(feed.current.input.topics).toEqual(expect.arrayContaining([q, MINE]));
      const dequeues = db.times('Dequeue').length;
      feed.current.answer({ cursor: 'c2', changes: [change(q, 'item-1', 'created', '2'), change(MINE, 'image-7', 'updated', '3')] });
      await clock.advance(10);
      await flush();
      expect(done).toEqual(['image-7']);
      // The queue's change ended the idle and was the base class's: it dequeued again.
      expect(db.times('Dequeue').length).toBeGreaterThan(dequeues);
      await d.stop();
      waiter.close();
    });
  }
});

describe('a ClusterDaemon subclass with a topic of its own', () => {
  class Scheduler extends ClusterDaemon {
    readonly seen: string[] = [];
    order: 'before' | 'after' = 'after';
    protected override feedTopics(): string[] {
      return [...super.feedTopics(), MINE];
    }
    protected override async step(): Promise<number> {
      if (this.order === 'before') this.take();
      const wait = await super.step();
      if (this.order === 'after') this.take();
      return wait;
    }
    private take(): void {
      for (const c of this.takeChanges(new Set([MINE])).changes) this.seen.push(c.id);
    }
  }

  for (const order of ['before', 'after'] as const) {
    it(`finds its topic's changes when it takes them ${order} the base class's step`, async () => {
      const { clock, feed, waiter, handshake } = feedSetup();
      const db = Object.assign(new FakeDaemonDb(clock), { changes: waiter });
      const d = new Scheduler({
        name: 'scheduler',
        nodeUuid: NODE,
        db: db as unknown as ClusterDb,
        clock,
        log: pino({ level: 'silent' }),
        settings: daemonSettings({}, { feed: true }),
      });
      d.order = order;
      const starting = d.start();
      await handshake();
      await starting;
      await clock.advance(10);
      expect(feed.current.input.topics).toEqual(expect.arrayContaining([topics.lease(MAINTENANCE_LEASE), MINE]));
      feed.current.answer({ cursor: 'c2', changes: [change(topics.lease(MAINTENANCE_LEASE), MAINTENANCE_LEASE, 'updated', '2'), change(MINE, 'plan-3', 'updated', '3')] });
      await clock.advance(10);
      await flush();
      expect(d.seen).toEqual(['plan-3']);
      await d.stop();
      waiter.close();
    });
  }
});

describe('changes nobody takes', () => {
  it(`are capped at ${MAX_HELD_CHANGES}, the oldest dropped and a resync said`, async () => {
    const { clock, feed, waiter, handshake } = feedSetup();
    const idle = new DaemonIdle({ clock, stopped: new AbortController().signal, workTopics: () => [MINE] });
    const handshaking = handshake();
    idle.subscribe(waiter);
    await handshaking;
    for (let round = 0; round < 3; round++) {
      const waiting = idle.wait(60_000);
      await clock.advance(1);
      const batch = Array.from({ length: 600 }, (_, i) => change(MINE, `r${round}-${i}`, 'updated', String(round * 1000 + i + 2)));
      feed.current.answer({ cursor: `c${round + 2}`, changes: batch });
      await clock.advance(1);
      await waiting;
    }
    const held = idle.take();
    expect(held.changes).toHaveLength(MAX_HELD_CHANGES);
    expect(held.changes.at(-1)?.id).toBe('r2-599');
    expect(held.resync).toBe(true);
    waiter.close();
  });
});
