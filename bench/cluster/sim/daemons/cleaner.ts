// The `cleaner` daemon: every 60 s, walks this node's instances in a terminal state
// (ListObjectsByState INSTANCE, DELETED then ERRORED, node scope, keyset pages) and
// reports the `cleaner` period once the walk is done. It finds them and counts them; it
// deletes nothing, so the history a run is seeded with stays as seeded. Feed mode: it
// waits on its node's instances topic as well (the same long-poll as its daemon state) and
// walks only when an instance on its node was created, deleted or changed state since its
// last walk (or the feed resynced, or is not serving): a node whose instances did not
// change has the terminal ones its last walk found, and its period passes without a read.
import type { ObjectState } from '../../../../client/index.js';
import type { PeriodicTask } from '../../../../daemons/index.js';
import { topics } from '../../../../proto/topics.js';
import { Schedule } from '../schedule.js';
import { SimDaemon } from './base.js';

const TERMINAL: readonly ObjectState[] = ['DELETED', 'ERRORED'];
/** Rows per page of the walk: the node's terminal instances cost ceil(n / PAGE) reads per state. */
export const CLEANER_PAGE_SIZE = 1000;

export class SimCleanerDaemon extends SimDaemon {
  private readonly schedule = new Schedule([{ name: 'cleaner', everyMs: this.sim.policy.periods.cleaner, run: () => this.walk() }], this.clock);
  /** Terminal instances found by the last walk. */
  found = 0;
  /** Walks made, and periods passed without one (feed mode, nothing changed). */
  walks = 0;
  skipped = 0;
  /** Feed mode: an instance on this node changed since the last walk (true until the first). */
  private changed = true;

  protected simTasks(): Omit<PeriodicTask, 'daemon'>[] {
    // Feed mode walks on change only: nothing periodic (the walk every period is its fallback).
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
      if (resync || changes.length > 0) this.changed = true;
    }
    return this.schedule.runDue(
      (err) => this.countError(err),
      () => this.stopping,
    );
  }

  private async walk(): Promise<void> {
    if (this.feedActive && !this.changed) {
      this.skipped += 1;
      this.sim.emit({ event: 'period', duty: 'cleaner', node: this.nodeUuid, at: Date.now() });
      return;
    }
    // Cleared before the reads: a change during the walk makes the next period walk again.
    this.changed = false;
    this.walks += 1;
    let found = 0;
    try {
      for (const state of TERMINAL) {
        let pageToken = '';
        do {
          const page = await this.db.listObjectsByState({ objectType: 'INSTANCE', state, nodeUuid: this.nodeUuid, pageSize: CLEANER_PAGE_SIZE, pageToken });
          found += page.items.length;
          pageToken = page.nextPageToken;
          if (this.stopping) return;
        } while (pageToken !== '');
      }
    } catch (err) {
      this.changed = true; // an unfinished walk found nothing: the next period walks again
      throw err;
    }
    this.found = found;
    this.sim.emit({ event: 'period', duty: 'cleaner', node: this.nodeUuid, at: Date.now() });
  }
}
