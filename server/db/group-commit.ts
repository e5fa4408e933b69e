// Group commit: frequent single-row writes that many nodes make on a period (node
// heartbeats, daemon states, stats written as attributes) are gathered and written by one
// multi-row statement (or one transaction) per kind. Each call's promise settles only after
// its batch has committed, with that call's own answer.
//
// The window is the least time between two batches of a kind: a call that finds the kind
// quiet (its last batch started a window ago or more) goes at the next turn of the event
// loop, with whatever arrived in the same turn; one that arrives sooner waits for the
// window's end, with every call arriving meanwhile. So a quiet replica adds no latency,
// and a busy one writes each kind at most once per window: its statements are bounded by
// the window, whatever the number of nodes calling.
//
// A periodic kind (node heartbeats, node attributes: a write every node makes on a period,
// whose answer nobody waits on) has a window of its own, longer: its calls arrive spread
// over the period, one node at a time, so a short window rarely finds two together and
// each would be its own statement up to the cap. The longer window bounds them at
// 1000/periodicWindowMs statements a second per kind and replica; a call waits at most
// that long, and a quiet replica still writes at once. Its windows are slots of the wall
// clock ([k·W, (k+1)·W)), the same on every replica: the first call of a slot goes at
// once, later ones at the next slot's start. So a node calling every period at the same
// phase waits the same each time, whichever replica the client picks, and its period is
// kept (windows chained from each replica's own last batch differ in phase, and a node
// alternating between replicas would see its period vary by up to a window).
//
// Contract of a kind (BatchKind):
// - rows are validated before they are submitted: bad input never reaches a batch;
// - batch(rows) writes every row it can in one statement or transaction and answers, per
//   row in order, its value, a Refusal (the call's own error, decided by the batch: a
//   missing target is NOT_FOUND and nothing was written for it), or ALONE ("run me
//   alone": an object near its bound — the single path then gives that call its own
//   answer);
// - alone(row) is the path of a call when grouping is off: today's statement.
// Each kind is written by its RPC family, beside the handler that submits to it
// (server/rpc/<family>/writes.ts); server/rpc/groups.ts collects them.
// A batch that fails as a whole for a reason that may be one row's (a CHECK, a value
// MariaDB refuses) is rerun row by row, so each call gets its own answer. A failure that is
// no row's (MariaDB unreachable, contention that outlived its reruns, a full pool) is every
// row's answer: the calls were not acknowledged, and the client's retry rules apply.
//
// Tracing: a batch that answers at least one sampled call is a span of its own, `group
// commit <kind>` (INTERNAL), linked to the span of every sampled call it answered (and the
// child of the first); its statements are its children (SharedOwner carries its context).
// A row run alone is its call's statement, under its call's span.
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Context, Link, Span } from '@opentelemetry/api';
import type { Clock } from '@sfdb/proto/runtime/clock';
import { ResourceExhaustedError, UnavailableError } from '../errors.js';
import { SharedOwner } from './owner.js';
import type { StatementOwner } from './owner.js';
import type { Sql } from './sql.js';

/** `sql`, charged to `owner` when there is one (a kind's statements, as its calls'). */
export function ownedBy(sql: Sql, owner: StatementOwner | undefined): Sql {
  return owner === undefined ? sql : sql.owned(owner);
}

/** A batch's answer for a row it could not settle: run the row alone. */
export const ALONE = Symbol('alone');

/** A batch's answer for a row it refuses: that call fails with `error`, and nothing was written for it. */
export class Refusal {
  constructor(readonly error: Error) {}
}

export type RowAnswer<A> = A | Refusal | typeof ALONE;

export interface BatchKind<R, A> {
  /** The metric label (database_group_commit_*{kind}). */
  readonly name: string;
  /** A write every node makes on a period: its window is GroupCommitOptions.periodicWindowMs. */
  readonly periodic?: boolean;
  /**
   * Writes `rows` (two or more) together; answers each row's value, Refusal or ALONE, in
   * order. Its statements are charged to `owner` (every call's equal share), when given.
   */
  batch(rows: readonly R[], owner?: StatementOwner): Promise<RowAnswer<A>[]>;
  /** Writes one row alone (grouping off, a batch of one, a row the batch handed back), charged to its call's `owner`. */
  alone(row: R, owner?: StatementOwner): Promise<A>;
}

/**
 * Rows in a stable order, so two batches writing the same rows lock them in one order: a
 * kind's batch sorts its rows by their key before its statement.
 */
export function inLockOrder<R>(rows: readonly R[], key: (r: R) => string): R[] {
  return [...rows].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

export interface GroupCommitOptions {
  /** The least time between two batches of a kind (ms); 0 = off (each call alone). */
  windowMs: number;
  /** The window of periodic kinds (ms), when grouping is on. */
  periodicWindowMs: number;
  /** A batch holding this many calls goes at once. */
  maxCalls: number;
}

export interface GroupCommitMetrics {
  observeBatch(kind: string, calls: number, waitSeconds: number): void;
  countAlone(kind: string, calls: number): void;
}

interface Entry<R, A> {
  row: R;
  /** The call's owner: its share of the batch's seconds (db/owner.ts). */
  owner: StatementOwner | undefined;
  resolve: (value: A) => void;
  reject: (err: unknown) => void;
}

interface Open<R, A> {
  entries: Entry<R, A>[];
  openedAt: number;
  /** Ends the window's sleep early (the batch is full, or the component stops). */
  cut: AbortController;
}

const tracer = trace.getTracer('sf-database');

/** The span of a batch of `kind` that answers a sampled call, linked to each such call's span; undefined when none is sampled. */
function batchSpan(kind: string, entries: readonly { owner: StatementOwner | undefined }[]): Span | undefined {
  let links: Link[] | undefined;
  let parent: Context | undefined;
  for (const { owner } of entries) {
    const context = owner?.traceContext === undefined ? undefined : trace.getSpanContext(owner.traceContext);
    if (context === undefined) continue;
    (links ??= []).push({ context });
    parent ??= owner?.traceContext;
  }
  if (links === undefined || parent === undefined) return undefined;
  // Under the first sampled call's span (so a parent-based sampler keeps it whatever its
  // ratio), linked to every sampled call's, that one's too: each trace finds it by its link.
  return tracer.startSpan(`group commit ${kind}`, { kind: SpanKind.INTERNAL, links, attributes: { 'sfdb.group_commit.kind': kind, 'sfdb.group_commit.calls': entries.length } }, parent);
}

/**
 * The owner of a batch's statements: its calls', in equal shares (undefined when no call
 * named one); its statements are spans under `span`, when there is one.
 */
function sharedOwner(entries: readonly { owner: StatementOwner | undefined }[], span: Span | undefined): StatementOwner | undefined {
  let shared: SharedOwner | undefined;
  for (const { owner } of entries) {
    if (owner === undefined) continue;
    if (shared === undefined) shared = new SharedOwner(owner, span === undefined ? undefined : trace.setSpan(ROOT_CONTEXT, span));
    else shared.add(owner);
  }
  return shared;
}

/** A failure that is no single row's: every call of the batch gets it. */
function batchWide(err: unknown): boolean {
  return err instanceof UnavailableError || err instanceof ResourceExhaustedError;
}

export class GroupCommit {
  private readonly open = new Map<BatchKind<unknown, unknown>, Open<unknown, unknown>>();
  private readonly running = new Set<Promise<void>>();
  private stopped = false;
  /** When each kind's last batch was opened. */
  private readonly lastOpened = new Map<BatchKind<unknown, unknown>, number>();
  /** Each periodic kind's slot of its last batch (wall-clock ms / periodicWindowMs, floored). */
  private readonly lastSlot = new Map<BatchKind<unknown, unknown>, number>();
  /** Calls in batches being written. */
  private writing = 0;

  constructor(
    private readonly options: GroupCommitOptions,
    private readonly metrics: GroupCommitMetrics,
    private readonly clock: Clock,
    /** Wall-clock milliseconds, which place the periodic kinds' slots (tests pass the fake clock's). */
    private readonly wallNow: () => number = Date.now,
  ) {}

  get enabled(): boolean {
    return this.options.windowMs > 0;
  }

  /** Writes `row` with the next batch of its kind, as `owner`'s; settles after that batch commits. */
  submit<R, A>(kind: BatchKind<R, A>, row: R, owner?: StatementOwner): Promise<A> {
    if (this.stopped) return Promise.reject(new UnavailableError('this replica is draining: writes go to another replica'));
    if (!this.enabled) return kind.alone(row, owner);
    return new Promise<A>((resolve, reject) => {
      const key = kind as BatchKind<unknown, unknown>;
      let batch = this.open.get(key) as Open<R, A> | undefined;
      if (!batch) {
        const now = this.clock.now();
        const opened: Open<R, A> = { entries: [], openedAt: now, cut: new AbortController() };
        batch = opened;
        this.open.set(key, opened as Open<unknown, unknown>);
        // Quiet: the next turn. Else the window's end, or the batch filling up (cut),
        // whichever comes first.
        const wait = kind.periodic ? this.slotWait(key) : this.chainedWait(key, now);
        this.track(this.clock.sleep(wait, opened.cut.signal).then(() => this.flush(kind, opened)));
      }
      batch.entries.push({ row, owner, resolve, reject });
      if (batch.entries.length >= this.options.maxCalls) {
        // Full: closed now and written at once; the next call opens a batch at once too
        // (a full batch is worth its statement: no window between full batches).
        this.open.delete(key);
        this.lastOpened.delete(key);
        this.lastSlot.delete(key);
        batch.cut.abort();
      }
    });
  }

  /** An ordinary kind: at once when its last batch opened a window ago or more, else at that window's end. */
  private chainedWait(key: BatchKind<unknown, unknown>, now: number): number {
    const wait = Math.max(0, (this.lastOpened.get(key) ?? Number.NEGATIVE_INFINITY) + this.options.windowMs - now);
    this.lastOpened.set(key, now + wait);
    return wait;
  }

  /** A periodic kind: at once when its slot has had no batch yet, else at the next slot's start. */
  private slotWait(key: BatchKind<unknown, unknown>): number {
    const windowMs = this.options.periodicWindowMs;
    if (windowMs <= 0) return 0;
    const wall = this.wallNow();
    const slot = Math.floor(wall / windowMs);
    if (this.lastSlot.get(key) !== slot) {
      this.lastSlot.set(key, slot);
      return 0;
    }
    this.lastSlot.set(key, slot + 1);
    return (slot + 1) * windowMs - wall;
  }

  /** Calls waiting in open windows and batches being written (tests, snapshots). */
  get pending(): number {
    let n = this.writing;
    for (const b of this.open.values()) n += b.entries.length;
    return n;
  }

  /**
   * Drain: every open window is written now and awaited; later submits are refused
   * (UNAVAILABLE, as a draining replica refuses), so the client retries elsewhere.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const b of this.open.values()) b.cut.abort();
    while (this.running.size > 0) await Promise.all([...this.running]);
  }

  private track(p: Promise<void>): void {
    this.running.add(p);
    void p.finally(() => this.running.delete(p));
  }

  private async flush<R, A>(kind: BatchKind<R, A>, batch: Open<R, A>): Promise<void> {
    const key = kind as BatchKind<unknown, unknown>;
    if (this.open.get(key) === (batch as Open<unknown, unknown>)) this.open.delete(key);
    const entries = batch.entries;
    if (entries.length === 0) return;
    this.writing += entries.length;
    try {
      await this.write(kind, batch);
    } finally {
      this.writing -= entries.length;
    }
  }

  private async write<R, A>(kind: BatchKind<R, A>, batch: Open<R, A>): Promise<void> {
    const entries = batch.entries;
    this.metrics.observeBatch(kind.name, entries.length, Math.max(0, this.clock.now() - batch.openedAt) / 1000);
    if (entries.length === 1) {
      await this.runAlone(kind, entries);
      return;
    }
    let answers: RowAnswer<A>[];
    const span = batchSpan(kind.name, entries);
    try {
      answers = await kind.batch(
        entries.map((e) => e.row),
        sharedOwner(entries, span),
      );
      if (answers.length !== entries.length) throw new Error(`group commit ${kind.name}: ${answers.length} answers for ${entries.length} rows`);
    } catch (err) {
      if (span !== undefined) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: batchWide(err) ? 'batch failed' : 'batch failed: rows run alone' });
        span.end();
      }
      if (batchWide(err)) {
        for (const e of entries) e.reject(err);
        return;
      }
      // Perhaps one row's fault: each row alone, each call its own answer.
      this.metrics.countAlone(kind.name, entries.length);
      await this.runAlone(kind, entries);
      return;
    }
    span?.end();
    const leftOver: Entry<R, A>[] = [];
    answers.forEach((answer, i) => {
      const e = entries[i] as Entry<R, A>;
      if (answer === ALONE) leftOver.push(e);
      else if (answer instanceof Refusal) e.reject(answer.error);
      else e.resolve(answer);
    });
    this.metrics.countAlone(kind.name, leftOver.length);
    await this.runAlone(kind, leftOver);
  }

  private async runAlone<R, A>(kind: BatchKind<R, A>, entries: readonly Entry<R, A>[]): Promise<void> {
    await Promise.all(
      entries.map(async (e) => {
        try {
          e.resolve(await kind.alone(e.row, e.owner));
        } catch (err) {
          e.reject(err);
        }
      }),
    );
  }
}
