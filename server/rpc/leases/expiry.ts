// Lease ends, announced. A lease whose holder stops renewing ends by database time, with no
// write: nothing publishes `lease/<name>`, so standbys on the change feed would each have
// to ask when the lease as last answered could end — every standby of the cluster once per
// lease term (1,000 nodes with a cluster lease of 30 s: 33 AcquireLease calls and
// statements a second, for nothing while the holder lives). Instead each replica watches
// the leases its standbys wait for (an AcquireLease answered "held by another" here, or a
// long-poll here on `lease/<name>`), looks at them when the earliest can end, and
// publishes `lease/<name>` for each that ended unrenewed, once per holder term (name and
// token) across the replicas. Standbys then wait for the topic alone
// (AcquireLeaseResponse.expiry_announced tells them a replica does this).
//
// Periodic database work, per replica and never per node or standby (task `lease_expiry`,
// source changefeed): while some lease is watched, one read of the watched leases at the
// earliest end among them (a renewal moves that later: about once per lease term while a
// holder lives) and at least every `maxIntervalMs` (a standby that moved here from a
// replica that died); one write when leases ended (a claim per lease, so that of replicas
// finding one end only one announces it). Nothing watched, no statement. A failed
// look is tried again after `maxIntervalMs` at most, sooner when a lease is expected.
import { systemClock } from '@sfdb/proto/runtime/clock';
import type { Clock } from '@sfdb/proto/runtime/clock';
import type { Logger } from '@sfdb/proto/runtime/log';
import { topics } from '@sfdb/proto/topics';
import type { Write } from '../../changefeed/publish.js';
import type { Sql } from '../../db/sql.js';
import { UnavailableError } from '../../errors.js';
import type { Metrics } from '../../metrics.js';
import * as q from './queries.js';

/** After a lease's end by database time: the look that finds it ended comes this much later. */
const MARGIN_MS = 20;
/** Looks no closer together than this, however many leases end apart. */
const MIN_GAP_MS = 50;
/** Lease names watched at most (a standby per name is what this is for: a handful). */
const MAX_WATCHED = 1_000;
/** `lease/`: what a lease's topic starts with, its name after it. */
const LEASE_TOPIC_PREFIX = topics.lease('');

export interface LeaseExpiryOptions {
  /** The longest time between two looks while a lease is watched (SFDB_LEASE_WATCH_MS). */
  maxIntervalMs: number;
}

export interface LeaseExpiryDeps {
  /** Statements of the look (source changefeed: the feed's own work). */
  sql: Sql;
  /** A transaction whose published changes reach the change feed. */
  write: Write;
  /** The topics starting with `prefix` that a waiter of this replica holds now (the feed's, in memory). */
  waitedTopics: (prefix: string) => string[];
  metrics: Metrics;
  log: Logger;
  clock?: Clock;
}

/** What the lease handlers tell the watcher. */
export interface LeaseEnds {
  /** A standby asked for lease `name`, held by another for `remainingMs` more: look at its end. */
  expect(name: string, remainingMs: number): void;
}

export class LeaseExpiryWatcher implements LeaseEnds {
  private loop: Promise<void> | undefined;
  private readonly stopped = new AbortController();
  /** Aborted when a lease is expected to end sooner than the loop's current sleep. */
  private rearm = new AbortController();
  private dueAt = Number.POSITIVE_INFINITY;
  /** Lease name → when a standby was last seen for it (an AcquireLease here, or a waiter). */
  private readonly watched = new Map<string, number>();
  /** name#token of the ended leases announced already (only those still ended stay). */
  private announced = new Set<string>();
  private readonly clock: Clock;
  private readonly forgetAfterMs: number;

  constructor(
    private readonly deps: LeaseExpiryDeps,
    private readonly options: LeaseExpiryOptions,
  ) {
    this.clock = deps.clock ?? systemClock;
    // A standby's long-poll is answered at most every 30 s and asked again at once.
    this.forgetAfterMs = Math.max(3 * options.maxIntervalMs, 90_000);
  }

  start(): void {
    if (this.loop) throw new Error('start() once');
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopped.abort();
    this.rearm.abort();
    await this.loop;
  }

  expect(name: string, remainingMs: number): void {
    if (this.watched.size < MAX_WATCHED || this.watched.has(name)) this.watched.set(name, this.clock.now());
    this.lookIn(remainingMs + MARGIN_MS);
  }

  /** What it watches and has announced (tests). */
  snapshot(): { watched: number; announced: number } {
    return { watched: this.watched.size, announced: this.announced.size };
  }

  private lookIn(ms: number): void {
    const at = this.clock.now() + Math.max(0, ms);
    if (at >= this.dueAt) return;
    this.dueAt = at;
    this.rearm.abort();
  }

  private async run(): Promise<void> {
    const { maxIntervalMs } = this.options;
    const { metrics, log } = this.deps;
    // The first look after one interval: by then the standbys' long-polls are here.
    this.dueAt = this.clock.now() + maxIntervalMs;
    let lastLook = Number.NEGATIVE_INFINITY;
    while (!this.stopped.signal.aborted) {
      const now = this.clock.now();
      const wait = Math.max(this.dueAt - now, lastLook + MIN_GAP_MS - now);
      if (wait > 0) {
        this.rearm = new AbortController();
        await this.clock.sleep(wait, this.rearm.signal);
        continue; // on time, or woken for a sooner end: the wait is worked out again
      }
      lastLook = now;
      this.dueAt = now + maxIntervalMs;
      try {
        const nextEndMs = await this.look();
        if (nextEndMs !== undefined) this.lookIn(nextEndMs + MARGIN_MS);
      } catch (err) {
        metrics.leaseExpiryLooks.inc({ outcome: 'error' });
        if (err instanceof UnavailableError) log.warn({ err: err.message }, 'lease expiry: database unavailable; looking again later');
        else log.error({ err }, 'lease expiry: the look failed');
      }
    }
  }

  /**
   * One look at the watched leases: announces those that ended unrenewed; returns the time
   * left until the next end of a live one. No standby here, no statement.
   */
  private async look(): Promise<number | undefined> {
    const { sql, write, waitedTopics, metrics, log } = this.deps;
    const now = this.clock.now();
    for (const topic of waitedTopics(LEASE_TOPIC_PREFIX)) {
      const name = topic.slice(LEASE_TOPIC_PREFIX.length);
      if (this.watched.size < MAX_WATCHED || this.watched.has(name)) this.watched.set(name, now);
    }
    for (const [name, seenAt] of this.watched) if (now - seenAt > this.forgetAfterMs) this.watched.delete(name);
    if (this.watched.size === 0) {
      this.announced.clear();
      return undefined;
    }
    const names = [...this.watched.keys()];
    const held = (await q.selectLeases(sql, names)).filter((l) => l.holder !== '');
    metrics.leaseExpiryLooks.inc({ outcome: 'ok' });
    // A name no holder has cannot end: not kept (a long-poll on made-up lease names does not
    // fill the watch; a standby of a released lease hears its next holder's takeover).
    const heldNames = new Set(held.map((l) => l.name));
    for (const name of names) if (!heldNames.has(name)) this.watched.delete(name);
    const ended = held.filter((l) => !q.isLive(l));
    const fresh = ended.filter((l) => !this.announced.has(key(l)));
    if (fresh.length > 0) {
      // Each replica looks on its own: the first to claim an end announces it, the others
      // (finding it claimed) do not, so its standbys hear it once.
      const published = await write(async (tx, publish) => {
        const names: string[] = [];
        for (const l of fresh) {
          if ((await q.claimEndAnnouncement(tx, l)) === 0) continue;
          publish({ topic: topics.lease(l.name), objectType: 'lease', objectId: l.name, kind: 'updated' });
          names.push(l.name);
        }
        return names;
      });
      if (published.length > 0) {
        metrics.leaseEndsAnnounced.inc(published.length);
        log.info({ leases: published }, 'leases ended unrenewed: announced to their standbys');
      }
    }
    // Every end seen is announced now; a lease taken again (a new token) or released drops out.
    this.announced = new Set(ended.map(key));
    const live = held.filter((l) => q.isLive(l)).map((l) => Number(l.remaining_ms));
    return live.length > 0 ? Math.min(...live) : undefined;
  }
}

function key(l: q.LeaseRow): string {
  return `${l.name}#${l.token}`;
}
