// The `cleaner` daemon: every 60 s, walks this node's instances in a terminal state
// (ListObjectsByState INSTANCE, DELETED then ERRORED, node scope, keyset pages) and
// reports the `cleaner` period once the walk is done. It finds them and counts them; it
// deletes nothing, so the history a run is seeded with stays as seeded.
import type { ObjectState } from '../../../../client/index.js';
import type { PeriodicTask } from '../../../../daemons/index.js';
import { Schedule } from '../schedule.js';
import { SimDaemon } from './base.js';

const TERMINAL: readonly ObjectState[] = ['DELETED', 'ERRORED'];
/** Rows per page of the walk: the node's terminal instances cost ceil(n / PAGE) reads per state. */
export const CLEANER_PAGE_SIZE = 1000;

export class SimCleanerDaemon extends SimDaemon {
  private readonly schedule = new Schedule([{ name: 'cleaner', everyMs: this.sim.policy.periods.cleaner, run: () => this.walk() }], this.clock);
  /** Terminal instances found by the last walk. */
  found = 0;

  protected simTasks(): Omit<PeriodicTask, 'daemon'>[] {
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

  protected step(): Promise<number> {
    return this.schedule.runDue(
      (err) => this.countError(err),
      () => this.stopping,
    );
  }

  private async walk(): Promise<void> {
    let found = 0;
    for (const state of TERMINAL) {
      let pageToken = '';
      do {
        const page = await this.db.listObjectsByState({ objectType: 'INSTANCE', state, nodeUuid: this.nodeUuid, pageSize: CLEANER_PAGE_SIZE, pageToken });
        found += page.items.length;
        pageToken = page.nextPageToken;
        if (this.stopping) return;
      } while (pageToken !== '');
    }
    this.found = found;
    this.sim.emit({ event: 'period', duty: 'cleaner', node: this.nodeUuid, at: Date.now() });
  }
}
