// What a ChangeWaiter's one poll waits on (./changes.ts): the subscriptions, the union of
// their topics (at most MAX_TOPICS_PER_WAIT), what narrows the poll's waking
// (./narrowing.ts), and the delivery of an answer's changes to the subscriptions of
// their topics.
//
// Interest: a subscription may say what it holds (`held`, e.g. a cache's ids). Its topics
// that no other subscription shares are then narrowed by an interest summary (a Bloom
// filter of those ids) sent with the poll, and a change there wakes the poll only when
// the id may be held. Narrowing only delays: the next answer carries every change past
// the cursor. When the subscription starts holding an id the summary in flight does not
// have (`hold(id)`), the waiter re-issues the poll with a fresh summary and the same
// cursor, within `interestRepollMs` (50 ms), so a change to it wakes this process.
//
// Quiet reports: a subscription may name topics on which a report (kind 'reported', a
// daemon's record of its own state) need not wake the poll; a topic every subscription of
// which says so is sent in `quietReports`. A daemon waits on its own state topic to hear
// an operator, and its own RUNNING woke its poll once per start (a call and a poll, 7,000
// of them in a cold start of 1,000 nodes). The report still comes with the next answer.
import { MAX_TOPIC_CHARS, MAX_TOPICS_PER_WAIT, TOPIC_PATTERN } from '@sfdb/proto/topics';
import type { InterestFilter } from '@sfdb/proto/interest';
import type { FeedChange, WaitForChangesInput } from './api/changes.js';
import { Narrowing } from './narrowing.js';
import { Sub } from './subscription.js';
import type { ChangeBatch, Host, SubscribeOptions } from './subscription.js';

export class TopicUnion {
  readonly subs = new Set<Sub>();
  /** The union of topics, each with the subscriptions that have it. */
  private readonly byTopic = new Map<string, Set<Sub>>();
  /** What narrows the poll in flight: its quiet topics and interest summary. */
  private readonly narrowing = new Narrowing();

  /** Distinct topics in the union. */
  get size(): number {
    return this.byTopic.size;
  }

  /** The interest summary of the poll in flight (undefined: it narrows nothing). */
  get summary(): InterestFilter | undefined {
    return this.narrowing.summary;
  }

  /**
   * A subscription to `topics`, added to the union; throws when they are no topics or
   * would take the union past MAX_TOPICS_PER_WAIT. `reissue`: the poll in flight does not
   * wait on what it needs (new topics, or topics that poll narrows more than it allows).
   */
  add(host: Host, topics: readonly string[], listener: ((batch: ChangeBatch) => void) | undefined, options: SubscribeOptions): { sub: Sub; reissue: boolean } {
    const unique = [...new Set(topics)];
    if (unique.length === 0) throw new Error('ChangeWaiter.subscribe: at least one topic is needed');
    for (const t of unique) {
      if (t.length > MAX_TOPIC_CHARS || !TOPIC_PATTERN.test(t)) throw new Error(`ChangeWaiter.subscribe: "${t}" is not a topic (see proto/topics.ts)`);
    }
    const added = unique.filter((t) => !this.byTopic.has(t)).length;
    if (this.byTopic.size + added > MAX_TOPICS_PER_WAIT) {
      throw new Error(
        `ChangeWaiter.subscribe: ${this.byTopic.size + added} distinct topics; one long-poll waits on at most ${MAX_TOPICS_PER_WAIT} (use broader topics)`,
      );
    }
    const quiet = new Set(options.quietReports ?? []);
    for (const t of quiet) if (!unique.includes(t)) throw new Error(`ChangeWaiter.subscribe: quietReports "${t}" is not one of its topics`);
    const sub = new Sub(host, Object.freeze(unique), listener, options.held, quiet);
    this.subs.add(sub);
    for (const t of unique) {
      let set = this.byTopic.get(t);
      if (!set) this.byTopic.set(t, (set = new Set()));
      set.add(sub);
    }
    // Joining topics the poll in flight waits on as needed re-issues nothing.
    return { sub, reissue: added > 0 || this.narrowing.misses(unique, options.held !== undefined, quiet) };
  }

  /** Takes `sub` out; true when a topic left the union. */
  remove(sub: Sub): boolean {
    if (!this.subs.delete(sub)) return false;
    let removed = false;
    for (const t of sub.topics) {
      const set = this.byTopic.get(t);
      set?.delete(sub);
      if (set?.size === 0) {
        this.byTopic.delete(t);
        removed = true;
      }
    }
    return removed;
  }

  /** What the next poll waits on: the union, with what narrows its waking (remembered as sent). */
  poll(): Pick<WaitForChangesInput, 'topics' | 'quietReports' | 'interest'> {
    return { topics: [...this.byTopic.keys()], ...this.narrowing.build(this.byTopic, this.subs) };
  }

  /** Hands each subscription the changes on its topics; with `resync`, every subscription is told. */
  dispatch(changes: FeedChange[], resync: boolean): void {
    const batches = new Map<Sub, FeedChange[]>();
    if (resync) for (const sub of this.subs) batches.set(sub, []);
    for (const c of changes) {
      for (const sub of this.byTopic.get(c.topic) ?? []) {
        let list = batches.get(sub);
        if (!list) batches.set(sub, (list = []));
        list.push(c);
      }
    }
    for (const [sub, list] of batches) sub.deliver(list, resync);
  }
}
