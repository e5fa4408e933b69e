// What narrows the waking of a ChangeWaiter's one poll (./changes.ts): the topics every
// subscriber of which keeps reports quiet, and an interest summary of the topics every
// subscriber of which says what it holds. Kept as sent, so that a new subscriber can tell
// whether the poll in flight already waits on what it needs.
import { InterestFilter } from '@sfdb/proto/interest';
import type { WaitForChangesInput } from './api/changes.js';
import type { Sub } from './subscription.js';

export class Narrowing {
  private quiet: ReadonlySet<string> = new Set();
  private narrowed: ReadonlySet<string> = new Set();
  private filter: InterestFilter | undefined;

  /** The summary of the poll in flight (undefined: it narrows nothing). */
  get summary(): InterestFilter | undefined {
    return this.filter;
  }

  /** What the next poll on the union `byTopic` sends besides its topics; remembered as sent. */
  build(byTopic: ReadonlyMap<string, ReadonlySet<Sub>>, subs: Iterable<Sub>): Pick<WaitForChangesInput, 'quietReports' | 'interest'> {
    const topics = [...byTopic.keys()];
    const every = (t: string, ok: (sub: Sub) => boolean): boolean => [...(byTopic.get(t) ?? [])].every(ok);
    const quiet = topics.filter((t) => every(t, (sub) => sub.quietReports.has(t)));
    const narrowed = topics.filter((t) => every(t, (sub) => sub.held !== undefined));
    this.quiet = new Set(quiet);
    this.narrowed = new Set(narrowed);
    this.filter = undefined;
    const out: Pick<WaitForChangesInput, 'quietReports' | 'interest'> = quiet.length > 0 ? { quietReports: quiet } : {};
    if (narrowed.length === 0) return out;
    const ids = new Set<string>();
    for (const sub of subs) if (sub.held !== undefined) for (const id of sub.held()) ids.add(id);
    this.filter = InterestFilter.of(ids);
    return { ...out, interest: { topics: narrowed, filter: this.filter } };
  }

  /**
   * True when the poll in flight does not wait on what a new subscriber of `topics` needs:
   * one that says nothing of what it holds on a narrowed topic, or one that wants reports
   * on a topic kept quiet. (New topics are the caller's to see.)
   */
  misses(topics: readonly string[], saysHeld: boolean, quiet: ReadonlySet<string>): boolean {
    return topics.some((t) => (!saysHeld && this.narrowed.has(t)) || (this.quiet.has(t) && !quiet.has(t)));
  }
}
