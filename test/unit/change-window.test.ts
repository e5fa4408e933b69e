// The change window and cursor: out-of-order commits never skip a row whose seq came
// before one already seen (the gap is held until its row or a tombstone closes it; one
// neither closed nor shown held is given up after its timeout), a cursor below the window
// or above its high mark resyncs, answers coalesce per (topic, id) and honour the limit.
import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from '../../server/changefeed/cursor.js';
import type { StoredChange } from '../../server/changefeed/queries.js';
import { ChangeWindow } from '../../server/changefeed/window.js';
import { InvalidArgumentError } from '../../server/errors.js';

function row(seq: number, topic = 'queue/a/jobs', id = `item-${seq}`, kind: StoredChange['kind'] = 'created'): StoredChange {
  return { seq: String(seq), topic, objectType: 'work_item', objectId: id, kind };
}

function windowOf(rows: StoredChange[] = [], opts: { capacity?: number; gapTimeoutMs?: number; base?: number; high?: number } = {}): ChangeWindow {
  const base = BigInt(opts.base ?? 0);
  return new ChangeWindow(
    { capacity: opts.capacity ?? 1000, gapTimeoutMs: opts.gapTimeoutMs ?? 5000 },
    { base, high: BigInt(opts.high ?? opts.base ?? 0), rows, now: 0 },
  );
}

const A = new Set(['queue/a/jobs']);

describe('cursor text', () => {
  it('round-trips high and gaps', () => {
    const c = { high: 12n, gaps: [9n, 11n] };
    expect(encodeCursor(c)).toBe('12:9.11');
    expect(decodeCursor('cursor', '12:9.11')).toEqual(c);
    expect(decodeCursor('cursor', '7')).toEqual({ high: 7n, gaps: [] });
    expect(decodeCursor('cursor', '')).toBeUndefined();
  });

  it.each(['x', '-1', '5:5', '5:3.2', '5:', '1:0.0', '99999999999999999999999'])('refuses %j naming the field', (text) => {
    expect(() => decodeCursor('cursor', text)).toThrow(InvalidArgumentError);
    expect(() => decodeCursor('cursor', text)).toThrow(/^cursor: /);
  });
});

describe('ChangeWindow', () => {
  it('answers what is past the cursor on the asked topics only', () => {
    const w = windowOf([row(1), row(2, 'queue/b/jobs'), row(3)]);
    const r = w.query({ high: 0n, gaps: [] }, A, 100);
    expect(r.changes.map((c) => c.seq)).toEqual([1n, 3n]);
    expect(r.next).toEqual({ high: 3n, gaps: [] });
    expect(w.query(r.next, A, 100).changes).toEqual([]);
  });

  it('holds a gap left by an open transaction and delivers its row when it commits later', () => {
    const w = windowOf();
    // seq 2 and 3 commit first; seq 1 belongs to a transaction still open.
    w.add([row(2), row(3)], 10);
    expect(w.openGaps()).toEqual([1n]);
    const first = w.query({ high: 0n, gaps: [] }, A, 100);
    expect(first.changes.map((c) => c.seq)).toEqual([2n, 3n]);
    expect(first.next).toEqual({ high: 3n, gaps: [1n] });
    // Nothing new yet for this reader.
    expect(w.query(first.next, A, 100).changes).toEqual([]);
    // The open transaction commits: its row is delivered to the reader that passed it.
    expect(w.add([row(1)], 20).map((e) => e.seq)).toEqual([1n]);
    const second = w.query(first.next, A, 100);
    expect(second.changes.map((c) => c.seq)).toEqual([1n]);
    expect(second.next).toEqual({ high: 3n, gaps: [] });
  });

  it('gives a gap up after its timeout, counted, and moves on', () => {
    const w = windowOf([], { gapTimeoutMs: 5000 });
    w.add([row(2)], 1000);
    expect(w.expireGaps(5999)).toBe(0);
    expect(w.openGaps()).toEqual([1n]);
    expect(w.expireGaps(6000)).toBe(1);
    expect(w.openGaps()).toEqual([]);
    expect(w.gapsSkipped).toBe(1);
    // A reader still carrying the gap has it dropped (nothing will ever fill it here).
    const r = w.query({ high: 2n, gaps: [1n] }, A, 100);
    expect(r.next).toEqual({ high: 2n, gaps: [] });
    // A row that commits after its gap was given up is not delivered twice or late.
    expect(w.add([row(1)], 7000)).toEqual([]);
  });

  it('ignores a row it has already seen (a local commit read again by the tail)', () => {
    const w = windowOf([row(1)]);
    expect(w.add([row(1)], 5)).toEqual([]);
    expect(w.size).toBe(1);
  });

  it('coalesces per (topic, id): the latest change of each', () => {
    const w = windowOf([row(1, 'queue/a/jobs', 'x', 'created'), row(2, 'queue/a/jobs', 'x', 'state'), row(3, 'queue/a/jobs', 'y')]);
    const r = w.query({ high: 0n, gaps: [] }, A, 100);
    expect(r.changes.map((c) => [c.objectId, c.kind, c.seq])).toEqual([
      ['x', 'state', 2n],
      ['y', 'created', 3n],
    ]);
  });

  it('marks a report that stands for an earlier change of another kind past the cursor', () => {
    const D = new Set(['daemon/n/queues', 'daemon/n/net']);
    const w = windowOf([
      row(1, 'daemon/n/queues', 'queues', 'state'),
      row(2, 'daemon/n/queues', 'queues', 'reported'),
      row(3, 'daemon/n/net', 'net', 'reported'),
    ]);
    const all = w.query({ high: 0n, gaps: [] }, D, 100);
    expect(all.changes.map((c) => [c.objectId, c.kind])).toEqual([
      ['queues', 'reported'],
      ['net', 'reported'],
    ]);
    // queues' report is over an operator's change past the cursor; net's is a report only.
    expect([...all.reportsOverOthers].map((c) => c.objectId)).toEqual(['queues']);
    // From past the operator's change, queues' is a report only.
    expect([...w.query({ high: 1n, gaps: [] }, D, 100).reportsOverOthers]).toEqual([]);
  });

  it('stops at the limit with more=true and a cursor that resumes exactly there', () => {
    const w = windowOf([row(1), row(2), row(3), row(4)]);
    const r = w.query({ high: 0n, gaps: [] }, A, 2);
    expect(r.changes.map((c) => c.seq)).toEqual([1n, 2n]);
    expect(r.more).toBe(true);
    const rest = w.query(r.next, A, 2);
    expect(rest.changes.map((c) => c.seq)).toEqual([3n, 4n]);
    expect(rest.more).toBe(false);
  });

  it('answers resync to a cursor older than the window, with the current cursor', () => {
    const w = windowOf([row(1), row(2), row(3)], { capacity: 2 });
    w.trim();
    expect(w.baseSeq).toBe(1n);
    const r = w.query({ high: 0n, gaps: [] }, A, 100);
    expect(r.resync).toBe(true);
    expect(r.changes).toEqual([]);
    expect(r.next).toEqual({ high: 3n, gaps: [] });
    expect(w.query({ high: 1n, gaps: [] }, A, 100).resync).toBe(false);
  });

  it('treats seqs up to the table high mark with no row at start as open gaps', () => {
    const w = windowOf([row(5)], { base: 3, high: 7 });
    expect(w.openGaps()).toEqual([4n, 6n, 7n]);
    expect(w.highSeq).toBe(7n);
  });

  it('bounds the gaps it tracks on a huge jump and counts the rest as given up', () => {
    const w = new ChangeWindow({ capacity: 10, gapTimeoutMs: 1000, maxGaps: 5 }, { base: 0n, high: 0n, rows: [], now: 0 });
    w.add([row(100)], 0);
    expect(w.openGaps().length).toBe(5);
    expect(w.gapsSkipped).toBe(94);
  });

  it('answers resync to a cursor above the highest seq it has seen (the feed reads the table first)', () => {
    const w = windowOf([row(1), row(2)]);
    const ahead = w.query({ high: 9n, gaps: [8n] }, A, 100);
    expect(ahead).toEqual({ changes: [], reportsOverOthers: new Set(), next: { high: 2n, gaps: [] }, resync: true, more: false });
    // At the high mark, or with a gap it still holds open: in the window, no resync.
    expect(w.query({ high: 2n, gaps: [] }, A, 100).resync).toBe(false);
    w.add([row(4)], 0);
    const withGap = w.query({ high: 4n, gaps: [3n] }, A, 100);
    expect(withGap).toEqual({ changes: [], reportsOverOthers: new Set(), next: { high: 4n, gaps: [3n] }, resync: false, more: false });
  });
});

describe('the window on Galera (auto_increment_increment = cluster size)', () => {
  it("keeps a writing node's open gap in the cursor when other nodes' classes leave many that never fill", () => {
    // Node 1 writes (seqs ≡ 1 mod 3); seq 1 is held open while 100 later rows commit:
    // seqs ≡ 0 and 2 (nodes that write nothing) are gaps that never fill.
    const w = new ChangeWindow({ capacity: 1000, gapTimeoutMs: 5000, increment: 3 }, { base: 0n, high: 0n, rows: [], now: 0 });
    w.add(Array.from({ length: 100 }, (_, i) => row(4 + 3 * i)), 1);
    const start = { high: 0n, gaps: [] };
    const first = w.query(start, new Set(['queue/a/jobs']), 1000);
    expect(first.changes).toHaveLength(100);
    expect(first.next.gaps).toHaveLength(64);
    expect(first.next.gaps).toContain(1n); // the held one, though 130 newer gaps exist
    expect(first.next.gaps.filter((g) => g % 3n === 1n)).toEqual([1n]);
    // It commits: the reader gets it.
    w.add([row(1, 'queue/a/jobs', 'held')], 2);
    const second = w.query(first.next, new Set(['queue/a/jobs']), 1000);
    expect(second.changes.map((c) => c.objectId)).toEqual(['held']);
  });

  it('with one sequence class keeps the newest gaps, as before', () => {
    const w = new ChangeWindow({ capacity: 1000, gapTimeoutMs: 5000 }, { base: 0n, high: 0n, rows: [], now: 0 });
    w.add(Array.from({ length: 50 }, (_, i) => row(2 + 2 * i)), 1); // odd seqs are gaps: 1, 3, …, 99
    expect(w.cursor().gaps).toHaveLength(50);
    w.add(Array.from({ length: 20 }, (_, i) => row(102 + 2 * i)), 1); // 70 gaps now
    expect(w.cursor().gaps[0]).toBe(13n); // the 6 oldest gave way
  });
});

describe('closed and held gaps', () => {
  const tombstone = (seq: number): StoredChange => ({ seq: String(seq), topic: '', objectType: '', objectId: '', kind: 'gap' });

  it('a tombstone closes a gap: nothing delivered, nothing given up, and a reader carrying it drops it quietly', () => {
    const w = windowOf();
    w.add([row(2)], 0);
    const first = w.query({ high: 0n, gaps: [] }, A, 100);
    expect(first.next).toEqual({ high: 2n, gaps: [1n] });
    expect(w.add([tombstone(1)], 10)).toEqual([]);
    expect(w.openGaps()).toEqual([]);
    const second = w.query(first.next, A, 100);
    expect(second.changes).toEqual([]);
    expect(second.next).toEqual({ high: 2n, gaps: [] });
    expect(w.gapsSkipped).toBe(0);
    expect(w.cursorGapsDropped).toBe(0);
    // The real row cannot come after its seq was taken; a repeat read changes nothing.
    expect(w.add([tombstone(1)], 20)).toEqual([]);
  });

  it('a tombstone past the high mark moves it, opening the gaps below, and is never delivered', () => {
    const w = windowOf([row(1)]);
    expect(w.add([tombstone(4)], 0)).toEqual([]);
    expect(w.highSeq).toBe(4n);
    expect(w.openGaps()).toEqual([2n, 3n]);
    expect(w.query({ high: 1n, gaps: [] }, A, 100).changes).toEqual([]);
  });

  it('a gap shown held outlives the gap timeout and is delivered when it commits', () => {
    const w = windowOf([], { gapTimeoutMs: 5000 });
    w.add([row(3)], 0);
    w.markHeld([1n]);
    expect(w.heldCount).toBe(1);
    expect(w.expireGaps(60_000)).toBe(1); // 2 (not held) is given up; 1 is not
    expect(w.openGaps()).toEqual([1n]);
    expect(w.add([row(1)], 60_001).map((e) => e.seq)).toEqual([1n]);
    expect(w.heldCount).toBe(0);
  });

  it('only gaps old enough are due for closing, oldest seq first', () => {
    const w = windowOf();
    w.add([row(3)], 0); // gaps 1, 2 noticed at 0
    w.add([row(6)], 900); // gaps 4, 5 noticed at 900
    expect(w.gapsToClose(1000, 1000)).toEqual([1n, 2n]);
    expect(w.gapsToClose(1900, 1000)).toEqual([1n, 2n, 4n, 5n]);
  });

  it('keeps held gaps in the cursor first, and a tombstone does not make its class a writing one', () => {
    const w = new ChangeWindow({ capacity: 1000, gapTimeoutMs: 5000, increment: 3 }, { base: 0n, high: 0n, rows: [], now: 0 });
    // Class 1 writes 200 rows: 400 gaps in classes 0 and 2; seq 2 (class 2) is shown held.
    w.add(Array.from({ length: 200 }, (_, i) => row(4 + 3 * i)), 1);
    w.markHeld([2n]);
    // Tombstones of class 0 (the oldest ones) must not promote class 0 over class 2.
    w.add([3, 6, 9].map(tombstone), 2);
    const gaps = w.cursor().gaps;
    expect(gaps).toHaveLength(64);
    expect(gaps).toContain(2n); // held: first
    expect(gaps).toContain(1n); // the writing class's gap: next
    // Were class 0 taken for a writing class, its gaps alone would fill the other 62 places.
    expect(gaps.filter((g) => g % 3n === 2n && g !== 2n).length).toBeGreaterThan(0);
  });
});
