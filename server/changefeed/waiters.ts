// The long-polls a replica holds, indexed by topic so that a change wakes only the
// waiters of its topic (10 000 idle waiters cost a map entry and a timer each; a change
// costs a lookup, not a scan). A waiter's interest summary narrows further: a change on a
// topic it narrows wakes it only when the summary may hold the changed id (decided here,
// in memory; the summary is all the state kept, and it is what the waiter sent). A waiter
// may also name topics on which a report (kind 'reported': a daemon's record of its own
// state) does not wake it: the daemon waiting there knows what it reported.
import { idHash } from '@sfdb/proto/interest';
import type { IdHash, InterestFilter } from '@sfdb/proto/interest';
import type { ChangeKindName } from '@sfdb/proto/topics';
import type { Cursor } from './cursor.js';
import type { WindowEntry } from './window.js';

/** What a long-poll said it holds: `filter` narrows the changes of `topics` that wake it; a report on one of `quietReports` wakes it not. */
export interface Interest {
  readonly topics: ReadonlySet<string>;
  /** Undefined when `topics` is empty. */
  readonly filter: InterestFilter | undefined;
  readonly quietReports: ReadonlySet<string>;
}

export interface Waiter {
  readonly topics: ReadonlySet<string>;
  /** Where its reader stands; nothing on its topics is past it yet. */
  readonly cursor: Cursor;
  /** Answers it (once): with what changed since its cursor, or nothing (timeout, drain). */
  readonly answer: (why: 'changes' | 'timeout' | 'drain') => void;
  readonly interest?: Interest;
}

/**
 * True when a change of `topic` and `kind` (its id hashed by `hash`, only when needed) wakes
 * a waiter with `interest`: it is not a report on a topic the waiter keeps quiet, and the
 * topic is not narrowed or the summary may hold the id.
 */
export function wakes(interest: Interest | undefined, topic: string, kind: ChangeKindName, hash: () => IdHash): boolean {
  if (interest === undefined) return true;
  if (kind === 'reported' && interest.quietReports.has(topic)) return false;
  if (interest.filter === undefined || !interest.topics.has(topic)) return true;
  return interest.filter.hasHash(hash());
}

const EMPTY: ReadonlySet<Waiter> = new Set();

export class WaiterSet {
  private readonly byTopic = new Map<string, Set<Waiter>>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  add(w: Waiter): void {
    for (const topic of w.topics) {
      let set = this.byTopic.get(topic);
      if (!set) {
        set = new Set();
        this.byTopic.set(topic, set);
      }
      set.add(w);
    }
    this.count += 1;
  }

  /** False when it was not held (already answered or removed). */
  remove(w: Waiter): boolean {
    let held = false;
    for (const topic of w.topics) {
      const set = this.byTopic.get(topic);
      if (set?.delete(w)) held = true;
      if (set?.size === 0) this.byTopic.delete(topic);
    }
    if (held) this.count -= 1;
    return held;
  }

  /** The waiters of `topic` (a live view: do not change the set while iterating and answering). */
  ofTopic(topic: string): ReadonlySet<Waiter> {
    return this.byTopic.get(topic) ?? EMPTY;
  }

  /** The distinct waiters of any of `topics`. */
  of(topics: Iterable<string>): Set<Waiter> {
    const out = new Set<Waiter>();
    for (const topic of topics) for (const w of this.byTopic.get(topic) ?? []) out.add(w);
    return out;
  }

  /** The topics starting with `prefix` that have a waiter (a scan of the topics held). */
  topicsStartingWith(prefix: string): string[] {
    const out: string[] = [];
    for (const topic of this.byTopic.keys()) if (topic.startsWith(prefix)) out.push(topic);
    return out;
  }

  all(): Set<Waiter> {
    const out = new Set<Waiter>();
    for (const set of this.byTopic.values()) for (const w of set) out.add(w);
    return out;
  }
}

/**
 * The waiters `entries` wake: a waiter of an entry's topic, unless its interest summary
 * narrows that topic and does not hold the id, or the entry is a report on a topic it
 * keeps quiet (`kept`: the waiters so left asleep). A change costs a Bloom probe per
 * narrowed waiter of its topic.
 */
export function wokenBy(waiters: WaiterSet, entries: readonly WindowEntry[]): { woken: Set<Waiter>; kept: number } {
  const woken = new Set<Waiter>();
  let kept = 0;
  for (const e of entries) {
    let hash: IdHash | undefined;
    const hashOf = (): IdHash => (hash ??= idHash(e.objectId));
    for (const w of waiters.ofTopic(e.topic)) {
      if (woken.has(w)) continue;
      if (wakes(w.interest, e.topic, e.kind, hashOf)) woken.add(w);
      else kept += 1;
    }
  }
  return { woken, kept };
}
