// A replica's in-memory window of recent change rows, and what it knows of the sequence:
//   base   every seq ≤ base is outside the window (a cursor below it must resync);
//   high   the highest seq this replica has seen (a cursor above it resyncs too: see query);
//   gaps   seqs in (base, high] not seen yet, each with when it was first noticed.
// Rows commit out of sequence order: a seq allocated by a transaction still open is a gap
// until its row is seen (then filled). A seq that will never have a row (a rolled-back
// transaction; on Galera, the seqs of another node's class that no node allocated) is
// closed by the feed: it writes a tombstone row for the seq (queries.closeGaps), which
// either takes the seq for good or finds the row that filled it. A gap the tombstone
// could not take because a transaction of the tailer's own node still holds it is marked
// held: it is open for certain, and fills or closes later. A gap neither closed nor shown
// held is given up after gapTimeoutMs (counted). Pure: time is passed in, so it is
// unit-tested with plain numbers.
import type { SpanContext } from '@opentelemetry/api';
import { CLOSED_GAP_KIND } from './queries.js';
import type { StoredChange } from './queries.js';
import type { ChangeKindName } from '@sfdb/proto/topics';
import { MAX_CURSOR_GAPS, encodeCursor } from './cursor.js';
import type { Cursor } from './cursor.js';

export interface WindowEntry {
  readonly seq: bigint;
  readonly topic: string;
  readonly objectType: string;
  readonly objectId: string;
  readonly kind: ChangeKindName;
  /**
   * The span of the sampled call that wrote it on this replica (memory only, never stored):
   * a wake-up it answers links to it (writer-links.ts). Undefined for a row the tail read.
   */
  readonly writer?: SpanContext | undefined;
}

export interface WindowOptions {
  /** Entries held at most; the oldest go first (and `base` moves up). */
  capacity: number;
  /** How long a gap neither closed nor shown held is kept before it is given up. */
  gapTimeoutMs: number;
  /** Most open gaps tracked; beyond it the oldest are given up. */
  maxGaps?: number;
  /**
   * The server's auto_increment_increment (default 1). On Galera it is the cluster size and
   * each node allocates its own residue class, so the classes of nodes that write nothing
   * leave gaps that never fill. A cursor has room for MAX_CURSOR_GAPS: it keeps the gaps of
   * classes rows arrive in (a transaction of a writing node may still be open) before the
   * others, rather than simply the newest.
   */
  increment?: number;
}

export interface QueryResult {
  /** Coalesced per (topic, id): the latest entry of each, in seq order. */
  changes: WindowEntry[];
  /**
   * Those of `changes` that are reports (kind 'reported') standing for an earlier change of
   * another kind past the cursor too: they wake as that change would (a report never hides
   * another's change from a waiter that keeps reports quiet).
   */
  reportsOverOthers: ReadonlySet<WindowEntry>;
  next: Cursor;
  resync: boolean;
  /** More matching changes lie past `next` (the limit was reached). */
  more: boolean;
}

export class ChangeWindow {
  private base: bigint;
  private high: bigint;
  private readonly entries: WindowEntry[] = [];
  private readonly gaps = new Map<bigint, number>();
  /** Open gaps a still-open transaction was shown to hold (never given up by time). */
  private readonly held = new Set<bigint>();
  /** Seqs in (base, high] that were closed by a tombstone: resolved, nothing to deliver. */
  private readonly closed = new Set<bigint>();
  private readonly maxGaps: number;
  private readonly increment: bigint;
  /** The highest seq seen of each residue class (seq mod increment). */
  private readonly classHigh = new Map<bigint, bigint>();
  /** Gaps given up since the start (timed out, too many, or below the window). */
  gapsSkipped = 0;
  /** Cursor gaps a caller presented that this window could not resolve and dropped. */
  cursorGapsDropped = 0;

  constructor(
    private readonly options: WindowOptions,
    start: { base: bigint; high: bigint; rows: readonly StoredChange[]; now: number },
  ) {
    this.maxGaps = options.maxGaps ?? 10_000;
    this.increment = BigInt(Math.max(1, options.increment ?? 1));
    this.base = start.base;
    this.high = start.base;
    this.add(start.rows, start.now);
    // Seqs up to the table's high mark that no row was found for: in flight, or rolled back.
    this.noteGapsUpTo(start.high, start.now);
    if (start.high > this.high) this.high = start.high;
  }

  get highSeq(): bigint {
    return this.high;
  }

  get baseSeq(): bigint {
    return this.base;
  }

  get size(): number {
    return this.entries.length;
  }

  /** Open gaps, ascending. */
  openGaps(): bigint[] {
    return [...this.gaps.keys()].sort(compare);
  }

  /** Open gaps noticed at least `minAgeMs` before `now`, ascending. */
  gapsToClose(now: number, minAgeMs: number): bigint[] {
    const due: bigint[] = [];
    for (const [seq, since] of this.gaps) if (now - since >= minAgeMs) due.push(seq);
    return due.sort(compare);
  }

  /** A tombstone could not take these seqs: a transaction still open holds them. */
  markHeld(seqs: readonly bigint[]): void {
    for (const seq of seqs) if (this.gaps.has(seq)) this.held.add(seq);
  }

  /** Open gaps shown held by an open transaction. */
  get heldCount(): number {
    return this.held.size;
  }

  heldGaps(): ReadonlySet<bigint> {
    return new Set(this.held);
  }

  /** The cursor of a reader that has seen everything this replica has. */
  cursor(): Cursor {
    return { high: this.high, gaps: this.keepForCursor(this.openGaps()) };
  }

  /** Adds committed rows (from the tail, a gap read or a local commit, by `writer`'s span when sampled); answers the new ones. */
  add(rows: readonly StoredChange[], now: number, writer?: SpanContext): WindowEntry[] {
    const added: WindowEntry[] = [];
    for (const row of rows) {
      const seq = BigInt(row.seq);
      if (seq <= this.base) continue;
      if (row.kind === CLOSED_GAP_KIND) {
        this.close(seq, now);
        continue;
      }
      const entry: WindowEntry = { seq, topic: row.topic, objectType: row.objectType, objectId: row.objectId, kind: row.kind, writer };
      const cls = seq % this.increment;
      if ((this.classHigh.get(cls) ?? 0n) < seq) this.classHigh.set(cls, seq);
      if (seq > this.high) {
        this.noteGapsUpTo(seq - 1n, now);
        this.high = seq;
        this.insert(entry);
        added.push(entry);
      } else if (this.gaps.delete(seq)) {
        this.held.delete(seq);
        this.insert(entry);
        added.push(entry);
      }
      // else: seen already (a poke's row read again, a local commit tailed again).
    }
    return added;
  }

  /** A tombstone row: `seq` will never carry a change. Nothing to deliver; not a writing class. */
  private close(seq: bigint, now: number): void {
    if (seq > this.high) {
      this.noteGapsUpTo(seq - 1n, now);
      this.high = seq;
      this.closed.add(seq);
    } else if (this.gaps.delete(seq)) {
      this.held.delete(seq);
      this.closed.add(seq);
    }
  }

  /** Gives up gaps open longer than the timeout and not shown held; answers how many. */
  expireGaps(now: number): number {
    let n = 0;
    for (const [seq, since] of this.gaps) {
      if (now - since >= this.options.gapTimeoutMs && !this.held.has(seq)) {
        this.gaps.delete(seq);
        n += 1;
      }
    }
    this.gapsSkipped += n;
    return n;
  }

  /** Drops the oldest entries beyond the capacity; `base` moves up with them. */
  trim(): void {
    const excess = this.entries.length - this.options.capacity;
    if (excess <= 0) return;
    const dropped = this.entries.splice(0, excess);
    this.base = (dropped[dropped.length - 1] as WindowEntry).seq;
    for (const seq of this.gaps.keys()) {
      if (seq <= this.base) {
        this.gaps.delete(seq);
        this.held.delete(seq);
        this.gapsSkipped += 1;
      }
    }
    for (const seq of this.closed) if (seq <= this.base) this.closed.delete(seq);
  }

  /**
   * What a reader at `cursor` has not seen on `topics`: at most `limit` distinct (topic,
   * id) pairs. A cursor outside the window answers resync with this replica's cursor:
   * below it (older than the window), or above the highest seq this replica has seen. The
   * feed reads everything committed before it asks about a cursor above that (a reader of
   * a replica ahead of this one), so a cursor still above it is not of this database's
   * history — a database restored from a backup, or a cursor from another cluster — and
   * waiting for the sequence to reach it would leave the reader silent meanwhile.
   */
  query(cursor: Cursor, topics: ReadonlySet<string>, limit: number): QueryResult {
    if (cursor.high < this.base || cursor.high > this.high) return { changes: [], reportsOverOthers: new Set(), next: this.cursor(), resync: true, more: false };
    const latest = new Map<string, WindowEntry>();
    // Keys with a change past the cursor that is not a report.
    const others = new Set<string>();
    const keptGaps: bigint[] = [];
    // The cursor's own gaps (each below its high, so within what this replica has seen):
    // delivered if seen since, kept if still open here, dropped otherwise (given up here
    // too, or below the window).
    for (const g of cursor.gaps) {
      if (this.gaps.has(g)) {
        keptGaps.push(g);
        continue;
      }
      if (this.closed.has(g)) continue;
      const entry = g > this.base ? this.find(g) : undefined;
      if (entry === undefined) {
        this.cursorGapsDropped += 1;
        continue;
      }
      if (!topics.has(entry.topic)) continue;
      const key = `${entry.topic}\u0000${entry.objectId}`;
      latest.set(key, entry);
      if (entry.kind !== 'reported') others.add(key);
    }
    let nextHigh = this.high;
    let more = false;
    for (let i = this.firstAfter(cursor.high); i < this.entries.length; i++) {
      const entry = this.entries[i] as WindowEntry;
      if (!topics.has(entry.topic)) continue;
      const key = `${entry.topic}\u0000${entry.objectId}`;
      if (!latest.has(key) && latest.size >= limit) {
        more = true;
        nextHigh = (this.entries[i - 1] as WindowEntry | undefined)?.seq ?? cursor.high;
        if (nextHigh < cursor.high) nextHigh = cursor.high;
        break;
      }
      latest.set(key, entry);
      if (entry.kind !== 'reported') others.add(key);
    }
    const gaps = new Set(keptGaps);
    for (const g of this.gaps.keys()) if (g > cursor.high && g < nextHigh) gaps.add(g);
    const all = [...gaps].filter((g) => g < nextHigh).sort(compare);
    const sorted = this.keepForCursor(all);
    this.cursorGapsDropped += all.length - sorted.length;
    const changes = [...latest.values()].sort((a, b) => compare(a.seq, b.seq));
    const reportsOverOthers = new Set<WindowEntry>();
    for (const [key, e] of latest) if (e.kind === 'reported' && others.has(key)) reportsOverOthers.add(e);
    return { changes, reportsOverOthers, next: { high: nextHigh, gaps: sorted }, resync: false, more };
  }

  /**
   * At most MAX_CURSOR_GAPS of `sorted` (ascending), ascending. First the gaps shown held
   * by an open transaction (they will fill or close); then, with several sequence classes
   * (Galera), the gaps of classes with a row in the window — a writing node's transaction
   * may still fill them — then the others; newest first within each.
   */
  private keepForCursor(sorted: bigint[]): bigint[] {
    if (sorted.length <= MAX_CURSOR_GAPS) return sorted;
    const writing = (g: bigint): boolean => this.increment === 1n || (this.classHigh.get(g % this.increment) ?? 0n) > this.base;
    const rank = (g: bigint): number => (this.held.has(g) ? 0 : writing(g) ? 1 : 2);
    const newestFirst = [...sorted].reverse();
    const kept = [0, 1, 2].flatMap((r) => newestFirst.filter((g) => rank(g) === r)).slice(0, MAX_CURSOR_GAPS);
    return kept.sort(compare);
  }

  /** Marks every seq in (high, seq] as an open gap first noticed at `now`. */
  private noteGapsUpTo(seq: bigint, now: number): void {
    for (let s = this.high + 1n; s <= seq; s++) {
      if (this.gaps.size >= this.maxGaps) {
        // A jump too wide to track seq by seq (a long outage, an auto-increment step):
        // give up the rest rather than hold memory for it.
        this.gapsSkipped += Number(seq - s + 1n);
        break;
      }
      this.gaps.set(s, now);
    }
  }

  private insert(entry: WindowEntry): void {
    const last = this.entries[this.entries.length - 1];
    if (last === undefined || last.seq < entry.seq) {
      this.entries.push(entry);
      return;
    }
    this.entries.splice(this.firstAfter(entry.seq), 0, entry);
  }

  /** Index of the first entry with seq > `seq` (binary search). */
  private firstAfter(seq: bigint): number {
    let lo = 0;
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.entries[mid] as WindowEntry).seq <= seq) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private find(seq: bigint): WindowEntry | undefined {
    const i = this.firstAfter(seq) - 1;
    const entry = this.entries[i];
    return entry !== undefined && entry.seq === seq ? entry : undefined;
  }
}

function compare(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** What WaitForChanges and GetChangesSince answer from the window. */
export interface FeedAnswer {
  changes: WindowEntry[];
  cursor: string;
  resync: boolean;
  more: boolean;
}

/** A window query's result as an answer: its next cursor encoded. */
export function answerOf(r: { changes: WindowEntry[]; next: Cursor; resync: boolean; more: boolean }): FeedAnswer {
  return { changes: r.changes, cursor: encodeCursor(r.next), resync: r.resync, more: r.more };
}
