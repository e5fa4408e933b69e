// The `cleaner` daemon: every 60 s, knows this node's instances in a terminal state
// (DELETED, ERRORED) and reports the `cleaner` period with how many there are. It finds
// them and counts them; it deletes nothing, so the history a run is seeded with stays as
// seeded.
// - Polling (naive, anchor, the feed's fallback): every period walks them all
//   (ListObjectsByState INSTANCE, DELETED then ERRORED, node scope, keyset pages).
// - Feed mode: it waits on its node's instances topic as well (the same long-poll as its
//   daemon state). The first period walks; after that a period re-reads only the instances
//   that changed since the last one — GetObjectState of each one created or moved, none for
//   one deleted — and a period with no change reads nothing. A resync, or a period after
//   the feed stopped serving, walks again. So its reads follow the churn on its node (an
//   instance's moves within one period cost one read), never the node's history or the
//   number of nodes.
import type { FeedChange, ObjectState } from '../../../../client/index.js';
import type { PeriodicTask } from '../../../../daemons/index.js';
import { topics } from '../../../../proto/topics.js';
import { Schedule } from '../schedule.js';
import { SimDaemon } from './base.js';

const TERMINAL: readonly ObjectState[] = ['DELETED', 'ERRORED'];
/** Rows per page of the walk: the node's terminal instances cost ceil(n / PAGE) reads per state. */
export const CLEANER_PAGE_SIZE = 1000;

export class SimCleanerDaemon extends SimDaemon {
  private readonly schedule = new Schedule([{ name: 'cleaner', everyMs: this.sim.policy.periods.cleaner, run: () => this.period() }], this.clock);
  /** This node's terminal instances, as of the last period. */
  private readonly terminal = new Set<string>();
  /** Feed mode: the whole set must be read again (true until the first walk, after a resync or a fallback). */
  private walkNext = true;
  /** Feed mode: instances changed since the last period, and whether the change was their deletion. */
  private readonly pending = new Map<string, boolean>();

  protected simTasks(): Omit<PeriodicTask, 'daemon'>[] {
    // Feed mode reads on change only: nothing periodic (the walk every period is its fallback).
    if (this.usesFeed) return [];
    return [
      {
        task: 'terminal-instances',
        operation: 'ListObjectsByState',
        intervalMs: this.sim.policy.periods.cleaner,
        scale: 'process',
        duty: `find this node's terminal instances (per terminal state, one read per ${CLEANER_PAGE_SIZE} rows)`,
      },
    ];
  }

  /** Feed mode: an instance placed on this node created, deleted or changing state. */
  protected override feedTopics(): string[] {
    return [topics.nodeObjects(this.nodeUuid, 'instance')];
  }

  protected step(): Promise<number> {
    if (this.feedActive) {
      const { changes, resync } = this.takeChanges();
      if (resync) this.walkNext = true;
      for (const c of changes) this.note(c);
    } else {
      this.walkNext = true; // polling: every period walks, and the feed's return starts from a walk
    }
    return this.schedule.runDue(
      (err) => this.countError(err),
      () => this.stopping,
    );
  }

  private note(c: FeedChange): void {
    // An attribute update does not move an instance in or out of a terminal state.
    if (c.objectType !== 'instance' || c.kind === 'updated') return;
    this.pending.set(c.id, c.kind === 'deleted');
  }

  private async period(): Promise<void> {
    if (this.walkNext) await this.walk();
    else await this.reread();
    if (this.stopping) return;
    this.sim.emit({ event: 'period', duty: 'cleaner', node: this.nodeUuid, at: Date.now(), found: this.terminal.size });
  }

  /** Reads every terminal instance of the node; what changed meanwhile is re-read next period. */
  private async walk(): Promise<void> {
    this.walkNext = false;
    this.pending.clear();
    const found = new Set<string>();
    try {
      for (const state of TERMINAL) {
        let pageToken = '';
        do {
          const page = await this.db.listObjectsByState({ objectType: 'INSTANCE', state, nodeUuid: this.nodeUuid, pageSize: CLEANER_PAGE_SIZE, pageToken });
          for (const item of page.items) found.add(item.uuid);
          pageToken = page.nextPageToken;
          if (this.stopping) return;
        } while (pageToken !== '');
      }
    } catch (err) {
      this.walkNext = true; // an unfinished walk found nothing: the next period walks again
      throw err;
    }
    this.terminal.clear();
    for (const id of found) this.terminal.add(id);
  }

  /** Re-reads the state of each instance that changed since the last period. */
  private async reread(): Promise<void> {
    for (const [id, deleted] of [...this.pending]) {
      if (this.stopping) return;
      // Taken off before the read: a change during it is noted again and read next period.
      this.pending.delete(id);
      if (deleted) {
        this.terminal.delete(id);
        continue;
      }
      let state: string | undefined;
      try {
        state = (await this.db.getObjectState('INSTANCE', id))?.state;
      } catch (err) {
        if (!this.pending.has(id)) this.pending.set(id, false); // read it next period
        throw err;
      }
      if (TERMINAL.some((t) => t === state)) this.terminal.add(id);
      else this.terminal.delete(id);
    }
  }
}
