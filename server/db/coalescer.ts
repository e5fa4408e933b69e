// Identical concurrent reads share one statement (see ReadCoalescer), keyed by a short
// statement id and the parameters.
import type { Param } from './sql.js';

/**
 * Identical reads in flight share one statement. A wake-up makes many callers re-read
 * the same rows at once; each joins the next run of its read rather than the one already
 * running, because that one may have started before a write this caller has seen
 * acknowledged: so a burst of N identical reads costs at most two statements, and every
 * answer is read after its request arrived (read-your-writes holds).
 */
export class ReadCoalescer {
  private readonly slots = new Map<string, { running: Promise<unknown>; queued: Promise<unknown> | undefined }>();

  constructor(private readonly onJoin: () => void = () => {}) {}

  run<T>(key: string, exec: () => Promise<T>): Promise<T> {
    const slot = this.slots.get(key);
    if (slot === undefined) {
      const fresh = { running: Promise.resolve() as Promise<unknown>, queued: undefined as Promise<unknown> | undefined };
      this.slots.set(key, fresh);
      return this.launch(key, fresh, exec);
    }
    this.onJoin();
    slot.queued ??= slot.running.then(
      () => this.launch(key, slot, exec),
      () => this.launch(key, slot, exec),
    );
    return slot.queued as Promise<T>;
  }

  /** Keys with a read in flight (for tests). */
  get size(): number {
    return this.slots.size;
  }

  private launch<T>(key: string, slot: { running: Promise<unknown>; queued: Promise<unknown> | undefined }, exec: () => Promise<T>): Promise<T> {
    const p = exec();
    slot.running = p;
    slot.queued = undefined;
    const done = (): void => {
      if (slot.running === p && slot.queued === undefined) this.slots.delete(key);
    };
    p.then(done, done);
    return p;
  }
}

/** Statement text → a short id and whether its reads may be shared (plain SELECTs only). Statements are static text: this stays small. */
const statements = new Map<string, { id: number; shareable: boolean }>();

export function statementOf(sql: string): { id: number; shareable: boolean } {
  let s = statements.get(sql);
  if (s === undefined) {
    s = { id: statements.size, shareable: /^\s*SELECT\b/i.test(sql) && !/\bFOR UPDATE\b|\bLOCK IN SHARE MODE\b/i.test(sql) };
    statements.set(sql, s);
  }
  return s;
}

export function readKey(source: string, id: number, params: readonly Param[]): string {
  let key = `${source}:${id}`;
  for (const p of params) key += `\u0000${Buffer.isBuffer(p) ? p.toString('hex') : typeof p}:${String(p)}`;
  return key;
}
