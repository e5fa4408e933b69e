// The base of the simulated daemons that are not a framework class of their own
// (transfers, sidechannel, resources, cleaner): a framework Daemon with the whole client;
// the simulator's hooks (operator-stop notice, the mode's idle) come in through
// DaemonOptions.hooks (sim/cluster.ts).
import type { DatabaseClient } from '../../../../client/index.js';
import { Daemon } from '../../../../daemons/index.js';
import type { DaemonOptions, PeriodicTask } from '../../../../daemons/index.js';
import { hookTasks } from '../hooks.js';
import type { SimContext } from '../hooks.js';

export abstract class SimDaemon extends Daemon<DatabaseClient> {
  constructor(
    options: DaemonOptions<DatabaseClient>,
    protected readonly sim: SimContext,
  ) {
    super(options);
  }

  /** The daemon's own periodic calls (the hooks add theirs). */
  protected abstract simTasks(): Omit<PeriodicTask, 'daemon'>[];

  protected override periodicTasks(): Omit<PeriodicTask, 'daemon'>[] {
    return [...this.simTasks(), ...hookTasks(this.sim)];
  }
}
