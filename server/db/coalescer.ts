// Identical concurrent reads share one statement (see ReadCoalescer), keyed by a short
// statement id and the parameters.
import { SharedOwner } from './owner.js';
import type { StatementOwner } from './owner.js';
import type { Param } from './sql.js';

/** What a fresh slot's run stands for until launch() sets it (nothing reads it before): one promise for all. */
const SETTLED: Promise<unknown> = Promise.resolve();

/** A run of a shared read: its promise, and the owner its statement is charged to (every reader's share). */
interface Run {
  running: Promise<unknown>;
  queued: Promise<unknown> | undefined;
  /** The owners of the queued run, gathered until it launches. */
  queuedOwners: SharedOwner | undefined;
}

/**
 * Identical reads in flight share one statement. A wake-up makes many callers re-read
 * the same rows at once; each joins the next run of its read rather than the one already
 * running, because that one may have started before a write this caller has seen
 * acknowledged: so a burst of N identical reads costs at most two statements, and every
 * answer is read after its request arrived (read-your-writes holds). A run's statement is
 * charged to its readers in equal parts (owner.ts): a reader joins before its run starts,
 * so the run knows them all when it does.
 */
export class ReadCoalescer {
  private readonly slots = new Map<string, Run>();

  constructor(private readonly onJoin: () => void = () => {}) {}

  run<T>(key: string, owner: StatementOwner, exec: (owner: StatementOwner) => Promise<T>): Promise<T> {
    const slot = this.slots.get(key);
    if (slot === undefined) {
      const fresh: Run = { running: SETTLED, queued: undefined, queuedOwners: undefined };
      this.slots.set(key, fresh);
      return this.launch(key, fresh, exec, owner);
    }
    this.onJoin();
    if (slot.queued === undefined) {
      const owners = new SharedOwner(owner);
      slot.queuedOwners = owners;
      const go = (): Promise<T> => this.launch(key, slot, exec, owners.size === 1 ? owner : owners);
      slot.queued = slot.running.then(go, go);
    } else {
      slot.queuedOwners?.add(owner);
    }
    return slot.queued as Promise<T>;
  }

  /** Keys with a read in flight (for tests). */
  get size(): number {
    return this.slots.size;
  }

  private launch<T>(key: string, slot: Run, exec: (owner: StatementOwner) => Promise<T>, owner: StatementOwner): Promise<T> {
    const p = exec(owner);
    slot.running = p;
    slot.queued = undefined;
    slot.queuedOwners = undefined;
    const done = (): void => {
      if (slot.running === p && slot.queued === undefined) this.slots.delete(key);
    };
    p.then(done, done);
    return p;
  }
}

/** What the tier knows of a statement text: a short id, whether its reads may be shared, its name. */
export interface StatementInfo {
  readonly id: number;
  /** A plain SELECT (no locking read): identical reads in flight may share it. */
  readonly shareable: boolean;
  /**
   * The query function that sent the text first, and its file ("getNode
   * (rpc/nodes/queries.ts)"): the slow-statement log's name of it, never its parameters.
   * Taken from the stack once per text (texts are static: this stays small).
   */
  readonly name: string;
}

const statements = new Map<string, StatementInfo>();

export function statementOf(sql: string): StatementInfo {
  let s = statements.get(sql);
  if (s === undefined) {
    s = {
      id: statements.size,
      shareable: /^\s*SELECT\b/i.test(sql) && !/\bFOR UPDATE\b|\bLOCK IN SHARE MODE\b/i.test(sql),
      name: senderName(new Error().stack ?? ''),
    };
    statements.set(sql, s);
  }
  return s;
}

/**
 * The first frame of `stack` outside the tier's database layer (server/db/), as
 * "function (path under server/)"; an anonymous function is named by its line.
 */
export function senderName(stack: string): string {
  for (const line of stack.split('\n').slice(1)) {
    if (line.includes('/server/db/') || line.includes('node:internal') || !line.includes('/')) continue;
    const m = /at (?:async )?(?:(\S+) \()?(?:file:\/\/)?(\S+?):(\d+):\d+\)?\s*$/.exec(line);
    if (m === null) continue;
    const [, fn, file, lineNo] = m as unknown as [string, string | undefined, string, string];
    const at = file.lastIndexOf('/server/');
    const path = at >= 0 ? file.slice(at + '/server/'.length) : file.slice(file.lastIndexOf('/') + 1);
    // A module's function is framed as Module.f (Object.f in CommonJS): f is its name.
    const name = fn?.replace(/^(?:Module|Object)\./, '');
    return name === undefined || name === '<anonymous>' ? `${path}:${lineNo}` : `${name} (${path})`;
  }
  return 'unknown';
}

export function readKey(source: string, id: number, params: readonly Param[]): string {
  let key = `${source}:${id}`;
  for (const p of params) key += `\u0000${Buffer.isBuffer(p) ? p.toString('hex') : typeof p}:${String(p)}`;
  return key;
}
