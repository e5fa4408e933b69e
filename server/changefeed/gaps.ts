// Closing sequence gaps: telling a seq that will never carry a change from one a
// transaction still holds. The feed tries to take each old gap's seq with a tombstone row
// (queries.closeGaps). Taken: no change will ever have that seq (a rolled-back
// transaction; on Galera a seq of another node's residue class that no node allocated),
// and every replica's tail sees the gap closed. A row there: it committed meanwhile, and
// is read. Held: a transaction still open on this replica's MariaDB node holds the row (a
// lock wait, failing at once): the gap is open for certain and is tried again next tail.
// On Galera a transaction open on another node that allocated the seq loses to the
// tombstone at certification; the tier reruns it under a new seq (and a writer that
// allocated the seq but had not yet written its row meets a duplicate key: rerun too, see
// queries.appendChanges). No timing decides: the gap timeout only gives up gaps that
// closing could not reach (the database failing).
import type { Sql } from '../db/sql.js';
import { sqlErrno } from '../db/retryable.js';
import * as q from './queries.js';
import type { ChangeWindow, WindowEntry } from './window.js';

/**
 * Statements one tail may spend closing gaps: one per `batch` gaps when no transaction
 * holds any of them; finding a held seq among n narrows its batch by halves (about
 * 2·log2 n statements, once — later tails try a held seq alone). Gaps left over wait for
 * the next tail.
 */
const CLOSE_STATEMENTS = 24;

/** MariaDB: lock wait timeout (a transaction holds the row), deadlock (Galera: certification). */
const ER_LOCK_WAIT_TIMEOUT = 1205;
const ER_LOCK_DEADLOCK = 1213;

export interface CloseOptions {
  /** Gaps open at least this long are closed. */
  minAgeMs: number;
  /** Most gaps tried in one statement. */
  batch: number;
  now: number;
}

/**
 * Closes the gaps of `window` open at least `minAgeMs`: the tombstones taken are added to
 * the window (as closed), the rows found are read and added, the held seqs marked.
 * Answers how many were closed and the entries added (to wake their waiters).
 */
export async function closeDueGaps(window: ChangeWindow, sql: Sql, options: CloseOptions): Promise<{ closed: number; added: WindowEntry[] }> {
  const due = window.gapsToClose(options.now, options.minAgeMs);
  if (due.length === 0) return { closed: 0, added: [] };
  // A lock wait must answer at once, not be rerun: it is what tells a held seq.
  const once = sql.withoutReruns();
  let budget = CLOSE_STATEMENTS;
  const closed: bigint[] = [];
  const present: bigint[] = [];
  const held: bigint[] = [];
  const attempt = async (batch: readonly bigint[]): Promise<void> => {
    if (batch.length === 0 || budget <= 0) return;
    budget -= 1;
    try {
      const took = new Set(await q.closeGaps(once, batch.map(String)));
      for (const seq of batch) (took.has(String(seq)) ? closed : present).push(seq);
    } catch (err) {
      const errno = sqlErrno(err) ?? sqlErrno((err as { cause?: unknown }).cause);
      // Galera: another replica's tombstone for the same seqs won certification; the next
      // tail reads it.
      if (errno === ER_LOCK_DEADLOCK) return;
      if (errno !== ER_LOCK_WAIT_TIMEOUT) throw err;
      if (batch.length === 1) {
        held.push(batch[0] as bigint);
        return;
      }
      const half = batch.length >>> 1;
      await attempt(batch.slice(0, half));
      await attempt(batch.slice(half));
    }
  };
  // Seqs held at the last try go alone (one cheap statement each), the others together.
  const wasHeld = window.heldGaps();
  for (const seq of due) if (wasHeld.has(seq)) await attempt([seq]);
  const rest = due.filter((seq) => !wasHeld.has(seq));
  for (let i = 0; i < rest.length && budget > 0; i += options.batch) await attempt(rest.slice(i, i + options.batch));
  window.markHeld(held);
  window.add(
    closed.map((seq) => ({ seq: String(seq), topic: '', objectType: '', objectId: '', kind: q.CLOSED_GAP_KIND })),
    options.now,
  );
  const rows = present.length > 0 ? await q.selectSeqs(sql, present.map(String)) : [];
  return { closed: closed.length, added: window.add(rows, options.now) };
}
