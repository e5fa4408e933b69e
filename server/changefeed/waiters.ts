// The long-polls a replica holds, indexed by topic so that a change wakes only the
// waiters of its topic (10 000 idle waiters cost a map entry and a timer each; a change
// costs a lookup, not a scan).
import type { Cursor } from './cursor.js';

export interface Waiter {
  readonly topics: ReadonlySet<string>;
  /** Where its reader stands; nothing on its topics is past it yet. */
  readonly cursor: Cursor;
  /** Answers it (once): with what changed since its cursor, or nothing (timeout, drain). */
  readonly answer: (why: 'changes' | 'timeout' | 'drain') => void;
}

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

  /** The distinct waiters of any of `topics`. */
  of(topics: Iterable<string>): Set<Waiter> {
    const out = new Set<Waiter>();
    for (const topic of topics) for (const w of this.byTopic.get(topic) ?? []) out.add(w);
    return out;
  }

  all(): Set<Waiter> {
    const out = new Set<Waiter>();
    for (const set of this.byTopic.values()) for (const w of set) out.add(w);
    return out;
  }
}
