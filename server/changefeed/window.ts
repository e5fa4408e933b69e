// A replica's in-memory window of recent change rows, and what it knows of the sequence:
//   base   every seq ≤ base is outside the window (a cursor below it must resync);
//   high   the highest seq this replica has seen;
//   gaps   seqs in (base, high] not seen yet, each with when it was first noticed.
// Rows commit out of sequence order: a seq allocated by a transaction still open is a gap
// until its row is seen (then filled) or until it has been open gapTimeoutMs (then given
// up and counted — a rolled-back transaction leaves such a gap for good). Pure: time is
// passed in, so it is unit-tested with plain numbers.
import type { StoredChange } from './queries.js';
import { MAX_CURSOR_GAPS } from './cursor.js';
import type { Cursor } from './cursor.js';

export interface WindowEntry {
  readonly seq: bigint;
  readonly topic: string;
  readonly objectType: string;
  readonly objectId: string;
  readonly kind: StoredChange['kind'];
}

export interface WindowOptions {
  /** Entries held at most; the oldest go first (and `base` moves up). */
  capacity: number;
  /** How long a gap is held open before it is given up. */
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

  /** The cursor of a reader that has seen everything this replica has. */
  cursor(): Cursor {
    return { high: this.high, gaps: this.keepForCursor(this.openGaps()) };
  }

  /** Adds committed rows (from the tail, a gap read or a local commit); answers the new ones. */
  add(rows: readonly StoredChange[], now: number): WindowEntry[] {
    const added: WindowEntry[] = [];
    for (const row of rows) {
      const seq = BigInt(row.seq);
      if (seq <= this.base) continue;
      const entry: WindowEntry = { seq, topic: row.topic, objectType: row.objectType, objectId: row.objectId, kind: row.kind };
      const cls = seq % this.increment;
      if ((this.classHigh.get(cls) ?? 0n) < seq) this.classHigh.set(cls, seq);
      if (seq > this.high) {
        this.noteGapsUpTo(seq - 1n, now);
        this.high = seq;
        this.insert(entry);
        added.push(entry);
      } else if (this.gaps.delete(seq)) {
        this.insert(entry);
        added.push(entry);
      }
      // else: seen already (a poke's row read again, a local commit tailed again).
    }
    return added;
  }

  /** Gives up gaps open longer than the timeout; answers how many. */
  expireGaps(now: number): number {
    let n = 0;
    for (const [seq, since] of this.gaps) {
      if (now - since >= this.options.gapTimeoutMs) {
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
        this.gapsSkipped += 1;
      }
    }
  }

  /**
   * What a reader at `cursor` has not seen on `topics`: at most `limit` distinct (topic,
   * id) pairs. A cursor below the window answers resync with this replica's cursor.
   */
  query(cursor: Cursor, topics: ReadonlySet<string>, limit: number): QueryResult {
    if (cursor.high < this.base) return { changes: [], next: this.cursor(), resync: true, more: false };
    const latest = new Map<string, WindowEntry>();
    const keptGaps: bigint[] = [];
    // The cursor's own gaps: delivered if seen since, kept if still open here or beyond
    // what this replica has seen, dropped otherwise (given up here too, or below the window).
    for (const g of cursor.gaps) {
      if (g > this.high || this.gaps.has(g)) {
        keptGaps.push(g);
        continue;
      }
      const entry = g > this.base ? this.find(g) : undefined;
      if (entry === undefined) {
        this.cursorGapsDropped += 1;
        continue;
      }
      if (topics.has(entry.topic)) latest.set(`${entry.topic}\u0000${entry.objectId}`, entry);
    }
    let nextHigh = cursor.high > this.high ? cursor.high : this.high;
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
    }
    const gaps = new Set(keptGaps);
    for (const g of this.gaps.keys()) if (g > cursor.high && g < nextHigh) gaps.add(g);
    const all = [...gaps].filter((g) => g < nextHigh).sort(compare);
    const sorted = this.keepForCursor(all);
    this.cursorGapsDropped += all.length - sorted.length;
    const changes = [...latest.values()].sort((a, b) => compare(a.seq, b.seq));
    return { changes, next: { high: nextHigh, gaps: sorted }, resync: false, more };
  }

  /**
   * At most MAX_CURSOR_GAPS of `sorted` (ascending), ascending. With one sequence class
   * the newest; with several (Galera), first the gaps of classes with a row in the window
   * — a writing node's transaction may still fill them — newest first, then the others.
   */
  private keepForCursor(sorted: bigint[]): bigint[] {
    if (sorted.length <= MAX_CURSOR_GAPS) return sorted;
    if (this.increment === 1n) return sorted.slice(-MAX_CURSOR_GAPS);
    const writing = (g: bigint): boolean => (this.classHigh.get(g % this.increment) ?? 0n) > this.base;
    const newestFirst = [...sorted].reverse();
    const kept = [...newestFirst.filter(writing), ...newestFirst.filter((g) => !writing(g))].slice(0, MAX_CURSOR_GAPS);
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
