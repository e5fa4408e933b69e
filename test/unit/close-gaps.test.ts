// Closing gaps (server/changefeed/gaps.ts) against a fake table: a seq nobody holds is
// taken by a tombstone and closed; a seq whose row committed meanwhile is read and
// delivered; a seq a transaction still holds (lock wait, error 1205) is found by halving
// the batch, marked held, and tried alone afterwards; a Galera certification loss (1213)
// leaves the batch for the next tail. The real statements run in
// test/integration/changefeed-gaps.test.ts.
import { describe, expect, it } from 'vitest';
import type { Param, Sql } from '../../server/db/sql.js';
import { closeDueGaps } from '../../server/changefeed/gaps.js';
import { appendChanges } from '../../server/changefeed/queries.js';
import type { StoredChange } from '../../server/changefeed/queries.js';
import { RerunTransactionError, isRetryableTransactionError } from '../../server/db/retryable.js';
import { ChangeWindow } from '../../server/changefeed/window.js';
import { UnavailableError } from '../../server/errors.js';

/** A Sql whose every read is `rows`; nothing else is expected. */
function fakeSql(rows: (text: string, params: readonly Param[]) => Promise<object[]>): Sql {
  const unused = async (): Promise<never> => Promise.reject(new Error('not used'));
  const sql: Sql = {
    rows: async <T extends object>(text: string, params: readonly Param[] = []) => (await rows(text, params)) as T[],
    run: unused,
    unprepared: unused,
    transaction: unused,
    bounded: () => sql,
    withoutReruns: () => sql,
    owned: () => sql,
  };
  return sql;
}

class FakeChanges {
  readonly rowsBySeq = new Map<string, StoredChange>();
  readonly locked = new Set<string>();
  statements: string[] = [];
  failWith: number | undefined;

  sql(): Sql {
    return fakeSql(async (text, params) => {
      this.statements.push(text.split(' ').slice(0, 6).join(' '));
      const seqs = params.map(String);
      if (text.includes('INSERT IGNORE')) {
        if (this.failWith !== undefined) throw new UnavailableError('contention', { cause: { errno: this.failWith } });
        if (seqs.some((s) => this.locked.has(s))) throw new UnavailableError('contention', { cause: { errno: 1205 } });
        const took = seqs.filter((s) => !this.rowsBySeq.has(s));
        for (const s of took) this.rowsBySeq.set(s, { seq: s, topic: '', objectType: '', objectId: '', kind: 'gap' });
        return took.map((seq) => ({ seq }));
      }
      return seqs.flatMap((s) => {
        const r = this.rowsBySeq.get(s);
        return r ? [{ seq: r.seq, topic: r.topic, object_type: r.objectType, object_id: r.objectId, kind: r.kind }] : [];
      });
    });
  }
}

function change(seq: number, id: string): StoredChange {
  return { seq: String(seq), topic: 'queue/a/jobs', objectType: 'work_item', objectId: id, kind: 'created' };
}

/** A window that has seen seq `high` only: 1 … high-1 are gaps noticed at time 0. */
function windowWithGaps(high: number): ChangeWindow {
  const w = new ChangeWindow({ capacity: 10_000, gapTimeoutMs: 5_000 }, { base: 0n, high: 0n, rows: [], now: 0 });
  w.add([change(high, 'top')], 0);
  return w;
}

const opts = (now: number) => ({ minAgeMs: 1_000, batch: 1_000, now });

describe('closeDueGaps', () => {
  it('does nothing (no statement) while every gap is younger than the closing age', async () => {
    const db = new FakeChanges();
    const w = windowWithGaps(10);
    expect(await closeDueGaps(w, db.sql(), opts(999))).toEqual({ closed: 0, added: [] });
    expect(db.statements).toEqual([]);
  });

  it('closes the gaps nobody holds in one statement, and delivers a row that committed meanwhile', async () => {
    const db = new FakeChanges();
    const w = windowWithGaps(10);
    db.rowsBySeq.set('4', change(4, 'late'));
    const r = await closeDueGaps(w, db.sql(), opts(1_000));
    expect(r.closed).toBe(8);
    expect(r.added.map((e) => e.objectId)).toEqual(['late']);
    expect(w.openGaps()).toEqual([]);
    expect(db.statements).toHaveLength(2); // the tombstones, then the read of seq 4
  });

  it('finds the one held seq among many by halving, marks it held, and later tries it alone', async () => {
    const db = new FakeChanges();
    const w = windowWithGaps(1001); // 1000 gaps
    db.locked.add('637');
    const r = await closeDueGaps(w, db.sql(), opts(1_000));
    expect(r.closed).toBe(999);
    expect(w.openGaps()).toEqual([637n]);
    expect(w.heldCount).toBe(1);
    expect(db.statements.length).toBeLessThanOrEqual(1 + 2 * 10);
    // Next tail: still held, one statement; then its transaction commits and it is read.
    db.statements = [];
    await closeDueGaps(w, db.sql(), opts(3_000));
    expect(db.statements).toHaveLength(1);
    expect(w.openGaps()).toEqual([637n]);
    db.locked.delete('637');
    db.rowsBySeq.set('637', change(637, 'held'));
    db.statements = [];
    const later = await closeDueGaps(w, db.sql(), opts(5_000));
    expect(later.added.map((e) => e.objectId)).toEqual(['held']);
    expect(w.openGaps()).toEqual([]);
    expect(w.heldCount).toBe(0);
  });

  it('leaves the batch for the next tail when another replica\'s tombstones won certification (1213)', async () => {
    const db = new FakeChanges();
    const w = windowWithGaps(5);
    db.failWith = 1213;
    expect(await closeDueGaps(w, db.sql(), opts(1_000))).toEqual({ closed: 0, added: [] });
    expect(w.openGaps()).toEqual([1n, 2n, 3n, 4n]);
    expect(w.heldCount).toBe(0);
  });

  it('lets any other failure through (the tail logs it and tries again)', async () => {
    const db = new FakeChanges();
    const w = windowWithGaps(5);
    db.failWith = 2013;
    await expect(closeDueGaps(w, db.sql(), opts(1_000))).rejects.toThrow(UnavailableError);
    expect(w.openGaps()).toEqual([1n, 2n, 3n, 4n]);
  });
});

describe('a writer whose seq a tombstone took', () => {
  it('reruns its transaction (a duplicate key on the change row is not the caller\'s conflict)', async () => {
    const failing = (errno: number): Sql => fakeSql(async () => Promise.reject(Object.assign(new Error('duplicate'), { errno })));
    const row = { topic: 't', objectType: 'work_item', objectId: 'x', kind: 'created' as const };
    const err = await appendChanges(failing(1062), [row]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RerunTransactionError);
    expect(isRetryableTransactionError(err)).toBe(true);
    // Any other failure is left as it is.
    const other = await appendChanges(failing(1406), [row]).catch((e: unknown) => e);
    expect(other).not.toBeInstanceOf(RerunTransactionError);
  });
});
